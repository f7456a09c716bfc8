import { type RouteAccess, SIGNED_IN } from './types';

// "Your shift moved" notices (decision 219): each signed-in person's own.
export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/user/shift-notices',
    url: '/api/user/shift-notices',
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/user/shift-notices/:id/dismiss',
    url: '/api/user/shift-notices/999999/dismiss',
    allowed: SIGNED_IN,
  },
];
