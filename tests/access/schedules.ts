import { ADMIN, type RouteAccess, SIGNED_IN } from './types';

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/rotations/:id/schedules',
    url: '/api/rotations/999999/schedules',
    allowed: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/rotations/:id/schedules/current',
    url: '/api/rotations/999999/schedules/current',
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/schedules',
    url: '/api/rotations/999999/schedules',
    body: { userId: 1, startTime: '2030-01-01T09:00:00Z', endTime: '2030-01-02T09:00:00Z' },
    allowed: ADMIN,
  },
  {
    method: 'DELETE',
    route: '/api/rotation-schedules/:scheduleId',
    url: '/api/rotation-schedules/999999',
    allowed: ADMIN,
  },
  {
    method: 'PATCH',
    route: '/api/rotation-schedules/:scheduleId',
    url: '/api/rotation-schedules/999999',
    body: { userId: 1 },
    allowed: ADMIN,
  },
  {
    method: 'PATCH',
    route: '/api/rotation-schedules/:scheduleId/occurrences/:start',
    url: '/api/rotation-schedules/999999/occurrences/2030-01-01T09:00:00.000Z',
    body: { userId: 1 },
    allowed: ADMIN,
  },
  {
    method: 'DELETE',
    route: '/api/rotation-schedules/:scheduleId/occurrences/:start',
    url: '/api/rotation-schedules/999999/occurrences/2030-01-01T09:00:00.000Z',
    allowed: ADMIN,
  },
];
