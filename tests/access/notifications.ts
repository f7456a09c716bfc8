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
    route: '/api/admin/notifications/status',
    url: '/api/admin/notifications/status',
    allowed: ADMIN,
  },
  {
    method: 'GET',
    route: '/api/inbox',
    url: '/api/inbox?limit=5',
    allowed: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/admin/inbox',
    url: '/api/admin/inbox?limit=5',
    allowed: ADMIN,
  },
];
