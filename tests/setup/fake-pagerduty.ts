import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A loopback server speaking PagerDuty's REST API v2 as its published document says
 * (PagerDuty/api-schema, reference/REST/openapiv3.json): `Authorization: Token token=…`, offset
 * pagination (`limit`, `offset` in; `limit`, `offset`, `more`, `total` out), GET /users
 * (include[]=contact_methods), /schedules, /schedules/{id} (since, until, time_zone: the layers
 * and the final schedule rendered), /schedules/{id}/overrides, /escalation_policies and /services
 * (include[]=integrations). Errors answer `{ error: { message, code } }` with PagerDuty's status.
 *
 * The final schedule is computed here from the stored layers, restrictions and overrides by
 * PagerDuty's documented rules, on purpose without Baton's layer engine or the reader's mapping:
 * - a layer's turns start at rotation_virtual_start and last rotation_turn_length_seconds, counted
 *   on the schedule's wall clock (a schedule keeps its times in its own zone across a change of
 *   the clocks: PagerDuty's "Time Zone Settings", Daylight Saving Time); user k mod n holds turn k;
 * - a layer is on call only from `start` to `end` and, with restrictions, only inside them
 *   ("Restrictions respect the time_zone"); its turns go on through restricted time;
 * - a daily restriction opens every day at start_time_of_day for duration_seconds, a weekly one on
 *   its ISO day (1 = Monday) only;
 * - where layers overlap, the layer listed lower in PagerDuty's editor (the last created) wins;
 *   an override wins over every layer ("Schedule Basics");
 * - GET answers list the layers highest first, the reverse of the order they were created in
 *   (PagerDuty/public-support-scripts, schedule_layer_reorganizer: "GET requests for schedules
 *   show schedule layers in reverse order to PUT and POST requests").
 * Times are answered in the schedule's zone with its offset, as PagerDuty renders them.
 */

export interface FakePdUser {
  id: string;
  name: string;
  email: string;
  time_zone: string;
  role: string;
  phone?: { country_code: number; address: string };
}

export interface FakePdRestriction {
  type: 'daily_restriction' | 'weekly_restriction';
  start_time_of_day: string;
  duration_seconds: number;
  start_day_of_week?: number;
}

export interface FakePdLayer {
  id: string;
  name: string;
  start: string;
  end: string | null;
  rotation_virtual_start: string;
  rotation_turn_length_seconds: number;
  users: string[];
  restrictions: FakePdRestriction[];
}

export interface FakePdOverride {
  id: string;
  start: string;
  end: string;
  user: string;
}

export interface FakePdSchedule {
  id: string;
  name: string;
  description: string | null;
  time_zone: string;
  /** in the order they were created: the first is Layer 1, the lowest */
  layers: FakePdLayer[];
  overrides: FakePdOverride[];
}

export interface FakePdPolicy {
  id: string;
  name: string;
  description: string | null;
  num_loops: number;
  rules: {
    delay: number;
    targets: { type: 'user_reference' | 'schedule_reference'; id: string }[];
    strategy?: 'round_robin' | 'assign_to_everyone';
  }[];
}

export interface FakePdService {
  id: string;
  name: string;
  status: string;
  policy: string;
  integrations: { id: string; type: string; name: string }[];
}

export interface FakePdAccount {
  users: FakePdUser[];
  schedules: FakePdSchedule[];
  policies: FakePdPolicy[];
  services: FakePdService[];
}

/** How the server answers the next requests whose path starts with `path` (all: ''). */
export type FakePdBehaviour =
  | { kind: 'ok' }
  | { kind: 'hang'; path: string }
  | { kind: 'status'; status: number; path: string }
  | { kind: 'malformed'; path: string };

export interface FakePagerDuty {
  url: string;
  key: string;
  account: FakePdAccount;
  behaviour: FakePdBehaviour;
  /** each request's path and query, in order */
  requests: string[];
  /** the final schedule as this server renders it over [since, until) */
  finalSchedule(scheduleId: string, since: Date, until: Date): RenderedEntry[];
  close(): Promise<void>;
}

export interface RenderedEntry {
  start: Date;
  end: Date;
  user: string;
}

const PAGE_MAX = 100;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** startFakePagerDuty listens on 127.0.0.1 with `account`; answers only `key`. */
export async function startFakePagerDuty(options: {
  account: FakePdAccount;
  key: string;
  /** the most items a page answers, whatever limit asks (PagerDuty's is 100) */
  pageMax?: number;
}): Promise<FakePagerDuty> {
  const pageMax = Math.min(options.pageMax ?? PAGE_MAX, PAGE_MAX);
  const hanging = new Set<ServerResponse>();
  const state: FakePagerDuty = {
    url: '',
    key: options.key,
    account: options.account,
    behaviour: { kind: 'ok' },
    requests: [],
    finalSchedule: (id, since, until) => finalSchedule(scheduleOf(state.account, id), since, until),
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push(`${url.pathname}${url.search}`);
    const b = state.behaviour;
    if (b.kind !== 'ok' && url.pathname.startsWith(b.path)) {
      if (b.kind === 'hang') {
        hanging.add(res);
        return;
      }
      if (b.kind === 'status') return send(res, b.status, pdError('Internal Server Error', 2001));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"users": [ {"id": "PX');
      return;
    }
    if (req.headers.authorization !== `Token token=${state.key}`) {
      return send(res, 401, pdError('Unauthenticated', 2006));
    }
    if (req.method !== 'GET') return send(res, 405, pdError('Method not allowed', 2000));
    try {
      send(res, 200, route(state.account, url, pageMax));
    } catch (err) {
      if (err instanceof NotFound) return send(res, 404, pdError('Not Found', 2100));
      throw err;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

class NotFound extends Error {}

const pdError = (message: string, code: number) => ({ error: { message, code } });

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function scheduleOf(account: FakePdAccount, id: string): FakePdSchedule {
  const schedule = account.schedules.find((s) => s.id === id);
  if (!schedule) throw new NotFound();
  return schedule;
}

/** route answers a GET's body (status 200), or throws NotFound. */
function route(account: FakePdAccount, url: URL, pageMax: number): unknown {
  const q = url.searchParams;
  const includes = q.getAll('include[]');
  const path = url.pathname;
  const page = <T>(name: string, items: T[], shape: (item: T) => unknown) => {
    const limit = Math.min(Math.max(Number(q.get('limit') ?? 25) || 25, 1), pageMax);
    const offset = Math.max(Number(q.get('offset') ?? 0) || 0, 0);
    const slice = items.slice(offset, offset + limit);
    return {
      [name]: slice.map(shape),
      limit,
      offset,
      more: offset + limit < items.length,
      total: q.get('total') === 'true' ? items.length : null,
    };
  };
  if (path === '/users') {
    return page('users', account.users, (u) => userJson(u, includes.includes('contact_methods')));
  }
  if (path === '/schedules') {
    return page('schedules', account.schedules, (s) => ({
      ...reference('schedule', s.id, s.name),
      type: 'schedule',
      name: s.name,
      time_zone: s.time_zone,
      description: s.description,
    }));
  }
  const overrides = /^\/schedules\/([A-Z0-9]+)\/overrides$/.exec(path);
  if (overrides) {
    const schedule = scheduleOf(account, overrides[1] as string);
    const since = new Date(q.get('since') ?? '');
    const until = new Date(q.get('until') ?? '');
    const zone = schedule.time_zone;
    const overflow = q.get('overflow') === 'true';
    const list = schedule.overrides
      .filter((o) => new Date(o.end) > since && new Date(o.start) < until)
      .map((o) => ({
        id: o.id,
        start: pdTime(overflow ? new Date(o.start) : later(new Date(o.start), since), zone),
        end: pdTime(overflow ? new Date(o.end) : earlier(new Date(o.end), until), zone),
        user: userReference(account, o.user),
      }));
    return { overrides: list };
  }
  const one = /^\/schedules\/([A-Z0-9]+)$/.exec(path);
  if (one) {
    const schedule = scheduleOf(account, one[1] as string);
    return { schedule: scheduleJson(account, schedule, q) };
  }
  if (path === '/escalation_policies') {
    return page('escalation_policies', account.policies, (p) => ({
      ...reference('escalation_policy', p.id, p.name),
      type: 'escalation_policy',
      name: p.name,
      description: p.description,
      num_loops: p.num_loops,
      on_call_handoff_notifications: 'if_has_services',
      escalation_rules: p.rules.map((r, i) => ({
        id: `${p.id}R${i}`,
        escalation_delay_in_minutes: r.delay,
        targets: r.targets.map((t) =>
          t.type === 'user_reference'
            ? userReference(account, t.id)
            : reference('schedule', t.id, scheduleOf(account, t.id).name),
        ),
        escalation_rule_assignment_strategy: r.strategy ?? 'assign_to_everyone',
      })),
      services: account.services
        .filter((s) => s.policy === p.id)
        .map((s) => reference('service', s.id, s.name)),
    }));
  }
  if (path === '/services') {
    const full = includes.includes('integrations');
    return page('services', account.services, (s) => ({
      ...reference('service', s.id, s.name),
      type: 'service',
      name: s.name,
      status: s.status,
      escalation_policy: reference(
        'escalation_policy',
        s.policy,
        account.policies.find((p) => p.id === s.policy)?.name ?? '',
      ),
      integrations: s.integrations.map((i) =>
        full
          ? {
              id: i.id,
              type: i.type,
              summary: i.name,
              name: i.name,
              service: reference('service', s.id, s.name),
              self: `https://api.pagerduty.com/services/${s.id}/integrations/${i.id}`,
            }
          : {
              id: i.id,
              type: `${i.type}_reference`,
              summary: i.name,
              self: `https://api.pagerduty.com/services/${s.id}/integrations/${i.id}`,
            },
      ),
    }));
  }
  throw new NotFound();
}

function reference(type: string, id: string, summary: string) {
  const plural = type === 'escalation_policy' ? 'escalation_policies' : `${type}s`;
  return {
    id,
    type: `${type}_reference`,
    summary,
    self: `https://api.pagerduty.com/${plural}/${id}`,
    html_url: `https://acme.pagerduty.com/${plural}/${id}`,
  };
}

function userReference(account: FakePdAccount, id: string) {
  return reference('user', id, account.users.find((u) => u.id === id)?.name ?? id);
}

function userJson(u: FakePdUser, withContacts: boolean) {
  const methods = [
    {
      id: `${u.id}E`,
      type: 'email_contact_method',
      summary: 'Default',
      label: 'Default',
      address: u.email,
    },
    ...(u.phone
      ? [
          {
            id: `${u.id}P`,
            type: 'phone_contact_method',
            summary: 'Mobile',
            label: 'Mobile',
            country_code: u.phone.country_code,
            address: u.phone.address,
          },
        ]
      : []),
  ];
  return {
    ...reference('user', u.id, u.name),
    type: 'user',
    name: u.name,
    email: u.email,
    time_zone: u.time_zone,
    color: 'green',
    role: u.role,
    invitation_sent: false,
    contact_methods: withContacts
      ? methods
      : methods.map((m) => ({ id: m.id, type: `${m.type}_reference`, summary: m.summary })),
  };
}

function scheduleJson(account: FakePdAccount, s: FakePdSchedule, q: URLSearchParams) {
  const zone = q.get('time_zone') || s.time_zone;
  const since = q.get('since') ? new Date(q.get('since') as string) : null;
  const until = q.get('until') ? new Date(q.get('until') as string) : null;
  const window = since && until ? { since, until } : null;
  const entries = (list: RenderedEntry[]) =>
    list.map((e) => ({
      start: pdTime(e.start, zone),
      end: pdTime(e.end, zone),
      user: userReference(account, e.user),
    }));
  const users = [...new Set(s.layers.flatMap((l) => l.users))];
  return {
    ...reference('schedule', s.id, s.name),
    type: 'schedule',
    name: s.name,
    description: s.description,
    time_zone: s.time_zone,
    users: users.map((u) => userReference(account, u)),
    escalation_policies: account.policies
      .filter((p) => p.rules.some((r) => r.targets.some((t) => t.id === s.id)))
      .map((p) => reference('escalation_policy', p.id, p.name)),
    // Highest first: the reverse of the order they were created in.
    schedule_layers: [...s.layers].reverse().map((l) => ({
      id: l.id,
      name: l.name,
      start: pdTime(new Date(l.start), zone),
      end: l.end ? pdTime(new Date(l.end), zone) : null,
      rotation_virtual_start: pdTime(new Date(l.rotation_virtual_start), zone),
      rotation_turn_length_seconds: l.rotation_turn_length_seconds,
      users: l.users.map((u) => ({ user: userReference(account, u) })),
      restrictions: l.restrictions.map((r) => ({
        ...r,
        start_day_of_week: r.type === 'weekly_restriction' ? r.start_day_of_week : null,
      })),
      rendered_schedule_entries: window
        ? entries(layerEntries(l, s.time_zone, window.since, window.until))
        : [],
    })),
    overrides_subschedule: {
      name: 'Overrides',
      rendered_schedule_entries: window
        ? entries(overrideEntries(s).flatMap((o) => clipEntry(o, window.since, window.until) ?? []))
        : [],
    },
    final_schedule: {
      name: 'Final Schedule',
      rendered_schedule_entries: window
        ? entries(finalEntries(s, window.since, window.until, q.get('overflow') === 'true'))
        : [],
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Rendering, by PagerDuty's rules (see the top of this file)

const formats = new Map<string, Intl.DateTimeFormat>();

/** The offset of `zone` from UTC at `at`, in minutes (New York in winter: -300). */
function offsetOf(zone: string, at: number): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  const parts = format.formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((asUtc - Math.floor(at / 1000) * 1000) / MINUTE);
}

/** A local time as a zone-free number: the wall clock read as if it were UTC, in ms. */
const localOf = (zone: string, at: number) => at + offsetOf(zone, at) * MINUTE;

/**
 * The instant a local time names: a time that happens twice is its first occurrence; a time the
 * clocks skip is read with the offset before the change (02:30 on a spring-forward night is
 * 03:30), as ActiveSupport, which PagerDuty's API speaks (`activesupport-time-zone`), does.
 */
function instantOf(zone: string, local: number): number {
  const candidates = [...new Set([offsetOf(zone, local - DAY), offsetOf(zone, local + DAY)])]
    .map((offset) => local - offset * MINUTE)
    .filter((t) => localOf(zone, t) === local)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0] as number;
  return local - offsetOf(zone, local - DAY) * MINUTE;
}

function pdTime(at: Date, zone: string): string {
  const offset = offsetOf(zone, at.getTime());
  const local = new Date(at.getTime() + offset * MINUTE).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

const later = (a: Date, b: Date) => (a > b ? a : b);
const earlier = (a: Date, b: Date) => (a < b ? a : b);

function clipEntry(e: RenderedEntry, since: Date, until: Date): RenderedEntry | null {
  const start = later(e.start, since);
  const end = earlier(e.end, until);
  return start < end ? { ...e, start, end } : null;
}

const secondsOfDay = (hhmmss: string) => {
  const [h, m, s] = hhmmss.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

/** The intervals a layer's restrictions open over [since, until), as instants. */
function restrictionIntervals(
  restrictions: readonly FakePdRestriction[],
  zone: string,
  since: number,
  until: number,
): [number, number][] {
  const out: [number, number][] = [];
  // From a week before, so a long weekly restriction that opened earlier is seen.
  const firstDay = Math.floor(localOf(zone, since) / DAY) * DAY - 7 * DAY;
  for (let day = firstDay; day < localOf(zone, until) + DAY; day += DAY) {
    const isoWeekday = ((new Date(day).getUTCDay() + 6) % 7) + 1;
    for (const r of restrictions) {
      if (r.type === 'weekly_restriction' && r.start_day_of_week !== isoWeekday) continue;
      const open = day + secondsOfDay(r.start_time_of_day) * 1000;
      const start = instantOf(zone, open);
      const end = instantOf(zone, open + r.duration_seconds * 1000);
      if (end > since && start < until) out.push([start, end]);
    }
  }
  return out;
}

/** Who a layer has on call over [since, until), before other layers and overrides. */
function layerEntries(layer: FakePdLayer, zone: string, since: Date, until: Date): RenderedEntry[] {
  const from = Math.max(since.getTime(), new Date(layer.start).getTime());
  const to = Math.min(until.getTime(), layer.end ? new Date(layer.end).getTime() : Infinity);
  // PagerDuty refuses a turn that is not positive; a test may store one to see the reader refuse it
  if (from >= to || layer.users.length === 0 || layer.rotation_turn_length_seconds <= 0) return [];
  const virtualLocal = localOf(zone, new Date(layer.rotation_virtual_start).getTime());
  const turn = layer.rotation_turn_length_seconds * 1000;
  const turnStart = (k: number) => instantOf(zone, virtualLocal + k * turn);
  let k = Math.floor((localOf(zone, from) - virtualLocal) / turn) - 1;
  while (turnStart(k + 1) <= from) k++;
  const turns: RenderedEntry[] = [];
  for (; turnStart(k) < to; k++) {
    const n = layer.users.length;
    const user = layer.users[((k % n) + n) % n] as string;
    const start = Math.max(turnStart(k), from);
    const end = Math.min(turnStart(k + 1), to);
    if (start < end) turns.push({ start: new Date(start), end: new Date(end), user });
  }
  if (layer.restrictions.length === 0) return turns;
  const open = restrictionIntervals(layer.restrictions, zone, from, to);
  const out: RenderedEntry[] = [];
  for (const t of turns) {
    for (const [a, b] of open) {
      const start = Math.max(a, t.start.getTime());
      const end = Math.min(b, t.end.getTime());
      if (start < end) out.push({ start: new Date(start), end: new Date(end), user: t.user });
    }
  }
  return joinEntries(out);
}

function overrideEntries(s: FakePdSchedule): RenderedEntry[] {
  return s.overrides.map((o) => ({ start: new Date(o.start), end: new Date(o.end), user: o.user }));
}

/**
 * The final schedule's entries over [since, until): cut at the bounds, or with `overflow` whole
 * (rendered a turn beyond each bound, then kept where they meet the range).
 */
function finalEntries(s: FakePdSchedule, since: Date, until: Date, overflow: boolean) {
  if (!overflow) return finalSchedule(s, since, until);
  const pad = Math.max(DAY, ...s.layers.map((l) => l.rotation_turn_length_seconds * 1000));
  return finalSchedule(s, new Date(since.getTime() - pad), new Date(until.getTime() + pad)).filter(
    (e) => e.end > since && e.start < until,
  );
}

/** The final schedule: overrides over layers, the last created layer over the ones before. */
function finalSchedule(s: FakePdSchedule, since: Date, until: Date): RenderedEntry[] {
  // Lowest precedence first; an override is above every layer, a later override above earlier.
  const stack = [
    ...s.layers.map((l) => layerEntries(l, s.time_zone, since, until)),
    ...overrideEntries(s).map((o) => [clipEntry(o, since, until)].filter((e) => e !== null)),
  ];
  const cuts = new Set<number>([since.getTime(), until.getTime()]);
  for (const list of stack) {
    for (const e of list) {
      cuts.add(e.start.getTime());
      cuts.add(e.end.getTime());
    }
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: RenderedEntry[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const at = points[i] as number;
    let who: string | null = null;
    for (let level = stack.length - 1; level >= 0 && who === null; level--) {
      const e = stack[level]?.find((x) => x.start.getTime() <= at && at < x.end.getTime());
      if (e) who = e.user;
    }
    if (who) out.push({ start: new Date(at), end: new Date(points[i + 1] as number), user: who });
  }
  return joinEntries(out);
}

function joinEntries(entries: RenderedEntry[]): RenderedEntry[] {
  const sorted = [...entries].sort((a, b) => a.start.getTime() - b.start.getTime());
  const out: RenderedEntry[] = [];
  for (const e of sorted) {
    const last = out.at(-1);
    if (last && last.user === e.user && last.end.getTime() >= e.start.getTime()) {
      if (e.end > last.end) last.end = e.end;
    } else out.push({ ...e });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A realistic account: the window 2027-03-01 + 90 days crosses the US (March 14) and the EU
// (March 28) spring changes.

/** The window the account is read over in tests. */
export const PAGERDUTY_WINDOW = {
  from: new Date('2027-03-01T00:00:00Z'),
  to: new Date('2027-05-30T00:00:00Z'),
};

/**
 * pagerDutyAccount is a fresh copy of a team's account: seven people (an owner, an admin, users,
 * a limited user and an observer; one with an email at another domain), three schedules, two
 * escalation policies and two services with four integrations.
 */
export function pagerDutyAccount(): FakePdAccount {
  const weekly = (users: string[]) => ({ users, restrictions: [] as FakePdRestriction[] });
  return {
    users: [
      {
        id: 'PADA001',
        name: 'Ada Lovelace',
        email: 'ada@acme.example',
        time_zone: 'America/New_York',
        role: 'owner',
        phone: { country_code: 1, address: '2125550101' },
      },
      {
        id: 'PBOB002',
        name: 'Bob Brown',
        email: 'Bob.Brown@acme.example',
        time_zone: 'America/New_York',
        role: 'admin',
      },
      {
        id: 'PCAR003',
        name: 'Carol King',
        email: 'carol@acme.example',
        time_zone: 'Europe/London',
        role: 'user',
        phone: { country_code: 44, address: '7700900123' },
      },
      {
        id: 'PDAN004',
        name: 'Dan Reed',
        email: 'dan@acme.example',
        time_zone: 'Europe/London',
        role: 'user',
      },
      {
        id: 'PEVE005',
        name: 'Eve Stone',
        email: 'eve@contractor.example',
        time_zone: 'America/Chicago',
        role: 'user',
      },
      {
        id: 'PFAY006',
        name: 'Fay Wong',
        email: 'fay@acme.example',
        time_zone: 'Europe/London',
        role: 'limited_user',
      },
      {
        id: 'PGUS007',
        name: 'Gus Hale',
        email: 'gus@acme.example',
        time_zone: 'America/New_York',
        role: 'observer',
      },
    ],
    schedules: [
      {
        id: 'PSCHA01',
        name: 'Platform',
        description: 'Weekly primary with a day and a night layer',
        time_zone: 'America/New_York',
        layers: [
          {
            id: 'PLAYA1',
            name: 'Weekly',
            start: '2027-01-04T14:00:00Z',
            end: null,
            // Monday 09:00 in New York
            rotation_virtual_start: '2027-01-04T14:00:00Z',
            rotation_turn_length_seconds: 7 * 86_400,
            ...weekly(['PADA001', 'PBOB002', 'PCAR003']),
          },
          {
            id: 'PLAYA2',
            name: 'Day',
            start: '2027-02-01T13:00:00Z',
            end: null,
            rotation_virtual_start: '2027-02-01T13:00:00Z',
            rotation_turn_length_seconds: 86_400,
            users: ['PDAN004', 'PEVE005'],
            restrictions: [
              {
                type: 'daily_restriction',
                start_time_of_day: '08:00:00',
                duration_seconds: 43_200,
              },
            ],
          },
          {
            id: 'PLAYA3',
            name: 'Night',
            start: '2027-02-02T01:00:00Z',
            end: null,
            // 20:00 in New York; the night ends at 06:00, the weekly layer holds 06:00–08:00
            rotation_virtual_start: '2027-02-02T01:00:00Z',
            rotation_turn_length_seconds: 86_400,
            users: ['PBOB002', 'PDAN004', 'PADA001'],
            restrictions: [
              {
                type: 'daily_restriction',
                start_time_of_day: '20:00:00',
                duration_seconds: 36_000,
              },
            ],
          },
        ],
        overrides: [
          {
            id: 'POVA1',
            start: '2027-03-10T12:00:00Z',
            end: '2027-03-11T12:00:00Z',
            user: 'PADA001',
          },
          // across the US change of the clocks
          {
            id: 'POVA2',
            start: '2027-03-14T05:00:00Z',
            end: '2027-03-14T15:00:00Z',
            user: 'PEVE005',
          },
          // after the window: not read
          {
            id: 'POVA3',
            start: '2027-06-15T12:00:00Z',
            end: '2027-06-16T12:00:00Z',
            user: 'PEVE005',
          },
        ],
      },
      {
        id: 'PSCHB02',
        name: 'Support',
        description: null,
        time_zone: 'Europe/London',
        layers: [
          {
            id: 'PLAYB1',
            name: 'Office hours',
            start: '2027-02-01T09:00:00Z',
            end: null,
            rotation_virtual_start: '2027-02-01T09:00:00Z',
            rotation_turn_length_seconds: 86_400,
            users: ['PCAR003', 'PDAN004', 'PFAY006'],
            restrictions: [1, 2, 3, 4, 5].map((day) => ({
              type: 'weekly_restriction' as const,
              start_day_of_week: day,
              start_time_of_day: '09:00:00',
              duration_seconds: 8 * 3600,
            })),
          },
          {
            id: 'PLAYB2',
            name: 'Weekends',
            // Starts inside the window, mid-turn, a Monday at noon
            start: '2027-04-05T11:00:00Z',
            end: null,
            // Saturday 00:00 in London, two-week turns
            rotation_virtual_start: '2027-01-09T00:00:00Z',
            rotation_turn_length_seconds: 14 * 86_400,
            users: ['PADA001', 'PBOB002', 'PCAR003'],
            restrictions: [
              {
                type: 'weekly_restriction',
                start_day_of_week: 6,
                start_time_of_day: '00:00:00',
                duration_seconds: 2 * 86_400,
              },
            ],
          },
        ],
        overrides: [
          {
            id: 'POVB1',
            start: '2027-03-29T08:00:00Z',
            end: '2027-03-29T16:00:00Z',
            user: 'PDAN004',
          },
        ],
      },
      {
        id: 'PSCHC03',
        name: 'Database',
        description: 'The old weekly layer ends in April; a daily one takes over',
        time_zone: 'America/New_York',
        layers: [
          {
            id: 'PLAYC1',
            name: 'Old weekly',
            start: '2027-01-06T15:00:00Z',
            end: '2027-04-15T14:00:00Z',
            // Wednesday 10:00 in New York
            rotation_virtual_start: '2027-01-06T15:00:00Z',
            rotation_turn_length_seconds: 7 * 86_400,
            ...weekly(['PBOB002', 'PEVE005']),
          },
          {
            id: 'PLAYC2',
            name: 'New daily',
            start: '2027-04-15T14:00:00Z',
            end: null,
            rotation_virtual_start: '2027-04-15T14:00:00Z',
            rotation_turn_length_seconds: 86_400,
            ...weekly(['PADA001', 'PDAN004']),
          },
        ],
        overrides: [
          {
            id: 'POVC1',
            start: '2027-05-01T04:00:00Z',
            end: '2027-05-02T04:00:00Z',
            user: 'PFAY006',
          },
        ],
      },
    ],
    policies: [
      {
        id: 'PPOL001',
        name: 'Platform escalation',
        description: 'Platform first, then Bob and Support',
        num_loops: 2,
        rules: [
          { delay: 15, targets: [{ type: 'schedule_reference', id: 'PSCHA01' }] },
          {
            delay: 30,
            targets: [
              { type: 'user_reference', id: 'PBOB002' },
              { type: 'schedule_reference', id: 'PSCHB02' },
            ],
          },
        ],
      },
      {
        id: 'PPOL002',
        name: 'Database escalation',
        description: null,
        num_loops: 12,
        rules: [
          { delay: 10, targets: [{ type: 'schedule_reference', id: 'PSCHC03' }] },
          {
            delay: 20,
            targets: [
              { type: 'user_reference', id: 'PADA001' },
              { type: 'user_reference', id: 'PDAN004' },
            ],
            strategy: 'round_robin',
          },
        ],
      },
    ],
    services: [
      {
        id: 'PSVC001',
        name: 'Checkout API',
        status: 'active',
        policy: 'PPOL001',
        integrations: [
          { id: 'PINT001', type: 'events_api_v2_inbound_integration', name: 'Datadog' },
          { id: 'PINT002', type: 'generic_email_inbound_integration', name: 'Email' },
        ],
      },
      {
        id: 'PSVC002',
        name: 'Orders DB',
        status: 'active',
        policy: 'PPOL002',
        integrations: [
          { id: 'PINT003', type: 'events_api_v2_inbound_integration', name: 'Prometheus' },
          { id: 'PINT004', type: 'nagios_inbound_integration', name: 'Nagios' },
        ],
      },
    ],
  };
}
