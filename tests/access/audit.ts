import { ADMIN, type RouteAccess, SIGNED_IN } from './types';

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/audit-log/handoffs',
    url: '/api/audit-log/handoffs?search=a&status=success&limit=20',
    allowed: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/audit-log/handoffs.csv',
    url: '/api/audit-log/handoffs.csv',
    allowed: ADMIN,
  },
  {
    method: 'GET',
    route: '/api/audit-log/admin-events',
    url: '/api/audit-log/admin-events?search=a&action=user.invited&limit=20',
    allowed: ADMIN,
  },
  {
    method: 'GET',
    route: '/api/audit-log/admin-events.csv',
    url: '/api/audit-log/admin-events.csv?search=a&action=all',
    allowed: ADMIN,
  },
];
