/**
 * Rotation-scoped routes (decision 233): the writes to a rotation, its members, its baton and what
 * hangs off it (integrations, destinations, its escalation policy), which a manager may call only
 * on the rotations they manage. `src/server/rotation-scope-access.test.ts` calls each on a real
 * rotation, first as a manager who does not manage it (403, nothing changes), then as one who
 * does (neither 401 nor 403), and fails on a route under a scoped prefix that is in neither the
 * table nor the exempt list.
 */

/** What a scoped call may name: one rotation of team C and what belongs to it. */
export interface ScopedFixture {
  rotationId: number;
  /** the holder, and another member who may hold the baton */
  holderId: number;
  memberId: number;
  /** someone on-call who is not a member */
  outsiderId: number;
  /** the manager who does not manage the rotation (the caller refused) */
  strangerId: number;
  /** the rotation's membership rows, in turn order */
  memberRows: readonly { id: number; order: number }[];
  /** the rotation's own escalation policy, and another one that pages nobody of theirs */
  policyId: number;
  otherPolicyId: number;
  integrationId: number;
  /** a destination of the rotation, and one of its integration */
  destinationId: number;
  integrationDestinationId: number;
}

export interface ScopedRoute {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** the route pattern as registered */
  route: string;
  /** what the call is, in the test's name */
  what: string;
  call: (f: ScopedFixture) => { url: string; body?: unknown };
}

const SOON = '2026-11-03T10:00:00.000Z';
const LATER = '2026-11-03T12:00:00.000Z';

export const scoped: ScopedRoute[] = [
  {
    method: 'PATCH',
    route: '/api/rotations/:id',
    what: 'renames the rotation',
    call: (f) => ({ url: `/api/rotations/${f.rotationId}`, body: { name: 'Taken over' } }),
  },
  {
    method: 'PATCH',
    route: '/api/rotations/:id',
    what: 'points the rotation at a policy that pages nobody of theirs',
    call: (f) => ({
      url: `/api/rotations/${f.rotationId}`,
      body: { escalationPolicyId: f.otherPolicyId },
    }),
  },
  {
    method: 'PATCH',
    route: '/api/rotations/:id/members/reorder',
    what: 'reverses the turn order',
    call: (f) => ({
      url: `/api/rotations/${f.rotationId}/members/reorder`,
      body: {
        members: f.memberRows.map((m, i) => ({ id: m.id, order: f.memberRows.length - 1 - i })),
      },
    }),
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/on-call',
    what: 'adds the caller themselves',
    call: (f) => ({
      url: `/api/rotations/${f.rotationId}/on-call`,
      body: { userId: f.strangerId },
    }),
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/on-call',
    what: 'adds someone else',
    call: (f) => ({
      url: `/api/rotations/${f.rotationId}/on-call`,
      body: { userId: f.outsiderId },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/rotations/:id/on-call/:userId',
    what: 'removes the holder',
    call: (f) => ({ url: `/api/rotations/${f.rotationId}/on-call/${f.holderId}` }),
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/assign-oncall',
    what: 'reassigns the baton',
    call: (f) => ({
      url: `/api/rotations/${f.rotationId}/assign-oncall`,
      body: { toUserId: f.memberId, notes: 'Taken over' },
    }),
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/page',
    what: 'pages the holder',
    call: (f) => ({
      url: `/api/rotations/${f.rotationId}/page`,
      body: { message: 'Database is down', urgency: 'high' },
    }),
  },
  {
    method: 'POST',
    route: '/api/rotations/:id/cover-plans',
    what: 'arranges cover for the holder',
    call: (f) => ({
      url: `/api/rotations/${f.rotationId}/cover-plans`,
      body: {
        requesterId: f.holderId,
        coveringUserId: f.memberId,
        startTime: SOON,
        endTime: LATER,
      },
    }),
  },
  {
    method: 'POST',
    route: '/api/integrations',
    what: 'adds an integration to the rotation',
    call: (f) => ({ url: '/api/integrations', body: { name: 'Sneaky', rotationId: f.rotationId } }),
  },
  {
    method: 'PATCH',
    route: '/api/integrations/:id',
    what: 'changes the rotation’s integration',
    call: (f) => ({ url: `/api/integrations/${f.integrationId}`, body: { name: 'Taken over' } }),
  },
  {
    method: 'DELETE',
    route: '/api/integrations/:id',
    what: 'deletes the rotation’s integration',
    call: (f) => ({ url: `/api/integrations/${f.integrationId}` }),
  },
  {
    method: 'POST',
    route: '/api/integrations/:id/key',
    what: 'regenerates the integration key',
    call: (f) => ({ url: `/api/integrations/${f.integrationId}/key` }),
  },
  {
    method: 'POST',
    route: '/api/integrations/:id/test',
    what: 'sends a test alert',
    call: (f) => ({ url: `/api/integrations/${f.integrationId}/test`, body: { severity: 'P3' } }),
  },
  {
    method: 'POST',
    route: '/api/destinations',
    what: 'adds a destination to the rotation',
    call: (f) => ({
      url: '/api/destinations',
      body: {
        kind: 'slack',
        url: 'https://hooks.slack.com/services/T0/B0/sneaky',
        rotationId: f.rotationId,
        events: ['handoff'],
      },
    }),
  },
  {
    method: 'POST',
    route: '/api/destinations',
    what: 'adds a destination to the rotation’s integration',
    call: (f) => ({
      url: '/api/destinations',
      body: {
        kind: 'slack',
        url: 'https://hooks.slack.com/services/T0/B0/sneaky',
        integrationId: f.integrationId,
        events: ['incident.raised'],
      },
    }),
  },
  {
    method: 'PATCH',
    route: '/api/destinations/:id',
    what: 'changes the rotation’s destination',
    call: (f) => ({ url: `/api/destinations/${f.destinationId}`, body: { events: ['cover'] } }),
  },
  {
    method: 'PATCH',
    route: '/api/destinations/:id',
    what: 'changes the integration’s destination',
    call: (f) => ({
      url: `/api/destinations/${f.integrationDestinationId}`,
      body: { url: 'https://hooks.slack.com/services/T0/B0/elsewhere' },
    }),
  },
  {
    method: 'DELETE',
    route: '/api/destinations/:id',
    what: 'deletes the rotation’s destination',
    call: (f) => ({ url: `/api/destinations/${f.destinationId}` }),
  },
  {
    method: 'POST',
    route: '/api/destinations/:id/test',
    what: 'sends a test event',
    call: (f) => ({ url: `/api/destinations/${f.destinationId}/test` }),
  },
  {
    method: 'PATCH',
    route: '/api/escalation-policies/:id',
    what: 'renames the rotation’s policy',
    call: (f) => ({ url: `/api/escalation-policies/${f.policyId}`, body: { name: 'Taken over' } }),
  },
  {
    method: 'DELETE',
    route: '/api/escalation-policies/:id',
    what: 'deletes the rotation’s policy',
    call: (f) => ({ url: `/api/escalation-policies/${f.policyId}` }),
  },
];

/** The path prefixes whose routes belong to one rotation, or to what hangs off one. */
export const SCOPED_PREFIXES = [
  '/api/rotations/:id',
  '/api/rotation-schedules/',
  '/api/integrations/:id',
  '/api/destinations/:id',
  '/api/escalation-policies/:id',
] as const;

const READ = 'a read: every role that may see the rotation reads it';
const ADMIN_ONLY = 'administrators only: the route access table refuses every manager';
const MEMBERS = 'open to every member: the baton rules decide (holder, member), not who manages';

/** Routes under a scoped prefix that are not in the table, each with why. */
export const exempt: Record<string, string> = {
  // Imports (issue 34, decision 268) write rotations, policies and integrations of any team, and
  // only administrators may: the route access table (tests/access/imports.ts) refuses managers.
  'POST /api/imports': ADMIN_ONLY,
  'POST /api/imports/:id/apply': ADMIN_ONLY,
  'GET /api/rotations/:id': READ,
  'GET /api/rotations/:id/pages': READ,
  'GET /api/rotations/:id/schedules': READ,
  'GET /api/rotations/:id/schedules/current': READ,
  'GET /api/rotations/:id/cover-candidates': READ,
  'GET /api/integrations/:id': READ,
  'GET /api/integrations/:id/alerts': READ,
  'GET /api/integrations/:id/test':
    'a read that changes nothing: whom a test alert would page, for those who may send one (403 to the others: integration-alert-routes.test.ts)',
  'GET /api/destinations/:id': READ,
  'GET /api/destinations/:id/deliveries': READ,
  'GET /api/escalation-policies/:id': READ,
  'GET /api/escalation-policies/:id/preview': READ,
  'DELETE /api/rotations/:id': ADMIN_ONLY,
  'POST /api/rotations/:id/suspend': ADMIN_ONLY,
  'POST /api/rotations/:id/activate': ADMIN_ONLY,
  'PATCH /api/rotations/:id/type': ADMIN_ONLY,
  'POST /api/rotations/:id/schedules': ADMIN_ONLY,
  'DELETE /api/rotation-schedules/:scheduleId': ADMIN_ONLY,
  'PATCH /api/rotation-schedules/:scheduleId': ADMIN_ONLY,
  'PATCH /api/rotation-schedules/:scheduleId/occurrences/:start': ADMIN_ONLY,
  'DELETE /api/rotation-schedules/:scheduleId/occurrences/:start': ADMIN_ONLY,
  'POST /api/rotations/:id/take-oncall': MEMBERS,
  'POST /api/rotations/:id/handoff': MEMBERS,
  'POST /api/rotations/:id/cover': MEMBERS,
};
