import { ADMIN, type RouteAccess } from './types';

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/admin/notifications',
    url: '/api/admin/notifications',
    allowed: ADMIN,
  },
  {
    method: 'GET',
    route: '/api/admin/notifications/status',
    url: '/api/admin/notifications/status',
    allowed: ADMIN,
  },
];
