import { setImmediate } from 'node:timers/promises';
import { desc, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/server/app';
import { ManualClock } from '../../src/server/core/clock';
import { FieldCipher, parseMasterKey } from '../../src/server/crypto/field-crypto';
import type { Database } from '../../src/server/db/client';
import {
  alerts,
  apiTokens,
  auditEvents,
  coverageRequests,
  escalationPolicies,
  handoffs,
  integrations,
  invitations,
  pages,
  rotationMembers,
  rotations,
  scheduleEntries,
  timeOff,
  users,
} from '../../src/server/db/schema';
import { createSession, SESSION_COOKIE } from '../../src/server/modules/sessions/session-service';
import {
  insertHandoffs,
  insertIntegration,
  insertRotation,
  insertUser,
} from '../../src/server/seed/factories';
import type { User } from '../../src/shared/contracts/users';
import { testConfig } from '../setup/test-app';
import {
  ENDPOINT_INPUTS,
  type EndpointInputs,
  extraKey,
  type Gen,
  hostileText,
  hostileValue,
  mutation,
  type Pool,
} from './inputs';

/**
 * The input fuzz (issue 14 §3, decision 166): every route the app registers gets generated path
 * parameters, query strings and bodies that mix valid-looking values (real ids, ISO dates) with
 * hostile ones (NUL and control characters, numbers beyond int4, floats, strings for numbers,
 * deep objects, long strings, prototype-pollution keys), as an administrator, a plain member or
 * nobody. Every answer must be below 500 and carry no stack trace or source path, and a refused
 * request (4xx) must leave the database exactly as it was.
 */

export const APP_ORIGIN = 'http://localhost:80';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** what an answer must never show: a stack frame or a path into the server's files */
const INTERNALS = /\/src\/|node_modules|\n\s+at |\bat [\w.<>]+ \(|\.(ts|js):\d+:\d+/;

/** The tables a refused request must not change (sessions change with sign-in and out). */
const FINGERPRINTED = [
  'users',
  'rotations',
  'rotation_members',
  'schedule_entries',
  'handoffs',
  'coverage_requests',
  'pages',
  'sms_reply_codes',
  'invitations',
  'used_id_tokens',
  'notifications',
  'audit_events',
  'escalation_policies',
  'integrations',
  'alerts',
  'alert_keys',
  'time_off',
  'api_tokens',
] as const;

export interface FuzzApp {
  app: FastifyInstance;
  database: Database;
  admin: User;
  member: User;
  cookies: { admin: string; member: string };
  /** secrets handed out during the seed: invitation links, calendar feeds, integration keys */
  tokens: { invitation: string[]; feed: string[]; integration: string[] };
  newSession(user: User): Promise<string>;
  close(): Promise<void>;
}

/** buildFuzzApp builds the real app on `database` and seeds it with rows for real ids to point at. */
export async function buildFuzzApp(database: Database): Promise<FuzzApp> {
  await countFingerprintedWrites(database);
  const config = testConfig();
  const cipher = new FieldCipher(parseMasterKey(config.encryptionKey!));
  const clock = new ManualClock('2026-11-02T12:00:00Z');
  const app = await buildApp({
    config,
    database,
    cipher,
    clock,
    logger: false,
    // Whatever the fuzz sends, each answer must be one its route declares (decision 224).
    checkAnswers: (mismatch) => console.error(`Answer does not match its schema: ${mismatch}`),
  });
  await app.ready();
  const { db } = database;
  const admin = await insertUser(db, cipher, { name: 'Fuzz Admin', roles: ['admin'] });
  const member = await insertUser(db, cipher, { name: 'Fuzz Member', roles: ['on-call'] });
  const others = [];
  for (const roles of [
    ['on-call'],
    ['on-call'],
    ['manager'],
    ['incident_manager'],
    ['on-call'],
  ] as const) {
    others.push(await insertUser(db, cipher, { roles: [...roles] }));
  }
  const newSession = async (user: User) => {
    const { token } = await createSession(db, clock, config.session, user.id);
    return `${SESSION_COOKIE}=${token}`;
  };
  const cookies = { admin: await newSession(admin), member: await newSession(member) };
  const memberIds = [admin.id, member.id, others[0].id, others[1].id, others[2].id];
  const fixed = await insertRotation(db, {
    name: 'Fuzz Platform',
    memberIds,
    holderId: member.id,
    createdById: admin.id,
    now: clock.now(),
  });
  const daily = await insertRotation(db, {
    name: 'Fuzz Daily',
    cadence: 'daily',
    memberIds,
    holderId: admin.id,
    now: clock.now(),
  });
  const scheduled = await insertRotation(db, {
    name: 'Fuzz Scheduled',
    type: 'scheduled',
    memberIds,
    now: clock.now(),
  });
  await insertRotation(db, {
    name: 'Fuzz Suspended',
    suspended: true,
    memberIds,
    now: clock.now(),
  });
  await insertHandoffs(
    db,
    [fixed, daily].flatMap((r) => [
      { rotationId: r.id, fromUserId: admin.id, toUserId: member.id, notes: 'Pager is quiet' },
      { rotationId: r.id, fromUserId: member.id, toUserId: admin.id, status: 'missed' },
    ]),
  );
  // Pages, a schedule entry, a coverage request, an invitation and a feed through the API.
  const as = (cookie: string) => ({ cookie, origin: APP_ORIGIN });
  const setup: InjectOptions[] = [
    {
      method: 'POST',
      url: `/api/rotations/${fixed.id}/page`,
      headers: as(cookies.admin),
      payload: { message: 'Checkout is failing', urgency: 'high' },
    },
    {
      method: 'POST',
      url: `/api/rotations/${daily.id}/page`,
      headers: as(cookies.admin),
      payload: { message: 'Disk almost full', urgency: 'low' },
    },
    {
      method: 'POST',
      url: `/api/rotations/${scheduled.id}/schedules`,
      headers: as(cookies.admin),
      payload: {
        userId: member.id,
        startTime: '2026-11-03T09:00:00Z',
        endTime: '2026-11-04T09:00:00Z',
      },
    },
    {
      method: 'POST',
      url: `/api/rotations/${fixed.id}/cover`,
      headers: as(cookies.member),
      payload: {
        coveringUserId: others[0].id,
        startTime: '2026-11-05T09:00:00Z',
        endTime: '2026-11-06T09:00:00Z',
        notes: 'Dentist',
      },
    },
    {
      method: 'POST',
      url: '/api/invitations',
      headers: as(cookies.admin),
      payload: { email: 'fuzz.invitee@example.com', name: 'Fuzz Invitee', role: 'member' },
    },
    { method: 'POST', url: '/api/calendar/feed/reset', headers: as(cookies.admin) },
    {
      method: 'POST',
      url: '/api/user/tokens',
      headers: as(cookies.member),
      payload: { name: 'Fuzz script', scope: 'read' },
    },
    {
      method: 'POST',
      url: '/api/integrations',
      headers: as(cookies.admin),
      payload: { name: 'Fuzz Alertmanager', rotationId: fixed.id, signingSecret: 'fuzz-secret' },
    },
  ];
  // An integration whose key the inbound alert routes take; a rate no run of the fuzz reaches.
  const { key } = await insertIntegration(db, cipher, {
    name: 'Fuzz Alerts',
    rotationId: fixed.id,
    rateLimit: 10_000,
  });
  const tokens = { invitation: [] as string[], feed: [] as string[], integration: [key] };
  for (const request of setup) {
    const res = await app.inject(request);
    if (res.statusCode >= 300) {
      throw new Error(`fuzz setup ${request.method} ${request.url}: ${res.statusCode} ${res.body}`);
    }
    const answer = res.json() as { inviteUrl?: string; personalUrl?: string };
    if (answer.inviteUrl) tokens.invitation.push(answer.inviteUrl.split('/invite/')[1]);
    if (answer.personalUrl) tokens.feed.push(answer.personalUrl.split('/feeds/')[1].split('/')[0]);
  }
  // A test alert through the integration: an alert (and its incident) for the alert routes' ids.
  const [integration] = await db.select({ id: integrations.id }).from(integrations).limit(1);
  const tested = await app.inject({
    method: 'POST',
    url: `/api/integrations/${integration.id}/test`,
    headers: as(cookies.admin),
    payload: { severity: 'P2' },
  });
  if (tested.statusCode !== 201) {
    throw new Error(`fuzz setup test alert: ${tested.statusCode} ${tested.body}`);
  }
  return {
    app,
    database,
    admin,
    member,
    cookies,
    tokens,
    newSession,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** readPool reads the ids that exist now, so generated requests point at real rows. */
export async function readPool(fuzz: FuzzApp): Promise<Pool> {
  const { db } = fuzz.database;
  const ids = async (
    table:
      | typeof users
      | typeof rotations
      | typeof pages
      | typeof rotationMembers
      | typeof scheduleEntries
      | typeof handoffs
      | typeof coverageRequests
      | typeof invitations
      | typeof auditEvents
      | typeof escalationPolicies
      | typeof integrations
      | typeof alerts
      | typeof timeOff
      | typeof apiTokens,
  ) =>
    (await db.select({ id: table.id }).from(table).orderBy(desc(table.id)).limit(25)).map(
      (r) => r.id,
    );
  const userIds = await ids(users);
  const signedIn = [fuzz.admin.id, fuzz.member.id];
  return {
    rotationIds: await ids(rotations),
    userIds,
    otherUserIds: userIds.filter((id) => !signedIn.includes(id)),
    memberIds: await ids(rotationMembers),
    pageIds: await ids(pages),
    scheduleIds: await ids(scheduleEntries),
    handoffIds: await ids(handoffs),
    coverageIds: await ids(coverageRequests),
    invitationIds: await ids(invitations),
    eventIds: await ids(auditEvents),
    policyIds: await ids(escalationPolicies),
    integrationIds: await ids(integrations),
    alertIds: await ids(alerts),
    timeOffIds: await ids(timeOff),
    apiTokenIds: await ids(apiTokens),
    invitationTokens: fuzz.tokens.invitation,
    feedTokens: fuzz.tokens.feed,
    integrationKeys: fuzz.tokens.integration,
  };
}

/** fingerprint returns the row count and a sum of the hashes of every row of the fingerprinted tables. */
export async function fingerprint(database: Database): Promise<string> {
  const parts = FINGERPRINTED.map(
    (table) =>
      `select '${table}' as t, count(*)::text || ':' || coalesce(sum(hashtext(x::text)::bigint), 0)::text as f from ${table} x`,
  );
  const result = await database.db.execute(
    sql.raw(
      `select string_agg(t || '=' || f, ' ' order by t) as fp from (${parts.join(' union all ')}) s`,
    ),
  );
  const rows = (result as unknown as { rows: { fp: string }[] }).rows;
  return rows[0].fp;
}

/** The sequence the fingerprinted tables' triggers draw from, in the fuzz's own database only. */
const WRITES_SEQUENCE = 'fuzz_fingerprinted_writes';

/**
 * countFingerprintedWrites makes every statement that writes to a fingerprinted table (insert,
 * update, delete or truncate; one that changes no row or is rolled back too) draw a number from
 * one sequence, in the fuzz's own database. A sequence takes no row lock and never goes back, so
 * the count makes no write wait on another. Writes to the other tables (sessions, the rate limits'
 * hits) leave it alone, so the fingerprint is not taken again after each of them (decision 215's
 * later section).
 */
async function countFingerprintedWrites(database: Database): Promise<void> {
  const run = (text: string) => database.db.execute(sql.raw(text));
  await run(`create sequence if not exists ${WRITES_SEQUENCE}`);
  await run(
    `create or replace function ${WRITES_SEQUENCE}() returns trigger language plpgsql as $$
       begin perform nextval('${WRITES_SEQUENCE}'); return null; end $$`,
  );
  for (const table of FINGERPRINTED) {
    await run(
      `create or replace trigger ${WRITES_SEQUENCE}
         after insert or update or delete or truncate on ${table}
         for each statement execute function ${WRITES_SEQUENCE}()`,
    );
  }
}

/**
 * writeMark returns a reading that moves whenever a fingerprinted table may have changed: the
 * sequence countFingerprintedWrites' triggers draw from (buildFuzzApp installs them).
 */
export function writeMark(database: Database): () => Promise<string> {
  return async () => {
    const result = await database.db.execute(
      sql.raw(`select last_value::text || ':' || is_called::text as mark from ${WRITES_SEQUENCE}`),
    );
    return (result as unknown as { rows: { mark: string }[] }).rows[0].mark;
  };
}

/** One generated request, as fast-check reports a counterexample. */
export interface FuzzRequest {
  route: string;
  caller: 'admin' | 'member' | 'anonymous';
  method: string;
  url: string;
  contentType?: string;
  payload?: string;
  headers?: Record<string, string>;
}

/** safeEncode percent-encodes text for a URL; a lone surrogate becomes bytes that are not UTF-8. */
function safeEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      out += '%ED%A0%80';
    }
  }
  return out;
}

const RAW_QUERIES = [
  '%',
  '%zz',
  '&&&',
  '=x',
  'a[b]=1',
  '__proto__[admin]=1',
  'constructor[prototype][x]=1',
  'limit=1&limit=2',
  '%00=%00',
];
const RAW_SEGMENTS = ['%', '%zz', '%00', '%C0%80', '..', '%2e%2e', '%2F', '%ED%A0%80', '%EF%BF%BF'];
const RAW_BODIES = [
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '"x"',
  '1e999',
  '{"a":1}{"b":2}',
  '{"__proto__":{"x":1}}',
  '\u0000',
];

function objectText(entries: [string, unknown][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`;
}

/** rarely gives a value of `arb` one time in ten, else null. */
const rarely = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

type Slot =
  | { where: 'param'; key: string; gen: Gen }
  | { where: 'query'; key: string; gen: Gen }
  | { where: 'body'; key: string; gen: Gen }
  | { where: 'header'; key: string; gen: Gen };

/** One slot's value: the valid-looking one, a hostile one, or none at all. */
function slotValues(slot: Slot, pool: Pool) {
  const asText = (v: unknown) => (slot.where === 'param' ? safeEncode(String(v)) : String(v));
  // Half the hostile values are the valid one bent (a NUL inside it, past int4), half anything.
  const bent = slot.gen(pool).chain(mutation);
  const valid = slot.where === 'body' ? slot.gen(pool) : slot.gen(pool).map(asText);
  const hostileOther =
    slot.where === 'body'
      ? fc.oneof(bent, hostileValue)
      : slot.where === 'query'
        ? fc.oneof(
            { weight: 3, arbitrary: bent.map((v) => String(v)) },
            { weight: 3, arbitrary: hostileText },
            { weight: 1, arbitrary: fc.array(hostileText, { minLength: 2, maxLength: 3 }) },
          )
        : fc.oneof(
            { weight: 3, arbitrary: bent.map(asText) },
            { weight: 3, arbitrary: hostileText.map(safeEncode) },
            { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
          );
  // A header carries visible ASCII only (anything else the client itself refuses to send).
  const hostile =
    slot.where === 'header'
      ? fc.oneof(bent, hostileText).map((v) => String(v).replace(/[^\x20-\x7e]/g, '?'))
      : hostileOther;
  return fc.record({
    valid,
    hostile,
    roll: fc.constantFrom('valid', 'valid', 'hostile', 'missing'),
  });
}

/**
 * requestArbitrary generates requests for one route. Most requests are valid but for one slot
 * (a path parameter, a query value or a body field) that is hostile or missing, so the hostile
 * value reaches the code behind the other checks; the rest mix every slot at random, send a
 * body that is not an object or not JSON, or nothing hostile at all.
 */
export function requestArbitrary(
  method: string,
  route: string,
  inputs: EndpointInputs,
  pool: Pool,
): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...route.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const slots: Slot[] = [
    ...paramNames.map((key): Slot => {
      const gen = inputs.params?.[key];
      if (!gen) throw new Error(`${method} ${route}: no generator for the path parameter :${key}`);
      return { where: 'param', key, gen };
    }),
    ...Object.entries(inputs.query ?? {}).map(([key, gen]): Slot => ({ where: 'query', key, gen })),
    ...Object.entries(inputs.body ?? {}).map(([key, gen]): Slot => ({ where: 'body', key, gen })),
    ...Object.entries(inputs.headers ?? {}).map(
      ([key, gen]): Slot => ({ where: 'header', key, gen }),
    ),
  ];
  const sendsBody = WRITE_METHODS.has(method);
  return fc
    .record({
      caller: fc.oneof(
        { weight: 6, arbitrary: fc.constant('admin' as const) },
        { weight: 2, arbitrary: fc.constant('member' as const) },
        { weight: 1, arbitrary: fc.constant('anonymous' as const) },
      ),
      values: fc.tuple(...slots.map((slot) => slotValues(slot, pool))),
      mode: fc.constantFrom('focused', 'focused', 'focused', 'mixed', 'valid'),
      focus: fc.nat(),
      missingInsteadOfHostile: fc.constantFrom(false, false, false, true),
      extraQuery: fc.array(fc.tuple(extraKey, hostileText), { maxLength: 2 }),
      rawQuery: rarely(fc.constantFrom(...RAW_QUERIES)),
      extraBody: fc.array(fc.tuple(extraKey, hostileValue), { maxLength: 2 }),
      wholeBody: rarely(
        fc.oneof(
          hostileValue.map((v) => JSON.stringify(v) ?? 'null'),
          fc.constantFrom(...RAW_BODIES),
        ),
      ),
      contentType: fc.oneof(
        { weight: 14, arbitrary: fc.constant('application/json') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
          ),
        },
      ),
    })
    .map((r) => {
      const focus = slots.length > 0 ? r.focus % slots.length : -1;
      const chosen = slots.map((slot, i) => {
        const v = r.values[i];
        const roll =
          r.mode === 'valid'
            ? 'valid'
            : r.mode === 'mixed'
              ? v.roll
              : i !== focus
                ? 'valid'
                : r.missingInsteadOfHostile
                  ? 'missing'
                  : 'hostile';
        return {
          slot,
          value: roll === 'valid' ? v.valid : roll === 'hostile' ? v.hostile : undefined,
        };
      });
      let url = route;
      for (const { slot, value } of chosen) {
        if (slot.where !== 'param') continue;
        url = url.replace(`:${slot.key}`, value === undefined ? '' : String(value));
      }
      const headers: Record<string, string> = {};
      for (const { slot, value } of chosen) {
        if (slot.where === 'header' && value !== undefined) headers[slot.key] = String(value);
      }
      const pairs: string[] = [];
      for (const { slot, value } of chosen) {
        if (slot.where !== 'query' || value === undefined) continue;
        for (const one of [value].flat())
          pairs.push(`${safeEncode(slot.key)}=${safeEncode(String(one))}`);
      }
      for (const [k, v] of r.extraQuery) pairs.push(`${safeEncode(k)}=${safeEncode(v)}`);
      if (r.rawQuery) pairs.push(r.rawQuery);
      const request: FuzzRequest = {
        route: `${method} ${route}`,
        caller: r.caller,
        method,
        url: pairs.length > 0 ? `${url}?${pairs.join('&')}` : url,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
      };
      if (sendsBody) {
        const fields = chosen.flatMap(({ slot, value }) =>
          slot.where === 'body' && value !== undefined
            ? [[slot.key, value] as [string, unknown]]
            : [],
        );
        request.payload = r.wholeBody ?? objectText([...fields, ...r.extraBody]);
        request.contentType = r.contentType;
      }
      return request;
    });
}

export interface EndpointReport {
  route: string;
  requests: number;
  statuses: Record<string, number>;
  ms: number;
}

/** registeredRoutes lists 'METHOD /pattern' of every route the app registered. */
export function registeredRoutes(app: FastifyInstance): string[] {
  const seen = new Set<string>();
  for (const r of app.routeList) seen.add(`${r.method} ${r.url}`);
  // Destructive routes last, so the rows the others point at live as long as possible.
  return [...seen].sort(
    (a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')) || a.localeCompare(b),
  );
}

let forwardedFor = 0;

/**
 * fuzzRoute runs the property for one route: `runs` generated requests, each answered below 500
 * without internals, a refused one leaving the fingerprint of the database unchanged.
 */
export async function fuzzRoute(
  fuzz: FuzzApp,
  routeKey: string,
  options: { runs: number; seed: number },
): Promise<EndpointReport> {
  const [method, route] = routeKey.split(' ');
  const inputs = ENDPOINT_INPUTS[routeKey];
  if (!inputs) throw new Error(`${routeKey} has no input generator in tests/fuzz/inputs.ts`);
  const pool = await readPool(fuzz);
  const statuses: Record<string, number> = {};
  let requests = 0;
  // The last fingerprint taken, and a mark read just before it: while the mark stands, no
  // fingerprinted table was written since, and the fingerprint need not be taken again (decision
  // 215). Whether a refused request changed anything is still decided by the fingerprints alone.
  const mark = writeMark(fuzz.database);
  let known: { fp: string; mark: string } | null = null;
  const current = async () => {
    const now = await mark();
    if (known && now === known.mark) return known.fp;
    known = { fp: await fingerprint(fuzz.database), mark: now };
    return known.fp;
  };
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(requestArbitrary(method, route, inputs, pool), async (request) => {
      const before = await current();
      const headers: Record<string, string> = {
        ...request.headers,
        // A client address per request: the sign-in and link rate limits must not hide the rest.
        'x-forwarded-for': `10.${(forwardedFor >> 16) & 255}.${(forwardedFor >> 8) & 255}.${forwardedFor++ & 255}`,
      };
      if (WRITE_METHODS.has(method)) headers.origin = APP_ORIGIN;
      if (request.contentType) headers['content-type'] = request.contentType;
      if (request.caller !== 'anonymous') {
        // Signing out ends the session it is called with: that route gets a session of its own.
        const user = request.caller === 'admin' ? fuzz.admin : fuzz.member;
        headers.cookie =
          route === '/api/auth/logout' ? await fuzz.newSession(user) : fuzz.cookies[request.caller];
      }
      const res = await fuzz.app.inject({
        method: method as InjectOptions['method'],
        url: request.url,
        headers,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      });
      requests += 1;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      if (res.statusCode >= 500 && !sourceFailed(res.statusCode, res.body)) {
        throw new Error(`answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      }
      if (res.statusCode >= 400 && INTERNALS.test(res.body)) {
        throw new Error(`the answer shows internals: ${res.body.slice(0, 300)}`);
      }
      if (res.statusCode >= 400) {
        const after = await current();
        if (after !== before) {
          throw new Error(
            `refused with ${res.statusCode} but the database changed:\n${before}\n${after}`,
          );
        }
      }
      // Then let the event loop turn, once the request is judged: on PGlite an injected request
      // and its statements settle in microtasks alone, so without a turn nothing queued with
      // setImmediate runs (a response's stream among them) and each request's objects stay
      // alive. At 2,000 requests a route the full-size fuzz ran out of a 4 GB heap.
      await setImmediate();
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: true },
  );
  return { route: routeKey, requests, statuses, ms: Math.round(performance.now() - started) };
}

/**
 * sourceFailed: a 502 an import answers when the source it was told to read failed (unreachable,
 * timed out, answered an error): the fault is the source's, said in the one error shape, and
 * nothing is written (decision 268). Every other 5xx is Baton's own and fails the fuzz.
 */
function sourceFailed(status: number, body: string): boolean {
  if (status !== 502) return false;
  try {
    return (JSON.parse(body) as { code?: string }).code === 'IMPORT_SOURCE_FAILED';
  } catch {
    return false;
  }
}
