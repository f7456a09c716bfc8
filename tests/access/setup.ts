import { ADMIN, type RouteAccess } from './types';

// The setup checklist (issue 35, decision 258): administrators only.
export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/setup', url: '/api/setup', allowed: ADMIN },
  { method: 'POST', route: '/api/setup/dismiss', url: '/api/setup/dismiss', allowed: ADMIN },
  { method: 'POST', route: '/api/setup/test-page', url: '/api/setup/test-page', allowed: ADMIN },
];
