import { ADMIN, type RouteAccess, SIGNED_IN } from './types';

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/admin/notifications',
    url: '/api/admin/notifications',
    allowed: ADMIN,
  },
  {
    method: 'GET',
    route: '/api/user/notification-status',
    url: '/api/user/notification-status',
    allowed: SIGNED_IN,
  },
];
