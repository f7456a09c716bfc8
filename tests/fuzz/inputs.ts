import fc from 'fast-check';
import { TEST_PASSWORD } from '../setup/test-app';

/**
 * What the input fuzz (tests/fuzz/endpoint-fuzz.ts) sends to each route: for every path
 * parameter, query parameter and body field, a generator of valid-looking values. The fuzz mixes
 * each with hostile values (hostileValue below) and adds keys no route expects. A route without
 * an entry here fails the fuzz test, so a new route must say what it reads.
 */

/** The rows of the fuzz database, read again before each route's run. */
export interface Pool {
  rotationIds: number[];
  userIds: number[];
  /** users other than the two signed in, for the routes that delete or demote a user */
  otherUserIds: number[];
  memberIds: number[];
  pageIds: number[];
  scheduleIds: number[];
  handoffIds: number[];
  coverageIds: number[];
  invitationIds: number[];
  eventIds: number[];
  policyIds: number[];
  integrationIds: number[];
  /** alert ids (the alert lists' cursor) */
  alertIds: number[];
  /** entries of time off (issue 18) */
  timeOffIds: number[];
  /** personal API tokens (issue 20) */
  apiTokenIds: number[];
  invitationTokens: string[];
  feedTokens: string[];
  /** integration keys handed out during the seed (the inbound alert routes' credential) */
  integrationKeys: string[];
}

export type Gen = (pool: Pool) => fc.Arbitrary<unknown>;

export interface EndpointInputs {
  params?: Record<string, Gen>;
  query?: Record<string, Gen>;
  body?: Record<string, Gen>;
  /** request headers a route reads (an integration key in Authorization), sent as given */
  headers?: Record<string, Gen>;
}

// Valid-looking values.
const realOr = (ids: number[]) =>
  ids.length > 0
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...ids) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }) },
      )
    : fc.integer({ min: 1, max: 60 });
const rotationId: Gen = (p) => realOr(p.rotationIds);
const userId: Gen = (p) => realOr(p.userIds);
const otherUserId: Gen = (p) => realOr(p.otherUserIds);
const memberId: Gen = (p) => realOr(p.memberIds);
const pageId: Gen = (p) => realOr(p.pageIds);
const scheduleId: Gen = (p) => realOr(p.scheduleIds);
const handoffId: Gen = (p) => realOr(p.handoffIds);
const coverageId: Gen = (p) => realOr(p.coverageIds);
const invitationId: Gen = (p) => realOr(p.invitationIds);
const eventId: Gen = (p) => realOr(p.eventIds);
const policyId: Gen = (p) => realOr(p.policyIds);
const integrationId: Gen = (p) => realOr(p.integrationIds);
const alertId: Gen = (p) => realOr(p.alertIds);
const timeOffId: Gen = (p) => realOr(p.timeOffIds);
const apiTokenId: Gen = (p) => realOr(p.apiTokenIds);
/** an import: the fuzz database has none, so any id is one it does not hold */
const importId: Gen = () => fc.integer({ min: 1, max: 60 });
/** the demo inbox's cursor: any notification id, kept or not */
const notificationId: Gen = () => fc.integer({ min: 1, max: 10_000 });

const words = fc
  .array(
    fc.constantFrom('Platform', 'Ops', 'Payments', 'Night', 'Duty', 'Priya', 'Shah', 'ü', '班'),
    {
      minLength: 1,
      maxLength: 4,
    },
  )
  .map((w) => w.join(' '));
const line: Gen = () =>
  fc.oneof(
    { weight: 4, arbitrary: words },
    { weight: 1, arbitrary: fc.string({ minLength: 3, maxLength: 40 }) },
  );
const paragraph: Gen = () =>
  fc.oneof(
    words,
    fc.array(words, { maxLength: 4 }).map((w) => w.join('\n\t')),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
  );
const isoInstant: Gen = () =>
  fc.oneof(
    fc
      .date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2032-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString()),
    fc.constantFrom(
      '2026-11-02',
      '2026-11-02T12:00:00+14:00',
      '-271821-04-20T00:00:00.000Z',
      '+275760-09-13T00:00:00.000Z',
      '0000-01-01T00:00:00Z',
      '-004714-01-01T00:00:00Z',
      '+294277-01-01T00:00:00Z',
      '1',
      '2026-13-45T25:61:00Z',
    ),
  );
const oneOf =
  (...values: unknown[]): Gen =>
  () =>
    fc.constantFrom(...values);
const email: Gen = () =>
  fc.oneof(
    fc.constantFrom('priya.shah@example.com', 'new.person@example.com', 'x@other.org', 'a@b'),
    fc.emailAddress(),
  );
const timeZone = oneOf(
  'UTC',
  'Europe/London',
  'America/New_York',
  'Australia/Sydney',
  'Etc/GMT+12',
);
/** the step an escalation saw (decision 236): real ones, and ones no step has */
const fromStep = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom(0, -1, 1.5, 1e6, '1'));
const limit: Gen = () => fc.oneof(fc.integer({ min: 1, max: 200 }), fc.constantFrom(0, 1000, 1e6));
const feedToken: Gen = (p) =>
  p.feedTokens.length > 0
    ? fc.oneof(fc.constantFrom(...p.feedTokens), fc.base64String({ maxLength: 60 }))
    : fc.base64String({ maxLength: 60 });
/** a call's callback token (decision 252): the blind index's base64url, or anything */
const callToken: Gen = () =>
  fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), fc.string({ maxLength: 60 }));
/** What Twilio posts about a call (decision 252). */
const TWILIO_CALL_BODY = {
  CallSid: () => fc.constantFrom('CA0123456789abcdef0123456789abcdef', '', 'x'.repeat(80)),
  CallStatus: () => fc.constantFrom('in-progress', 'completed', 'no-answer', 'busy', 'nope'),
  AnsweredBy: () => fc.constantFrom('human', 'machine_start', 'fax', ''),
  Digits: () => fc.oneof(fc.constantFrom('1', '2', '3', '9', ''), fc.string()),
};
const ackToken: Gen = (p) =>
  fc
    .tuple(realOr(p.pageIds), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/))
    .map(([id, mac]) => `${id}.${mac}`);
const invitationToken: Gen = (p) =>
  p.invitationTokens.length > 0
    ? fc.oneof(fc.constantFrom(...p.invitationTokens), fc.base64String({ maxLength: 60 }))
    : fc.base64String({ maxLength: 60 });
const cursor: Gen = () =>
  fc
    .tuple(
      isoInstant({} as Pool),
      fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constant(2147483648)),
    )
    .map(([at, id]) => Buffer.from(`${at}|${id}`).toString('base64url'));

const integrationFields = {
  name: line,
  grouping: oneOf('group', 'fingerprint', 'alert'),
  emailDedup: oneOf('subject', 'message', 'sender'),
  urgency: oneOf('severity', 'high', 'low', 'medium'),
  stormLimit: () => fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, 10_001, 2.5)),
  rateLimit: () => fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, 10_001, 2.5)),
  signingSecret: () =>
    fc.oneof(fc.constant(null), fc.string({ minLength: 8, maxLength: 40 }), fc.constant('short')),
};

/** A rotation's layers (decision 247): sound ones and every kind of wrong field. */
const layers: Gen = (p) =>
  fc.array(
    fc.record({
      name: fc.constantFrom('London', '', 'x'.repeat(101)),
      memberIds: fc.array(realOr(p.userIds), { maxLength: 4 }),
      cadence: fc.constantFrom('hourly', 'daily', 'weekly', 'monthly'),
      cadenceEvery: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.constantFrom(0, -1, 1.5, '2')),
      handoffTime: fc.constantFrom('07:00', '25:00', '7'),
      handoffWeekday: fc.integer({ min: -1, max: 7 }),
      activeWindows: fc.array(
        fc.record({
          days: fc.array(fc.integer({ min: -1, max: 8 }), { maxLength: 8 }),
          start: fc.constantFrom('07:00', '19:00', '9am'),
          end: fc.constantFrom('19:00', '00:00', '24:00'),
        }),
        { maxLength: 3 },
      ),
    }),
    { maxLength: 3 },
  );

const rotationFields = {
  name: line,
  description: paragraph,
  type: oneOf('fixed', 'scheduled'),
  cadence: oneOf('daily', 'weekly'),
  timeZone,
  handoffTime: oneOf('09:00', '23:59', '00:00'),
  handoffWeekday: () => fc.integer({ min: 0, max: 6 }),
  layers,
};

/** A person's notification rules for one urgency (decision 251), right and wrong. */
const notificationRules: Gen = () =>
  fc.array(
    fc.record({
      method: fc.constantFrom('email', 'sms', 'voice', 'push', 'fax'),
      delayMinutes: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.constantFrom(-1, 61, 1.5, '5')),
    }),
    { maxLength: 10 },
  );
/** A browser's PushSubscription.toJSON() (decision 253), right and wrong. */
const base64urlOf = (length: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.stringMatching(new RegExp(`^[A-Za-z0-9_-]{${length}}$`)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  );
const pushSubscription = {
  endpoint: () =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .stringMatching(/^[A-Za-z0-9_-]{8,40}$/)
          .map((id) => `https://push.example.com/send/${id}`),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'http://push.example.com/send/1',
          'https://10.0.0.5/send/1',
          'https://[::1]/send',
          'not a url',
        ),
      },
      { weight: 1, arbitrary: fc.webUrl() },
    ),
  expirationTime: () => fc.oneof(fc.constant(null), fc.nat(), fc.constantFrom(-1, 1.5, 'soon')),
  keys: () => fc.record({ p256dh: base64urlOf(87), auth: base64urlOf(22) }),
  name: line,
};
const byRotation = { id: rotationId };

/** A person's working days (decision 254): real weekdays, repeats and days no week has. */
const workingDays: Gen = () =>
  fc.array(fc.oneof(fc.integer({ min: -1, max: 8 }), fc.constantFrom(1.5, '1')), { maxLength: 9 });

/** An escalation step: targets over real rotations and people, mostly valid delays and hours. */
const escalationTarget: Gen = (p) =>
  fc.oneof(
    fc.record({
      type: fc.constantFrom(
        'rotation-holder',
        'rotation-next',
        'rotation-backup',
        'rotation-members',
      ),
      id: rotationId(p),
    }),
    fc.record({ type: fc.constant('user'), id: userId(p) }),
    fc.record({ type: fc.constantFrom('team', '', 'schedule'), id: fc.integer() }),
  );
const activeWindow = fc.record({
  daysOfWeek: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
  startTime: fc.constantFrom('22:00', '07:00', '00:00', '24:00', '9:00'),
  endTime: fc.constantFrom('07:00', '22:00', '00:00'),
});
const escalationSteps: Gen = (p) =>
  fc.array(
    fc.record(
      {
        delayMinutes: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constantFrom(0, 1440, 1441)),
        targets: fc.array(escalationTarget(p), { maxLength: 4 }),
        assignment: fc.constantFrom('everyone', 'round-robin', 'random'),
        activeHours: fc.oneof(fc.constant(null), fc.array(activeWindow, { maxLength: 3 })),
      },
      { requiredKeys: ['delayMinutes', 'targets'] },
    ),
    { maxLength: 4 },
  );
const escalationPolicyFields = {
  name: line,
  repeat: () => fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom(-1, 10, 1.5)),
  steps: escalationSteps,
};
const coverageActions = ['accept', 'decline', 'cancel'] as const;

/** An integration key: mostly a real one, else one no integration has. */
// Destinations (decision 221): made-up ids (no pool), each kind, URLs the rule accepts and refuses
const destinationId: Gen = () => fc.integer({ min: 1, max: 50 });
const destinationFields = {
  kind: oneOf('slack', 'mattermost', 'discord', 'teams', 'webhook', 'irc'),
  url: oneOf(
    'https://hooks.slack.com/services/T0/B0/fuzz',
    'http://127.0.0.1:9/hook',
    'http://example.com/hook',
    'ftp://example.com/hook',
    '',
  ),
  events: () =>
    fc.array(
      fc.constantFrom('handoff', 'cover', 'incident.raised', 'digest', 'time-off', 'birthday'),
      { maxLength: 4 },
    ),
  digestTime: oneOf('09:00', '23:59', '24:00', ''),
  digestTimeZone: timeZone,
};

const integrationKey: Gen = (p) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...(p.integrationKeys.length ? p.integrationKeys : ['none'])),
    },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/) },
  );
const alertLabels = () =>
  fc.dictionary(
    fc.constantFrom('alertname', 'severity', 'instance', 'job', '__proto__', 'ü'),
    fc.oneof(fc.constantFrom('DiskFull', 'critical', 'warning', 'db1'), fc.string()),
    { maxKeys: 4 },
  );
const amAlerts: Gen = () =>
  fc.array(
    fc.record(
      {
        status: fc.constantFrom('firing', 'resolved'),
        labels: alertLabels(),
        annotations: alertLabels(),
        startsAt: fc.constantFrom('2026-11-02T11:59:00Z', '0001-01-01T00:00:00Z'),
        endsAt: fc.constantFrom('0001-01-01T00:00:00Z', '2026-11-02T12:00:00Z'),
        generatorURL: fc.constantFrom('http://prometheus:9090/graph', 'javascript:alert(1)', ''),
        fingerprint: fc.stringMatching(/^[0-9a-f]{16}$/),
      },
      { requiredKeys: ['status', 'labels', 'fingerprint'] },
    ),
    { minLength: 1, maxLength: 3 },
  );
const alertGroupFields = {
  status: oneOf('firing', 'resolved'),
  groupKey: () =>
    fc.oneof(fc.constantFrom('{}:{alertname="DiskFull"}'), fc.string({ minLength: 1 })),
  alerts: amAlerts,
  groupLabels: alertLabels,
  commonLabels: alertLabels,
  commonAnnotations: alertLabels,
  externalURL: oneOf('http://alertmanager:9093', 'not a url'),
  truncatedAlerts: () => fc.nat(5),
  receiver: line,
};
const genieKey: Gen = (p) => integrationKey(p).map((k) => `GenieKey ${k}`);
const opsgenieIdentifier: Gen = () =>
  fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.constantFrom('disk-full', '42', '0'));

/** ENDPOINT_INPUTS: 'METHOD /route/:pattern' → what the route reads. */
export const ENDPOINT_INPUTS: Record<string, EndpointInputs> = {
  'GET /healthz': {},
  'GET /readyz': {},
  'GET /api/health': {},
  'GET /api/help/timings': {},
  'GET /api/help/links': {},
  // The API's document and its reference page (decision 224)
  'GET /api/openapi.json': {},
  'GET /openapi.json': {},
  'GET /api/docs': {},
  'GET /api/docs/': {},
  'GET /api/docs/js/scalar.js': {},
  // Sign-in
  'GET /api/auth/options': {},
  'GET /api/auth/user': {},
  'POST /api/auth/login': {
    body: { email, password: () => fc.oneof(fc.constant(TEST_PASSWORD), fc.string()) },
  },
  'POST /api/auth/logout': {},
  'GET /api/auth/oidc/start': {},
  'GET /api/auth/oidc/callback': {
    query: {
      state: line,
      code: line,
      error: oneOf('access_denied', 'operation_not_allowed'),
      iss: line,
    },
  },
  'GET /api/auth/oidc/popup.js': {},
  'POST /api/auth/firebase': { body: { token: () => fc.base64String({ maxLength: 200 }) } },
  // Users, settings, invitations
  'GET /api/users': {},
  'GET /api/users/by-roles': {
    query: { roles: oneOf('on-call,manager', 'admin', 'member', 'incident_manager,on-call') },
  },
  'PATCH /api/users/:id': {
    params: { id: userId },
    body: {
      name: line,
      phone: oneOf('+15551234567', '', null, '555 123 4567'),
      timezone: timeZone,
      notificationPreference: oneOf('email', 'sms', 'both', 'all'),
    },
  },
  'GET /api/users/:id': { params: { id: userId } },
  // Time off (issue 18, decision 217)
  'GET /api/users/:id/time-off': { params: { id: userId } },
  'POST /api/users/:id/time-off': {
    params: { id: userId },
    body: { startTime: isoInstant, endTime: isoInstant, note: paragraph },
  },
  'DELETE /api/users/:id/time-off/:entryId': { params: { id: userId, entryId: timeOffId } },
  // The impact before saving, and the team's list (issue 35, decision 256)
  'POST /api/users/:id/time-off/preview': {
    params: { id: userId },
    body: { startTime: isoInstant, endTime: isoInstant, note: paragraph },
  },
  'GET /api/time-off': {},
  // Personal notification rules (issue 33, decision 251)
  'GET /api/users/:id/notification-rules': { params: { id: userId } },
  'PUT /api/users/:id/notification-rules': {
    params: { id: userId },
    body: { high: notificationRules, low: notificationRules },
  },
  'DELETE /api/users/:id/notification-rules': { params: { id: userId } },
  // Working hours, Send a test and who can be reached (issue 33, decision 254)
  'GET /api/users/:id/working-hours': { params: { id: userId } },
  'PUT /api/users/:id/working-hours': {
    params: { id: userId },
    body: {
      days: workingDays,
      start: oneOf('09:00', '23:59', '9am', '24:00', ''),
      end: oneOf('17:00', '00:00', '25:00'),
      holdLowUrgency: oneOf(true, false, 'yes', null),
    },
  },
  'POST /api/users/:id/notification-test': {
    params: { id: userId },
    body: {
      method: oneOf('email', 'sms', 'voice', 'push', 'fax'),
      deviceId: () => fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, -1, 1.5, '1')),
    },
  },
  'GET /api/users/reachability': {},
  // Push (issue 33, decision 253)
  'GET /api/push/public-key': {},
  'GET /api/users/:id/push-subscriptions': { params: { id: userId } },
  'POST /api/users/:id/push-subscriptions': { params: { id: userId }, body: pushSubscription },
  'PATCH /api/users/:id/push-subscriptions/:deviceId': {
    params: { id: userId, deviceId: () => fc.integer({ min: 1, max: 60 }) },
    body: { name: line },
  },
  'DELETE /api/users/:id/push-subscriptions/:deviceId': {
    params: { id: userId, deviceId: () => fc.integer({ min: 1, max: 60 }) },
  },
  'GET /api/time-off/warnings': { query: { rotationId } },
  // Personal API tokens (issue 20, decision 223)
  'GET /api/user/tokens': {},
  'POST /api/user/tokens': {
    body: {
      name: line,
      scope: oneOf('read', 'write', 'admin', ''),
      expiresInDays: oneOf(1, 30, 90, 365, 366, 0, -1, 1.5, '90'),
    },
  },
  'DELETE /api/user/tokens/:id': { params: { id: apiTokenId } },
  'GET /api/admin/api-tokens': {},
  'DELETE /api/users/:id': { params: { id: otherUserId } },
  'PATCH /api/admin/users/:id/roles': {
    params: { id: otherUserId },
    body: {
      roles: () =>
        fc.array(
          fc.constantFrom('admin', 'manager', 'on-call', 'incident_manager', 'member', 'root'),
          {
            maxLength: 4,
          },
        ),
    },
  },
  'GET /api/user/settings': {},
  // The setup checklist (issue 35, decision 258)
  'GET /api/setup': {},
  'POST /api/setup/dismiss': {},
  'POST /api/setup/test-page': {},
  // Imports (issue 34, decision 268): no source is wired in the fuzz app, so a plan is refused
  'POST /api/imports': {
    body: {
      source: () =>
        fc.constantFrom('pagerduty', 'opsgenie', 'grafana-oncall', 'ics', 'csv', 'jira'),
      apiUrl: () =>
        fc.constantFrom('https://api.pagerduty.com', 'http://127.0.0.1:9/api', 'not a url'),
      apiKey: line,
      content: () => fc.string({ maxLength: 400 }),
    },
  },
  'GET /api/imports': {},
  'GET /api/imports/template.csv': {},
  'GET /api/imports/:id': { params: { id: importId } },
  'POST /api/imports/:id/apply': { params: { id: importId } },
  'GET /api/imports/:id/verify': { params: { id: importId } },
  'PATCH /api/user/settings': {
    body: { timezone: timeZone, handoffReminderMinutes: oneOf(15, 30, 60, 120, 1440) },
  },
  'GET /api/invitations': {},
  'POST /api/invitations': {
    body: { email, name: line, role: oneOf('admin', 'manager', 'incident_manager', 'member') },
  },
  'DELETE /api/invitations/:id': { params: { id: invitationId } },
  'GET /api/invitations/:token/validate': { params: { token: invitationToken } },
  'GET /api/on-call-team': {},
  // Rotations and the baton
  'GET /api/rotations': {},
  'GET /api/user/rotations': {},
  'POST /api/rotations': {
    body: {
      ...rotationFields,
      // made with its members (decision 255): real people mostly, someone twice sometimes
      memberIds: (p) => fc.array(userId(p), { maxLength: 4 }),
      firstOnCallId: userId,
    },
  },
  'GET /api/rotations/:id': { params: byRotation },
  'PATCH /api/rotations/:id': {
    params: byRotation,
    body: { ...rotationFields, escalationPolicyId: policyId },
  },
  'DELETE /api/rotations/:id': { params: byRotation },
  'POST /api/rotations/:id/suspend': { params: byRotation },
  'POST /api/rotations/:id/activate': { params: byRotation },
  'PATCH /api/rotations/:id/type': { params: byRotation, body: { type: rotationFields.type } },
  'PATCH /api/rotations/:id/members/reorder': {
    params: byRotation,
    body: {
      members: (p) =>
        fc.array(fc.record({ id: memberId(p), order: fc.integer({ min: 0, max: 10 }) }), {
          maxLength: 5,
        }),
    },
  },
  'POST /api/rotations/:id/on-call': {
    params: byRotation,
    body: { userId, order: () => fc.integer({ min: 0, max: 10 }) },
  },
  'DELETE /api/rotations/:id/on-call/:userId': { params: { id: rotationId, userId } },
  'POST /api/rotations/:id/take-oncall': { params: byRotation },
  'POST /api/rotations/:id/handoff': {
    params: byRotation,
    body: { toUserId: userId, notes: paragraph, urgent: () => fc.boolean() },
  },
  'POST /api/rotations/:id/assign-oncall': {
    params: byRotation,
    body: { toUserId: userId, notes: paragraph },
  },
  'POST /api/rotations/:id/cover': {
    params: byRotation,
    body: {
      rotationId,
      coveringUserId: userId,
      startTime: isoInstant,
      endTime: isoInstant,
      notes: paragraph,
    },
  },
  'POST /api/rotations/:id/cover-plans': {
    params: byRotation,
    body: {
      requesterId: userId,
      coveringUserId: userId,
      startTime: isoInstant,
      endTime: isoInstant,
      notes: paragraph,
    },
  },
  'GET /api/rotations/:id/cover-candidates': {
    params: byRotation,
    query: { startTime: isoInstant, endTime: isoInstant, requesterId: userId },
  },
  'POST /api/rotations/:id/page': {
    params: byRotation,
    body: { message: paragraph, urgency: oneOf('low', 'medium', 'high') },
  },
  // Schedules
  'GET /api/rotations/:id/schedules': { params: byRotation },
  'GET /api/rotations/:id/schedules/current': { params: byRotation },
  'POST /api/rotations/:id/schedules': {
    params: byRotation,
    body: { userId, startTime: isoInstant, endTime: isoInstant },
  },
  'DELETE /api/rotation-schedules/:scheduleId': { params: { scheduleId } },
  'PATCH /api/rotation-schedules/:scheduleId': {
    params: { scheduleId },
    body: { userId, startTime: isoInstant, endTime: isoInstant },
  },
  'PATCH /api/rotation-schedules/:scheduleId/occurrences/:start': {
    params: { scheduleId, start: isoInstant },
    body: { userId, startTime: isoInstant, endTime: isoInstant },
  },
  'DELETE /api/rotation-schedules/:scheduleId/occurrences/:start': {
    params: { scheduleId, start: isoInstant },
  },
  // Handoffs and coverage
  'GET /api/handoffs/recent': { query: { limit } },
  'POST /api/handoffs/:id/acknowledge': { params: { id: handoffId } },
  'GET /api/coverage-requests': {},
  ...Object.fromEntries(
    coverageActions.map((action) => [
      `POST /api/coverage-requests/:id/${action}`,
      { params: { id: coverageId } },
    ]),
  ),
  // Calendar
  'GET /api/calendar': { query: { from: isoInstant, to: isoInstant } },
  'GET /api/calendar/feed': {},
  'POST /api/calendar/feed/reset': {},
  'GET /api/calendar/feeds/:token/me.ics': { params: { token: feedToken } },
  'GET /api/calendar/feeds/:token/rotations/:file': {
    params: { token: feedToken, file: (p) => rotationId(p).map((id) => `${id}.ics`) },
  },
  'GET /api/oncalls': { query: { at: isoInstant, rotationId } },
  // Paging
  'GET /api/rotations/:id/pages': { params: byRotation, query: { limit, before: pageId } },
  'GET /api/user/pages': {},
  'GET /api/user/page-delivery-failures': {},
  'GET /api/user/shift-notices': {},
  // The live stream (decision 220): in process it answers its opening and ends.
  'GET /api/events': { query: { lastEventId: () => fc.integer({ min: 0, max: 100_000 }) } },
  'POST /api/user/shift-notices/:id/dismiss': {
    params: { id: () => fc.integer({ min: 1, max: 60 }) },
  },
  'POST /api/pages/:id/acknowledge': { params: { id: pageId } },
  'POST /api/pages/:id/resolve': { params: { id: pageId } },
  // Escalation policies
  'GET /api/escalation-policies': {},
  'POST /api/escalation-policies': { body: escalationPolicyFields },
  'GET /api/escalation-policies/:id': { params: { id: policyId } },
  'PATCH /api/escalation-policies/:id': { params: { id: policyId }, body: escalationPolicyFields },
  'DELETE /api/escalation-policies/:id': { params: { id: policyId } },
  'GET /api/escalation-policies/:id/preview': { params: { id: policyId } },
  'POST /api/pages/:id/escalate': {
    params: { id: pageId },
    body: { reason: paragraph, fromStep: () => fromStep },
  },
  // Integrations (decision 210)
  'GET /api/integrations': { query: { rotationId, escalationPolicyId: policyId } },
  'POST /api/integrations': {
    body: { rotationId, escalationPolicyId: policyId, ...integrationFields },
  },
  'GET /api/integrations/:id': { params: { id: integrationId } },
  'PATCH /api/integrations/:id': { params: { id: integrationId }, body: integrationFields },
  'DELETE /api/integrations/:id': { params: { id: integrationId } },
  'POST /api/integrations/:id/key': { params: { id: integrationId } },
  'POST /api/integrations/:id/test': {
    params: { id: integrationId },
    body: { severity: oneOf('P1', 'P2', 'P3', 'P4', '') },
  },
  'GET /api/integrations/:id/test': { params: { id: integrationId } },
  'GET /api/integrations/:id/alerts': { params: { id: integrationId }, query: { before: alertId } },
  'GET /api/incidents/:id/alerts': { params: { id: pageId }, query: { before: alertId } },
  'GET /api/destinations': {
    query: {
      rotationId,
      escalationPolicyId: policyId,
      integrationId,
      kind: destinationFields.kind,
    },
  },
  'POST /api/destinations': {
    body: { rotationId, escalationPolicyId: policyId, integrationId, ...destinationFields },
  },
  'GET /api/destinations/:id': { params: { id: destinationId } },
  'PATCH /api/destinations/:id': {
    params: { id: destinationId },
    body: {
      url: destinationFields.url,
      events: destinationFields.events,
      digestTime: destinationFields.digestTime,
      digestTimeZone: timeZone,
    },
  },
  'DELETE /api/destinations/:id': { params: { id: destinationId } },
  'POST /api/destinations/:id/test': { params: { id: destinationId } },
  'GET /api/destinations/:id/deliveries': { params: { id: destinationId } },
  // Incidents: the reads and notes (decision 205); a page is an incident, so its ids are pages'
  'GET /api/incidents': {
    query: {
      status: oneOf('triggered', 'acknowledged', 'resolved', 'escalated', ''),
      open: oneOf('true', 'false', 'yes'),
      severity: oneOf('P1', 'P2', 'P3', 'P4'),
      rotationId,
      mine: oneOf('true', 'false'),
      q: line,
      limit,
      before: pageId,
    },
  },
  'GET /api/incidents/:id': { params: { id: pageId } },
  'POST /api/incidents/:id/notes': { params: { id: pageId }, body: { text: paragraph } },
  'GET /api/pages/ack/:token': { params: { token: ackToken } },
  'POST /api/pages/ack/:token': { params: { token: ackToken } },
  // Incident actions (decision 204)
  'POST /api/incidents': {
    body: {
      title: line,
      severity: oneOf('P1', 'P2', 'P3', 'P4', ''),
      urgency: oneOf('low', 'medium', 'high', 'urgent'),
      description: paragraph,
      impact: paragraph,
      troubleshootingSteps: paragraph,
      rotationId,
      escalationPolicyId: policyId,
    },
  },
  'POST /api/incidents/:id/acknowledge': { params: { id: pageId } },
  'POST /api/incidents/:id/resolve': { params: { id: pageId }, body: { note: paragraph } },
  'POST /api/incidents/:id/reopen': { params: { id: pageId }, body: { reason: paragraph } },
  'POST /api/incidents/:id/escalate': {
    params: { id: pageId },
    body: {
      reason: paragraph,
      toStep: () => fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom(0, -1, 1.5, 99)),
      fromStep: () => fromStep,
    },
  },
  'POST /api/incidents/:id/reassign': {
    params: { id: pageId },
    body: { userId, reason: paragraph },
  },
  // SMS replies (decision 201): off in the fuzz app (no TWILIO_AUTH_TOKEN), so 404 or 401
  'POST /api/twilio/sms': {
    body: {
      From: () => fc.constantFrom('+15550100001', '+44 20 7946 0000', ''),
      To: () => fc.constant('+15550000000'),
      Body: () => fc.oneof(fc.constantFrom('4821', '4821R', ' 0000 r ', 'help'), fc.string()),
      MessageSid: () => fc.constant('SM0123456789abcdef0123456789abcdef'),
    },
  },
  // Phone calls' callbacks (decision 252): off in the fuzz app (no Twilio), so 404 or 401
  ...Object.fromEntries(
    ['', '/gather', '/status'].map((tail) => [
      `POST /api/twilio/voice/:id/:token${tail}`,
      {
        params: { id: pageId, token: callToken },
        body: TWILIO_CALL_BODY,
      },
    ]),
  ),
  // The Slack app (decision 222): off in the fuzz app (no SLACK_SIGNING_SECRET), so 404 or 401
  'POST /api/slack/interactions': {
    body: {
      payload: () => fc.oneof(fc.constantFrom('{}', '{"type":"block_actions"}'), fc.string()),
    },
  },
  'POST /api/slack/commands': {
    body: {
      command: () => fc.constant('/baton'),
      text: () => fc.oneof(fc.constantFrom('', 'help', 'who Payments'), fc.string()),
      user_id: () => fc.constantFrom('U0TEST', 'bad id', ''),
    },
  },
  // Inbound alerts (issue 17, decision 211): the integration key is the credential
  'POST /api/alerts/pagerduty/v2/enqueue': {
    body: {
      routing_key: integrationKey,
      event_action: oneOf('trigger', 'trigger', 'acknowledge', 'resolve'),
      dedup_key: () => fc.oneof(fc.constantFrom('disk-full-db1', ''), fc.string()),
      payload: () =>
        fc.record(
          {
            summary: fc.oneof(fc.constantFrom('Disk full on db1'), fc.string()),
            source: fc.constantFrom('db1', ''),
            severity: fc.constantFrom('critical', 'error', 'warning', 'info'),
            timestamp: fc.constant('2026-11-02T11:59:00Z'),
            custom_details: fc.jsonValue({ maxDepth: 3 }),
          },
          { requiredKeys: ['summary', 'source', 'severity'] },
        ),
      client: line,
      client_url: oneOf('https://monitor.example.com', 'javascript:alert(1)'),
      links: () => fc.array(fc.record({ href: fc.webUrl(), text: fc.string() }), { maxLength: 2 }),
    },
  },
  'POST /api/alerts/opsgenie/v2/alerts': {
    headers: { authorization: genieKey },
    body: {
      message: () => fc.oneof(fc.constantFrom('Disk full on db1'), fc.string()),
      alias: () => fc.oneof(fc.constantFrom('disk-full'), fc.string()),
      description: paragraph,
      priority: oneOf('P1', 'P2', 'P3', 'P4', 'P5'),
      source: line,
      tags: () => fc.array(fc.string(), { maxLength: 5 }),
      details: () => fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
    },
  },
  'POST /api/alerts/opsgenie/v2/alerts/:identifier/close': {
    headers: { authorization: genieKey },
    params: { identifier: opsgenieIdentifier },
    query: { identifierType: oneOf('alias', 'alias', 'id') },
    body: { source: line, user: line, note: paragraph },
  },
  'POST /api/alerts/opsgenie/v2/alerts/:identifier/acknowledge': {
    headers: { authorization: genieKey },
    params: { identifier: opsgenieIdentifier },
    query: { identifierType: oneOf('alias', 'alias', 'id') },
    body: { source: line, user: line, note: paragraph },
  },
  'POST /api/alerts/alertmanager': {
    query: { token: integrationKey },
    body: { version: oneOf('4'), ...alertGroupFields },
  },
  'POST /api/alerts/grafana': {
    query: { token: integrationKey },
    body: {
      version: oneOf('1'),
      ...alertGroupFields,
      title: line,
      state: oneOf('alerting', 'ok'),
      message: paragraph,
      orgId: () => fc.nat(),
    },
  },
  'POST /api/alerts/generic': {
    query: { token: integrationKey },
    body: {
      summary: paragraph,
      details: paragraph,
      dedup: line,
      action: oneOf('close', 'trigger'),
    },
  },
  // Audit log
  'GET /api/audit-log/handoffs': {
    query: {
      search: line,
      status: oneOf('all', '', 'success', 'acknowledged', 'missed', 'escalated'),
      rotationId,
      limit,
      before: cursor,
    },
  },
  'GET /api/audit-log/handoffs.csv': {
    query: { search: line, status: oneOf('all', 'success', 'missed'), rotationId },
  },
  'GET /api/audit-log/admin-events': {
    query: {
      search: line,
      action: oneOf('all', '', 'user.invited', 'rotation.deleted', 'page.escalated'),
      limit,
      before: eventId,
    },
  },
  'GET /api/audit-log/admin-events.csv': {
    query: { search: line, action: oneOf('all', 'user.deleted', 'rotation.member_added') },
  },
  // Administrators' screens
  'GET /api/admin/notifications': {
    query: { status: oneOf('pending', 'sent', 'failed'), limit },
  },
  'GET /api/debug/rotations-compare': {},
  'GET /api/debug/production-filtering': {},
  'GET /api/debug/rotations': {},
  'GET /api/debug/database': {},
  'GET /api/debug/client-check': {},
  'GET /api/debug/audit-integrity': {},
  'GET /api/admin/notifications/status': {},
  // The demo inbox (decision 186)
  'GET /api/inbox': { query: { limit, before: notificationId } },
  'GET /api/admin/inbox': { query: { limit, before: notificationId } },
};

// Hostile values: what a person does not type, and what a program should not send.
const INT_EDGES = [
  0, -1, -0, 1.5, 2147483647, 2147483648, -2147483649, 4294967296, 9007199254740991,
  9007199254740992, 1e21, 1e308, -1e308, 5e-324,
];
const STRING_EDGES = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'Priya\u0000Shah',
  '\u0001\u0002\u001f\u007f\u0085\u009f',
  '\t',
  '\r\n',
  '\ud800',
  'x\udc00y',
  '\uffff',
  '\u202e\u2066',
  '🏳️‍🌈👩🏽‍💻',
  '2147483648',
  '-1',
  '1e3',
  '0x10',
  ' 7 ',
  '١٢',
  'NaN',
  'Infinity',
  'null',
  'true',
  '__proto__',
  'constructor',
  '{"__proto__":{"admin":true}}',
  "' or 1=1 --",
  '%00',
  '%',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '=cmd|/C calc',
  '\\',
];
const deep = fc.tuple(fc.integer({ min: 10, max: 3000 }), fc.boolean()).map(([depth, asArray]) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = asArray ? [value] : { a: value };
  return value;
});
const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...STRING_EDGES) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.string({ maxLength: 10 }),
        fc.constantFrom('\u0000', '\u0007', '\u001b', '\u0008', '\u000b'),
        fc.string({ maxLength: 10 }),
      )
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 20_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String) },
);
/** hostileValue: a JSON value no schema should take, or should refuse with a 400. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: fc.constantFrom(...INT_EDGES) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.constantFrom({ __proto__: null, polluted: true }, [1, '2', null]) },
);
/** hostileText: a query value or path segment no route should take (before URL encoding). */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...INT_EDGES).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);
/** Keys a route does not read: pollution attempts and noise. */
export const extraKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'id',
    'role',
    'roles',
    'userId',
    'isAdmin',
  ),
  fc.string({ maxLength: 12 }),
);

const CONTROLS = [
  '\u0000',
  '\u0000',
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\ud800',
  '\udfff',
];
const insertAt = (text: string, at: number, what: string) => {
  const i = text.length === 0 ? 0 : at % (text.length + 1);
  return `${text.slice(0, i)}${what}${text.slice(i)}`;
};

/**
 * mutation returns hostile variants of a valid-looking value of the same shape: a string with a
 * NUL or another control character inside, or grown past any limit; a number past the int4 range,
 * fractional, negative or written as a string; an array with a hostile element.
 */
export function mutation(valid: unknown): fc.Arbitrary<unknown> {
  if (typeof valid === 'string') {
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.nat(), fc.constantFrom(...CONTROLS))
          .map(([at, c]) => insertAt(valid, at, c)),
      },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 2, max: 4000 }).map((n) => valid.repeat(n) || 'x'.repeat(n)),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(` ${valid} `, valid.toUpperCase(), `${valid}\u0000`),
      },
    );
  }
  if (typeof valid === 'number') {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...INT_EDGES) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(String(valid), valid + 0.5, -valid, valid * 2 ** 31),
      },
    );
  }
  if (typeof valid === 'boolean') return fc.constantFrom(String(valid), valid ? 1 : 0, null);
  if (Array.isArray(valid)) {
    return fc.oneof(
      valid.length > 0
        ? fc
            .tuple(fc.nat(), hostileValue)
            .map(([at, v]) => valid.map((x, i) => (i === at % valid.length ? v : x)))
        : fc.constant([]),
      fc.array(hostileValue, { maxLength: 3 }),
      fc
        .integer({ min: 501, max: 2000 })
        .map((n) => Array.from({ length: n }, () => valid[0] ?? 1)),
    );
  }
  if (valid && typeof valid === 'object') {
    const entries = Object.entries(valid);
    if (entries.length === 0) return hostileValue;
    return fc.nat().chain((at) => {
      const [key, value] = entries[at % entries.length];
      return mutation(value).map((v) => ({ ...valid, [key]: v }));
    });
  }
  return hostileValue;
}
