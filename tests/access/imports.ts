import { ADMIN, type RouteAccess } from './types';

// Imports (issue 34, decision 268): administrators only. The plan and apply calls answer 422
// where no reader is wired or no such plan is held: what counts is that others are refused first.
export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/imports', url: '/api/imports', allowed: ADMIN },
  {
    method: 'GET',
    route: '/api/imports/template.csv',
    url: '/api/imports/template.csv',
    allowed: ADMIN,
  },
  {
    method: 'POST',
    route: '/api/imports',
    url: '/api/imports',
    body: { source: 'csv', content: 'name,email' },
    allowed: ADMIN,
  },
  { method: 'GET', route: '/api/imports/:id', url: '/api/imports/1', allowed: ADMIN },
  { method: 'POST', route: '/api/imports/:id/apply', url: '/api/imports/1/apply', allowed: ADMIN },
  { method: 'GET', route: '/api/imports/:id/verify', url: '/api/imports/1/verify', allowed: ADMIN },
];
