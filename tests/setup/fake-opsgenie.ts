import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TZDate } from '@date-fns/tz';

/**
 * A loopback Opsgenie (issue 34): the REST API v2 as its published document (opsgenie/opsgenie-oas
 * and docs.opsgenie.com) describes it, for the parts an import reads: `GET /v2/users` (offset and
 * limit, `paging.next`), `GET /v2/schedules?expand=rotation`, `GET /v2/schedules/{id}/overrides`,
 * `GET /v2/schedules/{id}/timeline` (interval, intervalUnit, date: the final timeline),
 * `GET /v2/escalations`, `GET /v2/integrations`, `GET /v2/integrations/{id}` and
 * `GET /v2/teams/{id}/routing-rules`. Every answer wraps its data as `{ data, took, requestId }`;
 * a request without `Authorization: GenieKey <the account's key>` gets 401 with `{ message }`.
 *
 * The timeline is computed here from the stored rotations, restrictions and overrides by
 * Opsgenie's documented rules, on its own (it shares nothing with the reader's mapping): each
 * rotation's turns run from its startDate in turns of `length` hours, days or weeks of the
 * schedule's wall clock, participants in the order given (`none`: nobody that turn), until its
 * endDate; a time restriction keeps only the hours it names (time of day every day, or spans from
 * a weekday and time to a weekday and time); an override puts its user in place of whoever a
 * rotation it names (none named: every rotation) has on call during its span. Rotations are not
 * merged: each has its own periods, as Opsgenie notifies everyone on call in every rotation.
 */

export const OPSGENIE_KEY = 'genie-key-0f3a9c1e';

type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
const WEEKDAYS: Weekday[] = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

export interface FakeUser {
  id: string;
  username: string;
  fullName: string;
  role: { id: string; name: string };
  timeZone: string;
}

export type FakeParticipant =
  | { type: 'user'; id: string; username: string }
  | { type: 'none' }
  | { type: 'team'; id: string; name: string };

export type FakeRestriction =
  | {
      type: 'time-of-day';
      restriction: { startHour: number; startMin: number; endHour: number; endMin: number };
    }
  | {
      type: 'weekday-and-time-of-day';
      restrictions: {
        startDay: Weekday;
        startHour: number;
        startMin: number;
        endDay: Weekday;
        endHour: number;
        endMin: number;
      }[];
    };

export interface FakeRotation {
  id: string;
  name: string;
  startDate: string;
  endDate?: string;
  type: 'hourly' | 'daily' | 'weekly';
  length: number;
  participants: FakeParticipant[];
  timeRestriction?: FakeRestriction;
}

export interface FakeOverride {
  alias: string;
  user: { type: 'user'; id: string; username: string };
  startDate: string;
  endDate: string;
  rotations: { id: string; name: string }[];
}

export interface FakeSchedule {
  id: string;
  name: string;
  description: string;
  timezone: string;
  enabled: boolean;
  ownerTeam: { id: string; name: string };
  rotations: FakeRotation[];
  overrides: FakeOverride[];
}

export interface FakeAccount {
  users: FakeUser[];
  schedules: FakeSchedule[];
  escalations: unknown[];
  teams: { id: string; name: string; routingRules: unknown[] }[];
  integrations: {
    id: string;
    name: string;
    type: string;
    enabled: boolean;
    ownerTeam: { id: string; name: string } | null;
    recipients: unknown[];
  }[];
}

const u = (id: string, username: string, fullName: string, role: string, timeZone: string) => ({
  id,
  username,
  fullName,
  role: { id: role, name: role },
  timeZone,
});

/** The account: five people, three schedules across the spring changes of 2027, two escalations. */
export function opsgenieAccount(): FakeAccount {
  const users = [
    u('u-ada', 'ada@example.com', 'Ada Lovelace', 'Admin', 'Europe/Berlin'),
    u('u-grace', 'grace@example.com', 'Grace Hopper', 'User', 'Europe/Berlin'),
    u('u-alan', 'alan@example.com', 'Alan Turing', 'User', 'Europe/Berlin'),
    u('u-linus', 'linus@example.com', 'Linus Pauling', 'Owner', 'America/Los_Angeles'),
    // Opsgenie's usernames are emails; one made through an old SCIM sync is not.
    u('u-kiosk', 'noc-kiosk', 'NOC Kiosk', 'Stakeholder', 'Europe/Berlin'),
  ];
  const p = (id: string): FakeParticipant => {
    const user = users.find((x) => x.id === id);
    if (!user) throw new Error(id);
    return { type: 'user', id: user.id, username: user.username };
  };
  return {
    users,
    schedules: [
      {
        id: 'sch-platform',
        name: 'Platform',
        description: 'Platform on call',
        timezone: 'Europe/Berlin',
        enabled: true,
        ownerTeam: { id: 'team-platform', name: 'Platform team' },
        rotations: [
          {
            id: 'rot-weekly',
            name: 'Weekly',
            // Monday 09:00 in Berlin
            startDate: '2027-01-04T08:00:00Z',
            type: 'weekly',
            length: 1,
            participants: [p('u-ada'), p('u-grace'), p('u-alan')],
          },
          {
            id: 'rot-weekend',
            name: 'Weekend nights',
            // Friday 18:00 in Berlin
            startDate: '2027-01-01T17:00:00Z',
            type: 'weekly',
            length: 1,
            participants: [p('u-alan'), p('u-ada')],
            timeRestriction: {
              type: 'weekday-and-time-of-day',
              restrictions: [
                {
                  startDay: 'friday',
                  startHour: 18,
                  startMin: 0,
                  endDay: 'monday',
                  endHour: 8,
                  endMin: 0,
                },
                {
                  startDay: 'wednesday',
                  startHour: 22,
                  startMin: 0,
                  endDay: 'thursday',
                  endHour: 6,
                  endMin: 30,
                },
              ],
            },
          },
        ],
        overrides: [
          {
            alias: 'linus-covers-ada',
            user: { type: 'user', id: 'u-linus', username: 'linus@example.com' },
            startDate: '2027-03-10T10:00:00Z',
            endDate: '2027-03-12T10:00:00Z',
            rotations: [],
          },
          {
            alias: 'long-ago',
            user: { type: 'user', id: 'u-grace', username: 'grace@example.com' },
            startDate: '2027-01-10T10:00:00Z',
            endDate: '2027-01-11T10:00:00Z',
            rotations: [],
          },
        ],
      },
      {
        id: 'sch-sun',
        name: 'Follow the sun',
        description: '',
        timezone: 'America/Los_Angeles',
        enabled: true,
        ownerTeam: { id: 'team-platform', name: 'Platform team' },
        rotations: [
          {
            id: 'rot-twelve',
            name: '12-hour',
            // 08:00 in Los Angeles (PST)
            startDate: '2027-02-01T16:00:00Z',
            type: 'hourly',
            length: 12,
            participants: [p('u-linus'), p('u-grace'), p('u-alan')],
          },
          {
            id: 'rot-business',
            name: 'Business hours',
            startDate: '2027-02-01T17:00:00Z',
            type: 'daily',
            length: 1,
            participants: [p('u-ada'), p('u-grace')],
            timeRestriction: {
              type: 'time-of-day',
              restriction: { startHour: 9, startMin: 0, endHour: 17, endMin: 30 },
            },
          },
        ],
        overrides: [
          {
            alias: 'grace-business-only',
            user: { type: 'user', id: 'u-grace', username: 'grace@example.com' },
            startDate: '2027-04-06T15:00:00Z',
            endDate: '2027-04-07T03:00:00Z',
            rotations: [{ id: 'rot-business', name: 'Business hours' }],
          },
        ],
      },
      {
        id: 'sch-db',
        name: 'Database',
        description: 'Primary until April, then the daily rotation',
        timezone: 'Europe/Berlin',
        enabled: true,
        ownerTeam: { id: 'team-db', name: 'Database team' },
        rotations: [
          {
            id: 'rot-primary',
            name: 'Primary',
            startDate: '2027-02-15T09:00:00Z',
            endDate: '2027-04-12T08:00:00Z',
            type: 'weekly',
            length: 2,
            participants: [p('u-grace'), p('u-alan')],
          },
          {
            id: 'rot-daily',
            name: 'Daily',
            startDate: '2027-01-01T09:00:00Z',
            type: 'daily',
            length: 1,
            participants: [p('u-ada'), p('u-linus'), { type: 'none' }],
          },
        ],
        overrides: [],
      },
    ],
    escalations: [
      {
        id: 'esc-platform',
        name: 'Platform escalation',
        description: 'Platform first, then Grace, then the next on call',
        ownerTeam: { id: 'team-platform', name: 'Platform team' },
        rules: [
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 0, timeUnit: 'minutes' },
            recipient: { type: 'schedule', id: 'sch-platform', name: 'Platform' },
          },
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 10, timeUnit: 'minutes' },
            recipient: { type: 'user', id: 'u-grace', username: 'grace@example.com' },
          },
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 1, timeUnit: 'hours' },
            recipient: { type: 'schedule', id: 'sch-sun', name: 'Follow the sun' },
          },
        ],
        repeat: {
          waitInterval: 5,
          count: 2,
          resetRecipientStates: false,
          closeAlertAfterAll: false,
        },
      },
      {
        id: 'esc-db',
        name: 'Database escalation',
        ownerTeam: { id: 'team-db', name: 'Database team' },
        rules: [
          {
            condition: 'if-not-acked',
            notifyType: 'default',
            delay: { timeAmount: 0, timeUnit: 'minutes' },
            recipient: { type: 'schedule', id: 'sch-db', name: 'Database' },
          },
          {
            condition: 'if-not-acked',
            notifyType: 'next',
            delay: { timeAmount: 90, timeUnit: 'seconds' },
            recipient: { type: 'schedule', id: 'sch-db', name: 'Database' },
          },
          {
            condition: 'if-not-closed',
            notifyType: 'default',
            delay: { timeAmount: 30, timeUnit: 'minutes' },
            recipient: { type: 'user', id: 'u-alan', username: 'alan@example.com' },
          },
          {
            condition: 'if-not-acked',
            notifyType: 'all',
            delay: { timeAmount: 45, timeUnit: 'minutes' },
            recipient: { type: 'team', id: 'team-db', name: 'Database team' },
          },
        ],
        repeat: {
          waitInterval: 0,
          count: 12,
          resetRecipientStates: true,
          closeAlertAfterAll: false,
        },
      },
    ],
    teams: [
      {
        id: 'team-platform',
        name: 'Platform team',
        routingRules: [
          {
            id: 'rr-platform-default',
            name: 'Default',
            isDefault: true,
            order: 0,
            criteria: { type: 'match-all' },
            timezone: 'Europe/Berlin',
            notify: { type: 'escalation', id: 'esc-platform', name: 'Platform escalation' },
          },
        ],
      },
      {
        id: 'team-db',
        name: 'Database team',
        routingRules: [
          {
            id: 'rr-db-critical',
            name: 'Critical',
            isDefault: false,
            order: 0,
            criteria: {
              type: 'match-all-conditions',
              conditions: [{ field: 'priority', operation: 'equals', expectedValue: 'P1' }],
            },
            notify: { type: 'escalation', id: 'esc-db', name: 'Database escalation' },
          },
          {
            id: 'rr-db-default',
            name: 'Default',
            isDefault: true,
            order: 1,
            criteria: { type: 'match-all' },
            notify: { type: 'schedule', id: 'sch-db', name: 'Database' },
          },
        ],
      },
    ],
    integrations: [
      {
        id: 'int-api',
        name: 'Platform API',
        type: 'API',
        enabled: true,
        ownerTeam: { id: 'team-platform', name: 'Platform team' },
        recipients: [],
      },
      {
        id: 'int-prom',
        name: 'Prometheus',
        type: 'Prometheus',
        enabled: true,
        ownerTeam: { id: 'team-db', name: 'Database team' },
        recipients: [],
      },
      {
        id: 'int-email',
        name: 'Alerts by email',
        type: 'Email',
        enabled: true,
        ownerTeam: null,
        recipients: [{ type: 'escalation', id: 'esc-db', name: 'Database escalation' }],
      },
      {
        id: 'int-datadog',
        name: 'Datadog',
        type: 'Datadog',
        enabled: false,
        ownerTeam: { id: 'team-platform', name: 'Platform team' },
        recipients: [],
      },
    ],
  };
}

// ------------------------------------------------------------------------------------------
// The timeline, by Opsgenie's rules

interface Period {
  start: number;
  end: number;
  type: 'default' | 'override';
  recipient: FakeParticipant;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The wall-clock date and time of an instant in a zone. */
function wall(instant: number, zone: string) {
  const d = new TZDate(instant, zone);
  return {
    y: d.getFullYear(),
    m: d.getMonth(),
    d: d.getDate(),
    h: d.getHours(),
    min: d.getMinutes(),
    weekday: d.getDay(),
  };
}

/** The instant a wall-clock date and time names in a zone (fields may overflow: 32 March…). */
function at(zone: string, y: number, m: number, d: number, h: number, min: number): number {
  const normal = new Date(Date.UTC(y, m, d, h, min));
  return new TZDate(
    normal.getUTCFullYear(),
    normal.getUTCMonth(),
    normal.getUTCDate(),
    normal.getUTCHours(),
    normal.getUTCMinutes(),
    zone,
  ).getTime();
}

/** A rotation's turns from its start until `to`, each with its participant, cut at its end. */
function turns(rotation: FakeRotation, zone: string, to: number): Period[] {
  const start = Date.parse(rotation.startDate);
  const end = rotation.endDate ? Date.parse(rotation.endDate) : Number.POSITIVE_INFINITY;
  const w = wall(start, zone);
  const turnStart = (k: number) => {
    const n = k * rotation.length;
    if (rotation.type === 'hourly') return at(zone, w.y, w.m, w.d, w.h + n, w.min);
    if (rotation.type === 'daily') return at(zone, w.y, w.m, w.d + n, w.h, w.min);
    return at(zone, w.y, w.m, w.d + 7 * n, w.h, w.min);
  };
  const out: Period[] = [];
  for (let k = 0; ; k++) {
    const s = turnStart(k);
    if (s >= to || s >= end) break;
    const e = Math.min(turnStart(k + 1), end);
    const recipient = rotation.participants[k % rotation.participants.length] as FakeParticipant;
    out.push({ start: s, end: e, type: 'default', recipient });
  }
  return out;
}

/** The stretches a restriction allows, over local days around [from, to). */
function allowed(restriction: FakeRestriction, zone: string, from: number, to: number) {
  const spans: [number, number][] = [];
  for (let t = from - 8 * DAY; t < to + 8 * DAY; t += DAY) {
    const day = wall(t, zone);
    if (restriction.type === 'time-of-day') {
      const r = restriction.restriction;
      const s = at(zone, day.y, day.m, day.d, r.startHour, r.startMin);
      let e = at(zone, day.y, day.m, day.d, r.endHour, r.endMin);
      if (e <= s) e = at(zone, day.y, day.m, day.d + 1, r.endHour, r.endMin);
      spans.push([s, e]);
      continue;
    }
    for (const r of restriction.restrictions) {
      if (WEEKDAYS[day.weekday] !== r.startDay) continue;
      const s = at(zone, day.y, day.m, day.d, r.startHour, r.startMin);
      let days = (WEEKDAYS.indexOf(r.endDay) - day.weekday + 7) % 7;
      let e = at(zone, day.y, day.m, day.d + days, r.endHour, r.endMin);
      if (e <= s) {
        days += 7;
        e = at(zone, day.y, day.m, day.d + days, r.endHour, r.endMin);
      }
      spans.push([s, e]);
    }
  }
  return spans;
}

function restrict(periods: Period[], spans: [number, number][]): Period[] {
  const out: Period[] = [];
  for (const p of periods) {
    for (const [s, e] of spans) {
      const start = Math.max(p.start, s);
      const end = Math.min(p.end, e);
      if (end > start) out.push({ ...p, start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function applyOverride(periods: Period[], o: FakeOverride): Period[] {
  const os = Date.parse(o.startDate);
  const oe = Date.parse(o.endDate);
  const out: Period[] = [];
  for (const p of periods) {
    if (p.end <= os || p.start >= oe) {
      out.push(p);
      continue;
    }
    if (p.start < os) out.push({ ...p, end: os });
    out.push({
      start: Math.max(p.start, os),
      end: Math.min(p.end, oe),
      type: 'override',
      recipient: o.user,
    });
    if (p.end > oe) out.push({ ...p, start: oe });
  }
  return out;
}

/** The final timeline of a schedule over [from, to): each rotation's periods, overrides applied. */
export function finalTimeline(schedule: FakeSchedule, from: number, to: number) {
  return schedule.rotations.map((rotation, order) => {
    let periods = turns(rotation, schedule.timezone, to);
    if (rotation.timeRestriction) {
      periods = restrict(periods, allowed(rotation.timeRestriction, schedule.timezone, from, to));
    }
    periods = periods.filter((p) => p.recipient.type !== 'none');
    for (const o of schedule.overrides) {
      if (o.rotations.length === 0 || o.rotations.some((r) => r.id === rotation.id)) {
        periods = applyOverride(periods, o);
      }
    }
    const clipped = periods
      .filter((p) => p.end > from && p.start < to)
      .map((p) => ({ ...p, start: Math.max(p.start, from), end: Math.min(p.end, to) }));
    return {
      id: rotation.id,
      name: rotation.name,
      order,
      periods: clipped.map((p) => ({
        startDate: iso(p.start),
        endDate: iso(p.end),
        type: p.type,
        recipient:
          p.recipient.type === 'user'
            ? { type: 'user', id: p.recipient.id, name: p.recipient.username }
            : p.recipient,
      })),
    };
  });
}

const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');

// ------------------------------------------------------------------------------------------
// The server

export type FakeOpsgenieBehaviour =
  | { kind: 'ok' }
  /** never answers: the reader's timeout */
  | { kind: 'hang' }
  /** the schedules answer with rotations that are not a list */
  | { kind: 'malformed' }
  /** 429 Too Many Requests on every call */
  | { kind: 'rate-limited' };

export interface FakeOpsgenie {
  url: string;
  account: FakeAccount;
  behaviour: FakeOpsgenieBehaviour;
  /** every path asked for, with its query */
  requests: string[];
  /** the largest page of users it answers, whatever `limit` asks (to make the reader page) */
  maxUsersPerPage: number;
  close(): Promise<void>;
}

export async function startFakeOpsgenie(account = opsgenieAccount()): Promise<FakeOpsgenie> {
  let requestCount = 0;
  const state = {
    behaviour: { kind: 'ok' } as FakeOpsgenieBehaviour,
    requests: [] as string[],
    maxUsersPerPage: 2,
  };
  const hanging = new Set<ServerResponse>();
  const send = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const ok = (res: ServerResponse, data: unknown, extra: Record<string, unknown> = {}) =>
    send(res, 200, { data, ...extra, took: 0.01, requestId: `req-${++requestCount}` });
  const notFound = (res: ServerResponse, what: string) =>
    send(res, 404, { message: `${what} not found`, took: 0, requestId: `req-${++requestCount}` });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push(`${url.pathname}${url.search}`);
    if (req.method !== 'GET') return send(res, 405, { message: 'Method not allowed' });
    if (req.headers.authorization !== `GenieKey ${OPSGENIE_KEY}`) {
      return send(res, 401, {
        message: 'Could not authenticate',
        code: 40101,
        took: 0,
        requestId: `req-${++requestCount}`,
      });
    }
    const b = state.behaviour;
    if (b.kind === 'hang') {
      hanging.add(res);
      return;
    }
    if (b.kind === 'rate-limited') {
      return send(
        res,
        429,
        { message: 'You are making too many requests!', took: 0, requestId: 'req-429' },
        { 'retry-after': '60' },
      );
    }
    const path = url.pathname;
    const q = url.searchParams;
    let m: RegExpMatchArray | null;
    if (path === '/v2/users') {
      const limit = Math.min(Number(q.get('limit') ?? 20), state.maxUsersPerPage);
      const offset = Number(q.get('offset') ?? 0);
      const page = account.users.slice(offset, offset + limit);
      const paging: Record<string, string> = {
        first: `${fake.url}/v2/users?limit=${limit}&offset=0`,
      };
      if (offset + limit < account.users.length) {
        paging.next = `${fake.url}/v2/users?limit=${limit}&offset=${offset + limit}`;
      }
      return ok(res, page, { totalCount: account.users.length, paging });
    }
    if (path === '/v2/schedules') {
      const expand = (q.get('expand') ?? '').split(',').includes('rotation');
      const data = account.schedules.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        timezone: s.timezone,
        enabled: s.enabled,
        ownerTeam: s.ownerTeam,
        ...(expand
          ? { rotations: b.kind === 'malformed' ? 'rotations' : s.rotations }
          : { rotations: [] }),
      }));
      return ok(res, data, { expandable: ['rotation'] });
    }
    m = path.match(/^\/v2\/schedules\/([^/]+)\/(overrides|timeline)$/);
    if (m) {
      const schedule = account.schedules.find((s) => s.id === decodeURIComponent(m?.[1] ?? ''));
      if (!schedule) return notFound(res, 'Schedule');
      const parent = { id: schedule.id, name: schedule.name, enabled: schedule.enabled };
      if (m[2] === 'overrides') {
        return ok(
          res,
          schedule.overrides.map((o) => ({ _parent: parent, ...o })),
        );
      }
      const date = Date.parse(q.get('date') ?? new Date().toISOString());
      const interval = Number(q.get('interval') ?? 1);
      const unit = q.get('intervalUnit') ?? 'weeks';
      if (!Number.isFinite(date) || !['days', 'weeks', 'months'].includes(unit)) {
        return send(res, 422, { message: 'Invalid timeline request', took: 0, requestId: 'x' });
      }
      const w = wall(date, schedule.timezone);
      const end =
        unit === 'days'
          ? at(schedule.timezone, w.y, w.m, w.d + interval, w.h, w.min)
          : unit === 'weeks'
            ? at(schedule.timezone, w.y, w.m, w.d + 7 * interval, w.h, w.min)
            : at(schedule.timezone, w.y, w.m + interval, w.d, w.h, w.min);
      return ok(
        res,
        {
          _parent: parent,
          startDate: iso(date),
          endDate: iso(end),
          finalTimeline: { rotations: finalTimeline(schedule, date, end) },
        },
        { expandable: ['base', 'forwarding', 'override'] },
      );
    }
    if (path === '/v2/escalations') return ok(res, account.escalations);
    if (path === '/v2/integrations') {
      return ok(
        res,
        account.integrations.map((i) => ({
          id: i.id,
          name: i.name,
          enabled: i.enabled,
          type: i.type,
          teamId: i.ownerTeam?.id ?? null,
        })),
      );
    }
    m = path.match(/^\/v2\/integrations\/([^/]+)$/);
    if (m) {
      const i = account.integrations.find((x) => x.id === decodeURIComponent(m?.[1] ?? ''));
      if (!i) return notFound(res, 'Integration');
      return ok(res, {
        id: i.id,
        name: i.name,
        type: i.type,
        enabled: i.enabled,
        ...(i.ownerTeam ? { ownerTeam: i.ownerTeam } : {}),
        isGlobal: i.ownerTeam === null,
        recipients: i.recipients,
        suppressNotifications: false,
        ignoreTeamsFromPayload: false,
        ignoreRecipientsFromPayload: false,
        _readOnly: ['type'],
      });
    }
    m = path.match(/^\/v2\/teams\/([^/]+)\/routing-rules$/);
    if (m) {
      const team = account.teams.find((t) => t.id === decodeURIComponent(m?.[1] ?? ''));
      if (!team) return notFound(res, 'Team');
      return ok(res, team.routingRules);
    }
    return notFound(res, 'Resource');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeOpsgenie = {
    url: `http://127.0.0.1:${port}`,
    account,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(value) {
      state.behaviour = value;
    },
    get requests() {
      return state.requests;
    },
    get maxUsersPerPage() {
      return state.maxUsersPerPage;
    },
    set maxUsersPerPage(value) {
      state.maxUsersPerPage = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
