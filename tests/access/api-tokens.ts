import { ADMIN, type RouteAccess, SIGNED_IN } from './types';

// Personal API tokens (decision 223): everyone signed in manages their own (another's answers
// 404); administrators list everyone's. A request made with a token is refused them (403).
export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/user/tokens', url: '/api/user/tokens', allowed: SIGNED_IN },
  {
    method: 'POST',
    route: '/api/user/tokens',
    url: '/api/user/tokens',
    body: { name: 'Access check', scope: 'read', expiresInDays: 1 },
    allowed: SIGNED_IN,
  },
  {
    method: 'DELETE',
    route: '/api/user/tokens/:id',
    url: '/api/user/tokens/999999',
    allowed: SIGNED_IN,
  },
  { method: 'GET', route: '/api/admin/api-tokens', url: '/api/admin/api-tokens', allowed: ADMIN },
];
