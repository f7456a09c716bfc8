import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback Grafana OnCall (open-source edition) speaking its public HTTP API v1 as its API
 * reference documents it (docs/sources/oncall-api-reference in grafana/oncall): `Authorization:
 * <token>` with no scheme (401 `{"detail": …}` otherwise), list endpoints paged with `count`,
 * `next`, `previous`, `results`, `current_page_number`, `page_size`, `total_pages`, the documented
 * filters, and `GET /api/v1/schedules/{id}/final_shifts?start_date&end_date`, which this server
 * computes itself from the shifts it holds by OnCall's documented rules, independently of Baton's
 * reader: a rolling_users shift hands its events to its user groups in turn (starting from
 * `start_rotation_from_user_index`), every `interval` × `frequency` of the shift's local wall
 * clock from its `start`; a daily shift with `by_day` runs only on those days and passes the turn
 * on each event it runs; `until` ends the recurrence; where events overlap the higher `level`
 * wins, and overrides win over every level.
 *
 * The account: seven users, three web schedules (Europe/Amsterdam and America/Chicago) whose
 * shifts cross the US (2027-03-14) and EU (2027-03-28) daylight-saving changes, overrides, two
 * escalation chains and four integrations with routes.
 */

export interface FakeUser {
  id: string;
  grafana_id: number;
  email: string | null;
  username: string;
  role: 'admin' | 'user' | 'observer';
  timezone: string;
  teams: string[];
  slack: unknown[];
}

export interface FakeSchedule {
  id: string;
  name: string;
  type: 'web' | 'calendar' | 'ical';
  team_id: string | null;
  time_zone: string;
  on_call_now: string[];
  shifts: string[];
  ical_url_overrides?: string | null;
  slack: { channel_id: string | null; user_group_id: string | null };
}

export interface FakeShift {
  id: string;
  name: string;
  type: 'rolling_users' | 'override' | 'single_event' | 'recurrent_event';
  schedule: string;
  team_id: string | null;
  time_zone: string | null;
  level: number;
  /** UTC 'YYYY-MM-DDTHH:MM:SS', as the API answers it */
  start: string;
  rotation_start: string;
  /** seconds */
  duration: number;
  frequency: 'hourly' | 'daily' | 'weekly' | 'monthly' | null;
  interval: number | null;
  until: string | null;
  week_start: 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';
  by_day: string[] | null;
  by_month: number[] | null;
  by_monthday: number[] | null;
  users: string[];
  rolling_users: string[][] | null;
  start_rotation_from_user_index: number | null;
}

export interface FakeChain {
  id: string;
  name: string;
  team_id: string | null;
}

export interface FakeStep {
  id: string;
  escalation_chain_id: string;
  position: number;
  type: string;
  duration?: number;
  important?: boolean;
  persons_to_notify?: string[];
  persons_to_notify_next_each_time?: string[];
  notify_on_call_from_schedule?: string;
  group_to_notify?: string;
}

export interface FakeIntegration {
  id: string;
  name: string;
  team_id: string | null;
  link: string;
  inbound_email: string | null;
  type: string;
  default_route: { id: string; escalation_chain_id: string | null; slack: { channel_id: null } };
  templates: Record<string, unknown>;
}

export interface FakeRoute {
  id: string;
  integration_id: string;
  escalation_chain_id: string | null;
  routing_regex: string;
  position: number;
  is_the_last_route: boolean;
  slack: { channel_id: null };
}

export interface FakeAccount {
  users: FakeUser[];
  schedules: FakeSchedule[];
  shifts: FakeShift[];
  chains: FakeChain[];
  steps: FakeStep[];
  integrations: FakeIntegration[];
  routes: FakeRoute[];
}

export interface FakeGrafanaOnCall {
  /** the instance's address, what a person gives as the API address */
  url: string;
  token: string;
  /** the data it serves: tests may change it */
  account: FakeAccount;
  /** 'ok'; 'hang': never answer; 'malformed': answer lists without `results` */
  mode: 'ok' | 'hang' | 'malformed';
  /** the paths asked, with their query */
  requests: string[];
  /** the Authorization headers received (to check the token travels only there) */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

const user = (
  id: string,
  n: number,
  username: string,
  role: FakeUser['role'],
  timezone: string,
  email: string | null = `${username}@example.com`,
): FakeUser => ({ id, grafana_id: n, email, username, role, timezone, teams: [], slack: [] });

const schedule = (id: string, name: string, time_zone: string, shifts: string[]): FakeSchedule => ({
  id,
  name,
  type: 'web',
  team_id: null,
  time_zone,
  on_call_now: [],
  shifts,
  slack: { channel_id: null, user_group_id: null },
});

function shift(s: Partial<FakeShift> & Pick<FakeShift, 'id' | 'name' | 'schedule' | 'start'>) {
  return {
    type: 'rolling_users',
    team_id: null,
    time_zone: null,
    level: 0,
    rotation_start: s.start,
    duration: 0,
    frequency: null,
    interval: 1,
    until: null,
    week_start: 'MO',
    by_day: null,
    by_month: null,
    by_monthday: null,
    users: [],
    rolling_users: null,
    start_rotation_from_user_index: null,
    ...s,
  } as FakeShift;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/** The account a team moving off Grafana OnCall might have. */
export function grafanaAccount(): FakeAccount {
  const users = [
    user('U4DNY931HHJS5', 11, 'ada', 'admin', 'Europe/Amsterdam'),
    user('U7S8H84ARFTGN', 12, 'bram', 'user', 'Europe/Amsterdam'),
    user('UC2CHRT5SD34X', 13, 'chen', 'user', 'America/Chicago'),
    user('UDANA8K2M4P1Q', 14, 'dana', 'user', 'America/Chicago'),
    user('UEMIL5T7R9W2X', 15, 'emil', 'observer', 'Europe/Amsterdam'),
    user('UFAY3J6L8N0B2', 16, 'fay', 'user', 'Europe/Amsterdam'),
    user('UGUS1A3C5E7G9', 17, 'gus', 'user', 'UTC', null),
  ];
  const [ada, bram, chen, dana, emil, fay] = users.map((u) => u.id) as string[];
  const shifts: FakeShift[] = [
    // Platform (Amsterdam): a weekly primary handing off on Mondays at 09:00 local …
    shift({
      id: 'OA1WEEKLYPRIM',
      name: 'Weekly primary',
      schedule: 'SPLATFORM0001',
      start: '2027-01-04T08:00:00',
      duration: 7 * DAY,
      frequency: 'weekly',
      rolling_users: [[ada], [bram], [chen]],
    }),
    // … office hours on weekdays 09:00–17:00 above it …
    shift({
      id: 'OA2OFFICEHRS0',
      name: 'Office hours',
      schedule: 'SPLATFORM0001',
      level: 1,
      start: '2027-01-04T08:00:00',
      duration: 8 * HOUR,
      frequency: 'daily',
      by_day: ['MO', 'TU', 'WE', 'TH', 'FR'],
      rolling_users: [[dana], [emil]],
    }),
    // … and an override the Monday after the EU change (09:00–19:00 CEST)
    shift({
      id: 'OA3OVERRIDE01',
      name: 'Override',
      type: 'override',
      schedule: 'SPLATFORM0001',
      level: 0,
      start: '2027-03-29T07:00:00',
      duration: 10 * HOUR,
      frequency: null,
      interval: null,
      rolling_users: [[fay]],
    }),
    // Payments (Chicago): a 12-hour day/night pair at 08:00 and 20:00 local …
    shift({
      id: 'OB1DAYSHIFT01',
      name: 'Day',
      schedule: 'SPAYMENTS0002',
      start: '2027-01-04T14:00:00',
      duration: 12 * HOUR,
      frequency: 'daily',
      rolling_users: [[chen], [dana]],
      start_rotation_from_user_index: 1,
    }),
    shift({
      id: 'OB2NIGHTSHIFT',
      name: 'Night',
      schedule: 'SPAYMENTS0002',
      start: '2027-01-05T02:00:00',
      duration: 12 * HOUR,
      frequency: 'daily',
      rolling_users: [[ada], [fay]],
    }),
    // … a weekend lead from Friday 18:00 to Monday 08:00 above them …
    shift({
      id: 'OB3WEEKENDLD',
      name: 'Weekend lead',
      schedule: 'SPAYMENTS0002',
      level: 2,
      start: '2027-01-09T00:00:00',
      duration: 2 * DAY + 14 * HOUR,
      frequency: 'weekly',
      week_start: 'SU',
      rolling_users: [[bram], [emil]],
    }),
    // … and a day's override across the US change (Saturday 14:00 CST to Sunday 14:00 CDT)
    shift({
      id: 'OB4OVERRIDE02',
      name: 'Override',
      type: 'override',
      schedule: 'SPAYMENTS0002',
      start: '2027-03-13T20:00:00',
      duration: 23 * HOUR,
      frequency: null,
      interval: null,
      rolling_users: [[emil]],
    }),
    // Data (Amsterdam): a fortnightly rotation from Wednesdays 10:00 …
    shift({
      id: 'OC1FORTNIGHT1',
      name: 'Fortnight',
      schedule: 'SDATA00000003',
      start: '2027-01-06T09:00:00',
      duration: 14 * DAY,
      frequency: 'weekly',
      interval: 2,
      rolling_users: [[emil], [fay], [ada]],
    }),
    // … and evening cover until mid-April, which ends inside the window
    shift({
      id: 'OC2SPRINGCVR1',
      name: 'Spring cover',
      schedule: 'SDATA00000003',
      level: 1,
      start: '2027-02-01T17:00:00',
      duration: 6 * HOUR,
      frequency: 'daily',
      until: '2027-04-15T00:00:00',
      rolling_users: [[bram], [chen]],
    }),
  ];
  const schedules = [
    schedule('SPLATFORM0001', 'Platform', 'Europe/Amsterdam', []),
    schedule('SPAYMENTS0002', 'Payments', 'America/Chicago', []),
    schedule('SDATA00000003', 'Data', 'Europe/Amsterdam', []),
  ];
  for (const s of schedules) s.shifts = shifts.filter((x) => x.schedule === s.id).map((x) => x.id);
  const chains: FakeChain[] = [
    { id: 'FPLATFORMCHN1', name: 'Platform default', team_id: null },
    { id: 'FPAYMENTSCHN2', name: 'Payments', team_id: null },
  ];
  const steps: FakeStep[] = [
    {
      id: 'E1',
      escalation_chain_id: 'FPLATFORMCHN1',
      position: 0,
      type: 'notify_on_call_from_schedule',
      important: false,
      notify_on_call_from_schedule: 'SPLATFORM0001',
    },
    { id: 'E2', escalation_chain_id: 'FPLATFORMCHN1', position: 1, type: 'wait', duration: 300 },
    {
      id: 'E3',
      escalation_chain_id: 'FPLATFORMCHN1',
      position: 2,
      type: 'notify_persons',
      important: true,
      persons_to_notify: [ada, bram],
    },
    { id: 'E4', escalation_chain_id: 'FPLATFORMCHN1', position: 3, type: 'wait', duration: 900 },
    {
      id: 'E5',
      escalation_chain_id: 'FPLATFORMCHN1',
      position: 4,
      type: 'notify_on_call_from_schedule',
      important: false,
      notify_on_call_from_schedule: 'SDATA00000003',
    },
    {
      id: 'E6',
      escalation_chain_id: 'FPLATFORMCHN1',
      position: 5,
      type: 'notify_user_group',
      group_to_notify: 'GSLACKOPS0001',
    },
    { id: 'E7', escalation_chain_id: 'FPLATFORMCHN1', position: 6, type: 'wait', duration: 600 },
    { id: 'E8', escalation_chain_id: 'FPLATFORMCHN1', position: 7, type: 'repeat_escalation' },
    // Payments: listed out of position order, as a list may come
    {
      id: 'E12',
      escalation_chain_id: 'FPAYMENTSCHN2',
      position: 3,
      type: 'notify_person_next_each_time',
      persons_to_notify_next_each_time: [dana, fay],
    },
    {
      id: 'E9',
      escalation_chain_id: 'FPAYMENTSCHN2',
      position: 0,
      type: 'notify_persons',
      persons_to_notify: [chen],
    },
    {
      id: 'E10',
      escalation_chain_id: 'FPAYMENTSCHN2',
      position: 1,
      type: 'notify_on_call_from_schedule',
      notify_on_call_from_schedule: 'SPAYMENTS0002',
    },
    { id: 'E11', escalation_chain_id: 'FPAYMENTSCHN2', position: 2, type: 'wait', duration: 90 },
    { id: 'E13', escalation_chain_id: 'FPAYMENTSCHN2', position: 4, type: 'resolve' },
  ];
  const integration = (id: string, name: string, type: string, chain: string): FakeIntegration => ({
    id,
    name,
    team_id: null,
    link: `https://oncall.example.com/integrations/v1/${type}/${id.toLowerCase()}/`,
    inbound_email: null,
    type,
    default_route: { id: `R${id}`, escalation_chain_id: chain, slack: { channel_id: null } },
    templates: {},
  });
  const integrations = [
    integration('CPROMETHEUS01', 'Prometheus', 'alertmanager', 'FPLATFORMCHN1'),
    integration('CGRAFANAALRT2', 'Grafana Alerting', 'grafana_alerting', 'FPAYMENTSCHN2'),
    integration('CDEPLOYHOOK03', 'Deploy hook', 'webhook', 'FPLATFORMCHN1'),
    integration('CZABBIX000004', 'Zabbix', 'zabbix', 'FPAYMENTSCHN2'),
  ];
  const routes: FakeRoute[] = [
    {
      id: 'RPAYROUTE0001',
      integration_id: 'CPROMETHEUS01',
      escalation_chain_id: 'FPAYMENTSCHN2',
      routing_regex: 'team="payments"',
      position: 0,
      is_the_last_route: false,
      slack: { channel_id: null },
    },
    ...integrations.map((i, n) => ({
      id: i.default_route.id,
      integration_id: i.id,
      escalation_chain_id: i.default_route.escalation_chain_id,
      routing_regex: '.*',
      position: n === 0 ? 1 : 0,
      is_the_last_route: true,
      slack: { channel_id: null as null },
    })),
  ];
  return { users, schedules, shifts, chains, steps, integrations, routes };
}

// ---- OnCall's rendering, from the stored shifts (independent of Baton's code) ----

interface Wall {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
}

const MS_MINUTE = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** offsetMinutes: the zone's offset from UTC at an instant, read through Intl. */
function offsetMinutes(zone: string, at: number): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute);
  return Math.round((asUtc - Math.floor(at / MS_MINUTE) * MS_MINUTE) / MS_MINUTE);
}

function wallOf(at: number, zone: string): Wall {
  const local = new Date(at + offsetMinutes(zone, at) * MS_MINUTE);
  return {
    y: local.getUTCFullYear(),
    mo: local.getUTCMonth() + 1,
    d: local.getUTCDate(),
    h: local.getUTCHours(),
    mi: local.getUTCMinutes(),
  };
}

/**
 * instantOf: the instant a wall time names, as OnCall's Python reads a local time (fold 0): a
 * time that happens twice is its first occurrence; a time the clocks skip is read with the offset
 * before the change, so 02:30 on a spring-forward night at 02:00 becomes 03:30.
 */
function instantOf(w: Wall, zone: string): number {
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi);
  const candidates = [-1, 1]
    .map((side) => asUtc - offsetMinutes(zone, asUtc + side * 12 * 3_600_000) * MS_MINUTE)
    .filter((t) => t + offsetMinutes(zone, t) * MS_MINUTE === asUtc)
    .sort((x, y) => x - y);
  if (candidates.length > 0) return candidates[0] as number;
  return asUtc - offsetMinutes(zone, asUtc - 12 * 3_600_000) * MS_MINUTE;
}

/** addWall adds days and seconds of wall-clock time (the recurrence's local clock). */
function addWall(w: Wall, days: number, seconds = 0): Wall {
  const t = new Date(Date.UTC(w.y, w.mo - 1, w.d + days, w.h, w.mi) + seconds * 1000);
  return {
    y: t.getUTCFullYear(),
    mo: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    h: t.getUTCHours(),
    mi: t.getUTCMinutes(),
  };
}

const weekdayOf = (w: Wall) => new Date(Date.UTC(w.y, w.mo - 1, w.d)).getUTCDay();
const ICAL = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const apiTime = (t: string) => Date.parse(/Z$/.test(t) ? t : `${t}Z`);

interface OnCallEvent {
  start: number;
  end: number;
  users: string[];
  /** the event's priority; overrides above every level */
  rank: number;
  order: number;
}

/** eventsOf expands one shift into its events starting before `to`. */
function eventsOf(s: FakeShift, zone: string, to: number, order: number): OnCallEvent[] {
  const start = apiTime(s.start);
  if (s.type === 'override' || s.type === 'single_event' || !s.frequency) {
    const users =
      s.type === 'override' || s.type === 'rolling_users' ? (s.rolling_users?.[0] ?? []) : s.users;
    const rank = s.type === 'override' ? Number.POSITIVE_INFINITY : s.level;
    return [{ start, end: start + s.duration * 1000, users, rank, order }];
  }
  const groups = s.type === 'rolling_users' ? (s.rolling_users ?? []) : [s.users];
  const from = s.start_rotation_from_user_index ?? 0;
  const queue = [...groups.slice(from), ...groups.slice(0, from)];
  const until = s.until ? apiTime(s.until) : Number.POSITIVE_INFINITY;
  const local = wallOf(start, s.time_zone ?? zone);
  const tz = s.time_zone ?? zone;
  const every = s.interval ?? 1;
  const out: OnCallEvent[] = [];
  const push = (w: Wall, turn: number) => {
    const at = instantOf(w, tz);
    if (at > until || at >= to) return false;
    const end = Math.min(instantOf(addWall(w, 0, s.duration), tz), until);
    out.push({ start: at, end, users: queue[turn % queue.length] ?? [], rank: s.level, order });
    return true;
  };
  if (s.by_day && s.by_day.length > 0) {
    if (s.frequency !== 'daily') throw new Error('fake: by_day only with daily frequency');
    // one event on each chosen day; the turn passes every `interval` events
    for (let day = 0, event = 0; ; day++) {
      const w = addWall(local, day);
      if (!s.by_day.includes(ICAL[weekdayOf(w)] as string)) continue;
      if (!push(w, Math.floor(event / every))) break;
      event++;
    }
    return out;
  }
  for (let k = 0; ; k++) {
    let w: Wall;
    if (s.frequency === 'hourly') w = addWall(local, 0, k * every * HOUR);
    else if (s.frequency === 'daily') w = addWall(local, k * every);
    else if (s.frequency === 'weekly') w = addWall(local, 7 * k * every);
    else throw new Error('fake: monthly shifts are not in this account');
    if (!push(w, k)) break;
  }
  return out;
}

export interface FinalShift {
  user_pk: string;
  user_email: string | null;
  user_username: string;
  shift_start: string;
  shift_end: string;
}

/** finalShifts: who OnCall puts on call over [from, to), one row per user and stretch. */
export function finalShifts(account: FakeAccount, scheduleId: string, from: number, to: number) {
  const sched = account.schedules.find((s) => s.id === scheduleId);
  if (!sched) return [];
  const events = account.shifts
    .filter((s) => s.schedule === scheduleId)
    .flatMap((s, i) => eventsOf(s, sched.time_zone, to, i))
    .filter((e) => e.end > from && e.end > e.start);
  const points = [...new Set([from, to, ...events.flatMap((e) => [e.start, e.end])])]
    .filter((t) => t >= from && t <= to)
    .sort((a, b) => a - b);
  const stretches: { start: number; end: number; users: string[] }[] = [];
  events.sort((x, y) => x.start - y.start);
  let next = 0;
  let active: OnCallEvent[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const a = points[i] as number;
    const b = points[i + 1] as number;
    while (next < events.length && (events[next] as OnCallEvent).start <= a) {
      active.push(events[next] as OnCallEvent);
      next++;
    }
    active = active.filter((e) => e.end > a);
    const on = [...active];
    if (on.length === 0) continue;
    // the highest priority wins; between equals, the event that began last
    on.sort((x, y) => x.rank - y.rank || x.start - y.start || x.order - y.order);
    const top = on.at(-1) as OnCallEvent;
    const last = stretches.at(-1);
    if (last && last.end === a && last.users.join() === top.users.join()) last.end = b;
    else stretches.push({ start: a, end: b, users: top.users });
  }
  const iso = (t: number) => `${new Date(t).toISOString().slice(0, 19)}Z`;
  const out: FinalShift[] = [];
  for (const s of stretches) {
    for (const id of s.users) {
      const u = account.users.find((x) => x.id === id);
      out.push({
        user_pk: id,
        user_email: u?.email ?? null,
        user_username: u?.username ?? id,
        shift_start: iso(s.start),
        shift_end: iso(s.end),
      });
    }
  }
  return out;
}

// ---- the HTTP server ----

const PAGE_SIZE = 2;

export async function startFakeGrafanaOnCall(
  account: FakeAccount = grafanaAccount(),
): Promise<FakeGrafanaOnCall> {
  const state: FakeGrafanaOnCall = {
    url: '',
    token: 'glsa_fake-oncall-token-4f2a',
    account,
    mode: 'ok',
    requests: [],
    authorizations: [],
    close: async () => {},
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const page = (req: URL, items: unknown[]) => {
    const n = Math.max(1, Number(req.searchParams.get('page') ?? '1') || 1);
    const total = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
    const at = (p: number) => {
      const u = new URL(req);
      u.searchParams.set('page', String(p));
      return u.toString();
    };
    return {
      count: items.length,
      next: n < total ? at(n + 1) : null,
      previous: n > 1 ? at(n - 1) : null,
      results: items.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE),
      current_page_number: n,
      page_size: PAGE_SIZE,
      total_pages: total,
    };
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', state.url);
    state.requests.push(`${url.pathname}${url.search}`);
    state.authorizations.push(req.headers.authorization);
    if (state.mode === 'hang') return;
    if (req.method !== 'GET')
      return send(res, 405, { detail: `Method "${req.method}" not allowed.` });
    if (req.headers.authorization !== state.token) {
      return send(res, 401, { detail: 'Invalid token.' });
    }
    const a = state.account;
    const q = (name: string) => url.searchParams.get(name);
    const path = url.pathname.replace(/\/+$/, '');
    const final = /^\/api\/v1\/schedules\/([^/]+)\/final_shifts$/.exec(path);
    if (final) {
      const id = decodeURIComponent(final[1] as string);
      if (!a.schedules.some((s) => s.id === id)) return send(res, 404, { detail: 'Not found.' });
      const start = q('start_date');
      const end = q('end_date');
      const day = /^\d{4}-\d{2}-\d{2}$/;
      if (!start || !end || !day.test(start) || !day.test(end)) {
        return send(res, 400, { start_date: ['This field is required.'] });
      }
      const from = Date.parse(`${start}T00:00:00Z`);
      const to = Date.parse(`${end}T00:00:00Z`) + 86_400_000;
      if (to <= from) return send(res, 400, { end_date: ['Invalid range.'] });
      if (to - from > 366 * 86_400_000) return send(res, 400, { end_date: ['Range too large.'] });
      const results = finalShifts(a, id, from, to);
      return send(res, 200, {
        count: results.length,
        next: null,
        previous: null,
        results,
        current_page_number: 1,
        page_size: 50,
        total_pages: 1,
      });
    }
    const lists: Record<string, () => unknown[]> = {
      '/api/v1/users': () => a.users.filter((u) => !q('username') || u.username === q('username')),
      '/api/v1/schedules': () => a.schedules.filter((s) => !q('name') || s.name === q('name')),
      '/api/v1/on_call_shifts': () =>
        a.shifts
          .filter((s) => !q('schedule_id') || s.schedule === q('schedule_id'))
          .map(({ users, rolling_users, ...rest }) =>
            rest.type === 'rolling_users' || rest.type === 'override'
              ? { ...rest, users: [], rolling_users }
              : { ...rest, users },
          ),
      '/api/v1/escalation_chains': () => a.chains,
      '/api/v1/escalation_policies': () =>
        a.steps.filter(
          (s) => !q('escalation_chain_id') || s.escalation_chain_id === q('escalation_chain_id'),
        ),
      '/api/v1/integrations': () => a.integrations,
      '/api/v1/routes': () =>
        a.routes.filter((r) => !q('integration_id') || r.integration_id === q('integration_id')),
    };
    const list = lists[path];
    if (!list) return send(res, 404, { detail: 'Not found.' });
    if (state.mode === 'malformed') return send(res, 200, { count: 1, next: null, data: [] });
    return send(res, 200, page(url, list()));
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
