import type { RouteAccess } from './types';

// The API's document and its reference page (decision 224) are public: what the API looks like
// is no secret, what it holds is.
export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/openapi.json', url: '/api/openapi.json', allowed: 'everyone' },
  { method: 'GET', route: '/api/docs', url: '/api/docs', allowed: 'everyone' },
  { method: 'GET', route: '/api/docs/', url: '/api/docs/', allowed: 'everyone' },
  {
    method: 'GET',
    route: '/api/docs/js/scalar.js',
    url: '/api/docs/js/scalar.js',
    allowed: 'everyone',
  },
];
