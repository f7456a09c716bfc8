import { type RouteAccess, SIGNED_IN } from './types';

export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/on-call-team', url: '/api/on-call-team', allowed: SIGNED_IN },
];
