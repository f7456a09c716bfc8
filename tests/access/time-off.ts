import { type RouteAccess, SIGNED_IN } from './types';

// Who may read and change whose time off is the service's rule (the person, the managers of their
// rotations, administrators); every signed-in user reaches it, and learns 404 for nobody.
export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/users/:id/time-off',
    url: '/api/users/999999/time-off',
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/users/:id/time-off',
    url: '/api/users/999999/time-off',
    body: { startTime: '2030-01-01T09:00:00Z', endTime: '2030-01-08T09:00:00Z', note: 'Away' },
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/users/:id/time-off/preview',
    url: '/api/users/999999/time-off/preview',
    body: { startTime: '2030-01-01T09:00:00Z', endTime: '2030-01-08T09:00:00Z' },
    allowed: SIGNED_IN,
  },
  {
    // Everyone reads the time off they manage: their own at least (decision 256).
    method: 'GET',
    route: '/api/time-off',
    url: '/api/time-off',
    allowed: SIGNED_IN,
  },
  {
    method: 'DELETE',
    route: '/api/users/:id/time-off/:entryId',
    url: '/api/users/999999/time-off/999999',
    allowed: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/time-off/warnings',
    url: '/api/time-off/warnings',
    allowed: SIGNED_IN,
  },
];
