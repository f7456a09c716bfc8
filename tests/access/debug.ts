import { ADMIN, type RouteAccess } from './types';

const debugRoute = (path: string): RouteAccess => ({
  method: 'GET',
  route: path,
  url: `${path}?_t=1`,
  allowed: ADMIN,
});

export const access: RouteAccess[] = [
  debugRoute('/api/debug/rotations-compare'),
  debugRoute('/api/debug/production-filtering'),
  debugRoute('/api/debug/rotations'),
  debugRoute('/api/debug/database'),
  debugRoute('/api/debug/client-check'),
  debugRoute('/api/debug/audit-integrity'),
];
