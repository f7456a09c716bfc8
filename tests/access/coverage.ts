import type { Caller, RouteAccess } from './types';
import { SIGNED_IN } from './types';

/** Who may hold the baton, and so cover or be covered: on-call and managers (admin counts). */
const BATON_HOLDERS: readonly Caller[] = ['admin', 'manager', 'on-call'];

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/coverage-requests',
    url: '/api/coverage-requests',
    allowed: SIGNED_IN,
  },
  ...(['accept', 'decline', 'cancel'] as const).map(
    (action): RouteAccess => ({
      method: 'POST',
      route: `/api/coverage-requests/:id/${action}`,
      url: `/api/coverage-requests/999999/${action}`,
      allowed: BATON_HOLDERS,
    }),
  ),
  {
    method: 'POST',
    route: '/api/rotations/:id/cover-plans',
    url: '/api/rotations/999999/cover-plans',
    body: {
      coveringUserId: 1,
      startTime: '2099-01-01T09:00:00Z',
      endTime: '2099-01-01T17:00:00Z',
    },
    allowed: BATON_HOLDERS,
  },
  {
    method: 'GET',
    route: '/api/rotations/:id/cover-candidates',
    url: '/api/rotations/999999/cover-candidates?startTime=2099-01-01T09:00:00Z&endTime=2099-01-01T17:00:00Z',
    allowed: BATON_HOLDERS,
  },
];
