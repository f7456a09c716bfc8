import { ADMIN, type Caller, MANAGERS, type RouteAccess, SIGNED_IN } from './types';

/** Who may hold the baton: on-call and managers (admin counts as manager); never incident managers. */
const BATON_HOLDERS: readonly Caller[] = ['admin', 'manager', 'on-call'];
/** Who may page: incident managers and admins any rotation, managers the ones they manage. */
const PAGERS: readonly Caller[] = ['admin', 'manager', 'incident_manager'];

const missing = '/api/rotations/999999';

export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/rotations', url: '/api/rotations', allowed: SIGNED_IN },
  { method: 'GET', route: '/api/user/rotations', url: '/api/user/rotations', allowed: SIGNED_IN },
  { method: 'GET', route: '/api/rotations/:id', url: missing, allowed: SIGNED_IN },
  {
    method: 'POST',
    route: '/api/rotations',
    url: '/api/rotations',
    body: { name: 'Access table rotation', type: 'fixed' },
    allowed: MANAGERS,
  },
  {
    method: 'PATCH',
    route: '/api/rotations/:id',
    url: missing,
    body: { name: 'Renamed rotation' },
    allowed: MANAGERS,
  },
  { method: 'DELETE', route: '/api/rotations/:id', url: missing, allowed: ADMIN },
  {
    method: 'POST',
    route: '/api/rotations/:id/suspend',
    url: `${missing}/suspend`,
    allowed: ADMIN,
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/activate',
    url: `${missing}/activate`,
    allowed: ADMIN,
  },
  {
    method: 'PATCH',
    route: '/api/rotations/:id/type',
    url: `${missing}/type`,
    body: { type: 'fixed' },
    allowed: ADMIN,
  },
  {
    method: 'PATCH',
    route: '/api/rotations/:id/members/reorder',
    url: `${missing}/members/reorder`,
    body: { members: [{ id: 1, order: 0 }] },
    allowed: MANAGERS,
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/on-call',
    url: `${missing}/on-call`,
    body: { userId: 1, order: 0 },
    allowed: MANAGERS,
  },
  {
    method: 'DELETE',
    route: '/api/rotations/:id/on-call/:userId',
    url: `${missing}/on-call/1`,
    allowed: MANAGERS,
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/take-oncall',
    url: `${missing}/take-oncall`,
    allowed: BATON_HOLDERS,
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/handoff',
    url: `${missing}/handoff`,
    body: { toUserId: 1 },
    allowed: BATON_HOLDERS,
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/assign-oncall',
    url: `${missing}/assign-oncall`,
    body: { toUserId: 1, notes: '' },
    allowed: MANAGERS,
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/cover',
    url: `${missing}/cover`,
    body: {
      coveringUserId: 1,
      startTime: '2030-01-01T09:00:00Z',
      endTime: '2030-01-02T09:00:00Z',
      notes: null,
    },
    allowed: BATON_HOLDERS,
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/page',
    url: `${missing}/page`,
    body: { message: 'Database is down', urgency: 'high' },
    allowed: PAGERS,
  },
];
