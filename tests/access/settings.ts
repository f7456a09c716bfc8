import { type RouteAccess, SIGNED_IN } from './types';

export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/user/settings', url: '/api/user/settings', allowed: SIGNED_IN },
  {
    method: 'PATCH',
    route: '/api/user/settings',
    url: '/api/user/settings',
    body: { handoffReminderMinutes: 60 },
    allowed: SIGNED_IN,
  },
];
