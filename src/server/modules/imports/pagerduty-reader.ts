import { z } from 'zod';
import {
  DELAY_MINUTES_MAX,
  REPEAT_MAX,
  STEPS_MAX,
} from '../../../shared/contracts/escalation-policies';
import type { IntegrationSource } from '../../../shared/contracts/integrations';
import {
  CADENCE_EVERY_MAX,
  LAYER_WINDOWS_MAX,
  LAYERS_MAX,
} from '../../../shared/contracts/rotations';
import type { Cadence } from '../../../shared/domain/layers';
import type { OnDutyWindow } from '../../../shared/domain/on-duty-windows';
import { instantOfWallMinute, wallMinuteOf, wallTimeOf } from '../../../shared/domain/shifts';
import { isTimeZone } from '../../../shared/domain/time-zones';
import { merge } from './snapshot-rendering';
import {
  ImportSourceError,
  type SourceEscalationPolicy,
  type SourceEscalationStep,
  type SourceIntegration,
  type SourceLayer,
  type SourceNote,
  type SourcePerson,
  type SourceReader,
  type SourceReadInput,
  type SourceSchedule,
  type SourceShift,
  type SourceTarget,
} from './source-snapshot';

/**
 * The PagerDuty reader (issue 34, decision 270): one account read through the REST API v2 with a
 * read-only key (`Authorization: Token token=…`, offset pagination), mapped onto Baton's people,
 * layered rotations, escalation policies and integrations. PagerDuty's own rendering of each
 * schedule over the window (`final_schedule`) is kept beside the mapping, so verify can compare.
 *
 * What a layer becomes (decision 270): its turn length in whole weeks, days or hours is Baton's
 * cadence × N, counted on the schedule's wall clock from `rotation_virtual_start` (PagerDuty keeps
 * a schedule's times in its own zone across a change of the clocks, as Baton's layers do); its
 * restrictions are on-duty windows; its users, in order, start from whoever holds the turn at the
 * layer's Baton start. A layer that ends inside the window, a turn that is not whole hours, a
 * restriction that is not whole minutes or needs more than 14 windows make the schedule a
 * scheduled rotation of PagerDuty's own shifts, with a warning saying why.
 */

export const PAGERDUTY_API_URL = 'https://api.pagerduty.com';
/** PagerDuty's largest page. */
const PAGE_LIMIT = 100;
/** A list longer than this many pages is not an account Baton imports in one read. */
const PAGES_MAX = 100;
const LABEL = 'PagerDuty';

const MINUTES_PER: Record<Cadence, number> = { hourly: 60, daily: 1440, weekly: 10_080 };
const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];

// ---------------------------------------------------------------------------------------------
// PagerDuty's answers, as much of them as the import reads (reference/REST/openapiv3.json)

const Reference = z.object({
  id: z.string(),
  type: z.string().optional(),
  summary: z.string().nullish(),
});

const ContactMethod = z.object({
  type: z.string(),
  address: z.string().nullish(),
  country_code: z.number().int().nullish(),
});

const User = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullish(),
  time_zone: z.string().nullish(),
  role: z.string().nullish(),
  contact_methods: z.array(z.union([ContactMethod, Reference])).nullish(),
});

const Restriction = z.object({
  type: z.enum(['daily_restriction', 'weekly_restriction']),
  start_time_of_day: z.string().regex(/^\d{2}:\d{2}(:\d{2})?$/),
  duration_seconds: z.number().int(),
  start_day_of_week: z.number().int().min(1).max(7).nullish(),
});
type Restriction = z.infer<typeof Restriction>;

const instant = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date and time');

const ScheduleLayer = z.object({
  id: z.string().nullish(),
  name: z.string().nullish(),
  start: instant,
  end: instant.nullish(),
  rotation_virtual_start: instant,
  rotation_turn_length_seconds: z.number().int().positive(),
  users: z.array(z.object({ user: Reference })),
  restrictions: z.array(Restriction).nullish(),
});
type ScheduleLayer = z.infer<typeof ScheduleLayer>;

const Entry = z.object({ start: instant, end: instant, user: Reference.nullish() });

const ScheduleListItem = z.object({ id: z.string(), name: z.string() });

const Schedule = z.object({
  schedule: z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullish(),
    time_zone: z.string(),
    schedule_layers: z.array(ScheduleLayer),
    final_schedule: z.object({ rendered_schedule_entries: z.array(Entry).nullish() }),
  }),
});
type Schedule = z.infer<typeof Schedule>['schedule'];

const Overrides = z.object({
  overrides: z.array(z.object({ id: z.string(), start: instant, end: instant, user: Reference })),
});

const Policy = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  num_loops: z.number().int().nullish(),
  escalation_rules: z.array(
    z.object({
      escalation_delay_in_minutes: z.number(),
      targets: z.array(Reference),
      escalation_rule_assignment_strategy: z
        .union([z.string(), z.object({ type: z.string() })])
        .nullish(),
    }),
  ),
});
type Policy = z.infer<typeof Policy>;

const Service = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string().nullish(),
  escalation_policy: Reference.nullish(),
  integrations: z
    .array(
      z.object({
        id: z.string(),
        type: z.string(),
        summary: z.string().nullish(),
        name: z.string().nullish(),
      }),
    )
    .nullish(),
});

const Page = z.object({ more: z.boolean().nullish() });

// ---------------------------------------------------------------------------------------------
// Reading

/** readPagerDuty reads one PagerDuty account into a snapshot over `input.window`. */
export const readPagerDuty: SourceReader = async (input) => {
  const key = input.apiKey?.trim();
  if (!key) {
    throw new ImportSourceError('Give a PagerDuty REST API key (read-only is enough)', 'input');
  }
  const base = (input.apiUrl?.trim() || PAGERDUTY_API_URL).replace(/\/+$/, '');
  const api = pagerDutyApi(input, base, key);
  const { from, to } = input.window;
  const notes: SourceNote[] = [];

  const users = await api.list('/users', 'users', User, { 'include[]': 'contact_methods' });
  const people = users.map((u) => personOf(u, notes));
  noteOtherDomains(people, notes);

  const list = await api.list('/schedules', 'schedules', ScheduleListItem);
  const schedules: SourceSchedule[] = [];
  for (const item of list) {
    const range = { since: from.toISOString(), until: to.toISOString() };
    const { schedule } = await api.one(`/schedules/${encodeURIComponent(item.id)}`, Schedule, {
      ...range,
      overflow: 'true',
    });
    const { overrides } = await api.one(
      `/schedules/${encodeURIComponent(item.id)}/overrides`,
      Overrides,
      { ...range, overflow: 'true' },
    );
    const mapped = scheduleOf(
      schedule,
      overrides.map((o) => ({
        start: new Date(o.start),
        end: new Date(o.end),
        personSourceId: o.user.id,
      })),
      input.window,
    );
    schedules.push(mapped.schedule);
    notes.push(...mapped.notes);
  }

  const policies = (await api.list('/escalation_policies', 'escalation_policies', Policy)).map(
    (p) => policyOf(p, notes),
  );

  const services = await api.list('/services', 'services', Service, {
    'include[]': 'integrations',
  });
  const integrations: SourceIntegration[] = [];
  for (const service of services) {
    if (service.status === 'disabled') {
      notes.push({
        level: 'info',
        subject: `Service “${service.name}”`,
        message: 'It is disabled in PagerDuty; its integrations are imported all the same',
      });
    }
    if (!service.integrations?.length) {
      notes.push({
        level: 'info',
        subject: `Service “${service.name}”`,
        message: 'It has no integrations: no alert source to bring over',
      });
    }
    for (const integration of service.integrations ?? []) {
      const name = integration.name ?? integration.summary ?? integration.id;
      const source = integrationSourceOf(integration.type);
      if (source.note) {
        notes.push({
          level: 'warning',
          subject: `Service “${service.name}” integration “${name}”`,
          message: source.note,
        });
      }
      integrations.push({
        sourceId: integration.id,
        name: `${service.name}: ${name}`,
        source: source.source,
        policySourceId: service.escalation_policy?.id ?? null,
        scheduleSourceId: null,
      });
    }
  }

  return {
    source: 'pagerduty',
    account: base,
    window: { from, to },
    people,
    schedules,
    policies,
    integrations,
    notes,
  };
};

/** The GETs of one read: the key in the headers only, every list read to its end. */
function pagerDutyApi(input: SourceReadInput, base: string, key: string) {
  const headers = {
    authorization: `Token token=${key}`,
    accept: 'application/vnd.pagerduty+json;version=2',
  };
  const one = async <T>(path: string, schema: z.ZodType<T>, query: Record<string, string> = {}) => {
    const url = `${base}${path}?${new URLSearchParams(query)}`;
    const { body } = await input.get(url, headers);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      throw new ImportSourceError(
        `${LABEL} answered ${path} with data Baton cannot read${where}: ${issue?.message ?? 'unexpected shape'}`,
      );
    }
    return parsed.data;
  };
  const list = async <T>(
    path: string,
    name: string,
    item: z.ZodType<T>,
    query: Record<string, string> = {},
  ): Promise<T[]> => {
    const schema = Page.extend({ [name]: z.array(item) }) as unknown as z.ZodType<
      { more?: boolean | null } & Record<string, T[]>
    >;
    const items: T[] = [];
    for (let page = 0; page < PAGES_MAX; page++) {
      const answer = await one(path, schema, {
        ...query,
        limit: String(PAGE_LIMIT),
        offset: String(items.length),
      });
      const got = answer[name] ?? [];
      items.push(...got);
      if (!answer.more || got.length === 0) return items;
    }
    throw new ImportSourceError(
      `${LABEL} listed more than ${PAGES_MAX * PAGE_LIMIT} items at ${path}: import a smaller account`,
    );
  };
  return { one, list };
}

// ---------------------------------------------------------------------------------------------
// People

const ROLES: Record<string, SourcePerson['role']> = {
  owner: 'admin',
  admin: 'admin',
  user: 'member',
};

function personOf(u: z.infer<typeof User>, notes: SourceNote[]): SourcePerson {
  const subject = `User “${u.name}”`;
  const role = u.role ? ROLES[u.role] : 'member';
  if (u.role && !role) {
    notes.push({
      level: 'info',
      subject,
      message: `PagerDuty's ${u.role.replaceAll('_', ' ')} role has no match in Baton: imported as a member`,
    });
  }
  const email = u.email?.trim() || null;
  if (!email) {
    notes.push({ level: 'warning', subject, message: 'No email: cannot be matched or invited' });
  }
  const phone = (u.contact_methods ?? [])
    .map((m) => ('address' in m ? m : null))
    .find((m) => m && /^(phone|sms)_contact_method$/.test(m.type) && m.country_code && m.address);
  const timeZone = u.time_zone && isTimeZone(u.time_zone) ? u.time_zone : null;
  return {
    sourceId: u.id,
    name: u.name,
    email,
    phone: phone ? `+${phone.country_code}${(phone.address ?? '').replace(/\D/g, '')}` : null,
    timeZone,
    role: role ?? 'member',
  };
}

/** A person whose email is at another domain than most of the account's is worth a look. */
function noteOtherDomains(people: readonly SourcePerson[], notes: SourceNote[]): void {
  const domainOf = (email: string | null) => email?.split('@')[1]?.toLowerCase() ?? null;
  const counts = new Map<string, number>();
  for (const p of people) {
    const d = domainOf(p.email);
    if (d) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  const [main] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!main || counts.size < 2) return;
  for (const p of people) {
    const d = domainOf(p.email);
    if (d && d !== main) {
      notes.push({
        level: 'info',
        subject: `User “${p.name}”`,
        message: `Email ${p.email} is outside ${main}, the domain of most of the account: check it is the address they sign in to Baton with`,
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Schedules

/** A layer Baton cannot keep as layers: why, in a sentence. */
class Inexpressible extends Error {}

/**
 * scheduleOf maps one PagerDuty schedule (as GET /schedules/{id} answers it over the window) and
 * its overrides onto a snapshot schedule: its layers when Baton can express every one exactly,
 * otherwise none (a scheduled rotation of `rendered`), with notes saying what and why.
 */
export function scheduleOf(
  pd: Schedule,
  overrides: readonly SourceShift[],
  window: { from: Date; to: Date },
): { schedule: SourceSchedule; notes: SourceNote[] } {
  const notes: SourceNote[] = [];
  const subject = `Schedule “${pd.name}”`;
  const rendered = merge(
    (pd.final_schedule.rendered_schedule_entries ?? []).flatMap((e) =>
      e.user ? [{ start: new Date(e.start), end: new Date(e.end), personSourceId: e.user.id }] : [],
    ),
  );
  const clipped = overrides
    .filter((o) => o.end > window.from && o.start < window.to)
    .map((o) => ({
      personSourceId: o.personSourceId,
      start: new Date(Math.max(o.start.getTime(), window.from.getTime())),
      end: new Date(Math.min(o.end.getTime(), window.to.getTime())),
    }));
  const scheduled = (
    zone: string,
    why: string,
  ): { schedule: SourceSchedule; notes: SourceNote[] } => {
    notes.push({
      level: 'warning',
      subject,
      message: `${why}. It becomes a scheduled rotation of PagerDuty's own shifts from ${window.from.toISOString().slice(0, 10)} to ${window.to.toISOString().slice(0, 10)}: add later shifts in Baton before then`,
    });
    return {
      schedule: {
        sourceId: pd.id,
        name: pd.name,
        description: pd.description ?? null,
        timeZone: zone,
        layers: null,
        overrides: clipped,
        rendered,
      },
      notes,
    };
  };
  if (!isTimeZone(pd.time_zone)) {
    return scheduled('UTC', `Its time zone “${pd.time_zone}” is not an IANA time zone Baton knows`);
  }
  // GET answers list the layers highest first (the reverse of the order they were made in, and
  // of Baton's, where the last listed wins): PagerDuty/public-support-scripts says so.
  const pdLayers = [...pd.schedule_layers].reverse();
  const layers: SourceLayer[] = [];
  try {
    pdLayers.forEach((l, i) => {
      const layer = layerOf(l, i, pd, window, notes);
      if (layer) layers.push(layer);
    });
  } catch (err) {
    if (err instanceof Inexpressible) return scheduled(pd.time_zone, err.message);
    throw err;
  }
  if (layers.length === 0) return scheduled(pd.time_zone, 'It has no layer on call in the window');
  if (layers.length > LAYERS_MAX) {
    return scheduled(
      pd.time_zone,
      `It has ${layers.length} layers and Baton keeps at most ${LAYERS_MAX}`,
    );
  }
  return {
    schedule: {
      sourceId: pd.id,
      name: pd.name,
      description: pd.description ?? null,
      timeZone: pd.time_zone,
      layers,
      overrides: clipped,
      rendered,
    },
    notes,
  };
}

/** A layer's turn length as Baton's cadence × N, or why it cannot be one. */
function cadenceOf(seconds: number): { cadence: Cadence; every: number } | string {
  for (const cadence of ['weekly', 'daily', 'hourly'] as const) {
    const unit = MINUTES_PER[cadence] * 60;
    if (seconds % unit === 0 && seconds / unit <= CADENCE_EVERY_MAX[cadence]) {
      return { cadence, every: seconds / unit };
    }
  }
  return seconds % 3600 === 0
    ? `turns of ${seconds / 3600} hours, longer than Baton's longest (${CADENCE_EVERY_MAX.hourly} hours, or whole days up to a year)`
    : `turns of ${seconds} seconds, not a whole number of hours as Baton's turns are`;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function layerOf(
  l: ScheduleLayer,
  index: number,
  pd: Schedule,
  window: { from: Date; to: Date },
  notes: SourceNote[],
): SourceLayer | null {
  const zone = pd.time_zone;
  const name = l.name?.trim() || `Layer ${index + 1}`;
  const subject = `Schedule “${pd.name}” layer “${name}”`;
  const fail = (why: string): never => {
    throw new Inexpressible(`Its layer “${name}” has ${why}`);
  };
  const end = l.end ? new Date(l.end) : null;
  if (end && end <= window.from) {
    notes.push({
      level: 'info',
      subject,
      message: 'It ended before the import window: not imported',
    });
    return null;
  }
  if (end && end < window.to) {
    throw new Inexpressible(
      `Its layer “${name}” ends on ${end.toISOString()}, inside the import window, and a Baton layer does not end`,
    );
  }
  if (end) {
    notes.push({
      level: 'warning',
      subject,
      message: `It ends on ${end.toISOString()} in PagerDuty; the Baton layer goes on: remove it by then`,
    });
  }
  const members = l.users.map((u) => u.user.id);
  if (members.length === 0) {
    notes.push({ level: 'info', subject, message: 'It has no users: not imported' });
    return null;
  }

  const shift = cadenceOf(l.rotation_turn_length_seconds);
  if (typeof shift === 'string') return fail(shift);
  const step = MINUTES_PER[shift.cadence] * shift.every;
  const virtualStart = new Date(l.rotation_virtual_start);
  if (virtualStart.getTime() % 60_000 !== 0) {
    fail(`its turns handing over at ${l.rotation_virtual_start}, not on a whole minute`);
  }
  const activeWindows = windowsOf(l.restrictions ?? [], fail);

  // Turns follow the schedule's wall clock from the virtual start: turn k begins at its wall
  // minute + k × step (decision 270: PagerDuty keeps a schedule's local times across DST).
  const origin = wallMinuteOf(wallTimeOf(virtualStart, zone));
  const boundary = (k: number) => instantOfWallMinute(origin + k * step, zone);
  const turnAt = (at: Date) => {
    let k = Math.floor((wallMinuteOf(wallTimeOf(at, zone)) - origin) / step);
    while (boundary(k + 1).getTime() <= at.getTime()) k++;
    while (boundary(k).getTime() > at.getTime()) k--;
    return k;
  };
  // Baton's layer starts at the layer's start if it is inside the window; otherwise at the turn
  // that holds the window's start (the layer's earlier past does not matter to Baton).
  const layerStart = new Date(l.start);
  const startsInWindow = layerStart > window.from;
  const startTurn = turnAt(startsInWindow ? layerStart : window.from);
  const startsAt = startsInWindow ? layerStart : boundary(startTurn);

  // Baton counts turns from the handoff time on the start's local date (weekly: on the handoff
  // weekday of its week): that must be one of PagerDuty's boundaries.
  const start = wallTimeOf(startsAt, zone);
  let day = wallMinuteOf({ ...start, hour: 0, minute: 0 });
  const virtual = wallTimeOf(virtualStart, zone);
  let handoff = virtual.hour * 60 + virtual.minute;
  const handoffWeekday = shift.cadence === 'weekly' ? virtual.weekday : 0;
  if (shift.cadence === 'weekly') day -= ((start.weekday - handoffWeekday + 7) % 7) * 1440;
  if (shift.cadence === 'hourly') {
    // the first boundary on that date; an hourly turn has boundaries at several times of day
    handoff = (((origin - day) % step) + step) % step;
    if (handoff >= 1440)
      fail(
        `${shift.every}-hour turns with no handover on ${startsAt.toISOString().slice(0, 10)}, the day Baton counts them from`,
      );
  }
  if ((((day + handoff - origin) % step) + step) % step !== 0) {
    fail(
      `${shift.every}-${shift.cadence === 'weekly' ? 'week' : 'day'} turns that begin on ${layerStart.toISOString()} off their own turn grid, which Baton cannot count from`,
    );
  }
  const first = ((startTurn % members.length) + members.length) % members.length;
  return {
    name: name.slice(0, 100),
    memberSourceIds: [...members.slice(first), ...members.slice(0, first)],
    cadence: shift.cadence,
    cadenceEvery: shift.every,
    handoffTime: hhmm(handoff),
    handoffWeekday,
    activeWindows,
    startsAt,
  };
}

/**
 * windowsOf turns a layer's restrictions into Baton's on-duty windows: a daily restriction is a
 * window every day, a weekly one a window on its day (ISO 1 = Monday … 7 = Sunday; Baton's 0 is
 * Sunday), one longer than a day split into a window a day; windows with the same hours are one.
 */
function windowsOf(
  restrictions: readonly Restriction[],
  fail: (why: string) => never,
): OnDutyWindow[] {
  const pieces: { day: number; start: number; end: number }[] = [];
  let always = false;
  for (const r of restrictions) {
    const [h = 0, m = 0, s = 0] = r.start_time_of_day.split(':').map(Number);
    if (s !== 0 || r.duration_seconds % 60 !== 0 || r.duration_seconds <= 0) {
      fail(
        `a restriction from ${r.start_time_of_day} for ${r.duration_seconds} seconds, not whole minutes`,
      );
    }
    const start = h * 60 + m;
    const minutes = r.duration_seconds / 60;
    if (r.type === 'daily_restriction') {
      if (minutes >= 1440) always = true;
      else for (const day of ALL_DAYS) pieces.push({ day, start, end: (start + minutes) % 1440 });
      continue;
    }
    if (minutes >= 7 * 1440) {
      always = true;
      continue;
    }
    let day = (r.start_day_of_week ?? 1) % 7;
    for (let left = minutes; left > 0; left -= 1440, day = (day + 1) % 7) {
      pieces.push({ day, start, end: (start + Math.min(left, 1440)) % 1440 });
    }
  }
  if (always) return [];
  const byHours = new Map<string, Set<number>>();
  for (const p of pieces) {
    const key = `${hhmm(p.start)}-${hhmm(p.end)}`;
    byHours.set(key, (byHours.get(key) ?? new Set()).add(p.day));
  }
  const windows = [...byHours].map(([key, days]) => {
    const [start = '', end = ''] = key.split('-');
    return { days: [...days].sort((a, b) => a - b), start, end };
  });
  if (windows.length > LAYER_WINDOWS_MAX) {
    fail(
      `restrictions that need ${windows.length} on-duty windows, and a Baton layer has at most ${LAYER_WINDOWS_MAX}`,
    );
  }
  return windows;
}

// ---------------------------------------------------------------------------------------------
// Escalation policies and integrations

/**
 * policyOf maps a PagerDuty escalation policy: each rule is a step whose delay is the rule's
 * escalation delay (in both, the minutes before moving on from this step to the next), each
 * user or schedule target a target, num_loops the repeat.
 */
function policyOf(p: Policy, notes: SourceNote[]): SourceEscalationPolicy {
  const subject = `Escalation policy “${p.name}”`;
  const loops = p.num_loops ?? 0;
  if (loops > REPEAT_MAX) {
    notes.push({
      level: 'warning',
      subject,
      message: `It repeats ${loops} times in PagerDuty; Baton repeats at most ${REPEAT_MAX} times`,
    });
  }
  const steps: SourceEscalationStep[] = [];
  p.escalation_rules.forEach((rule, i) => {
    const at = `rule ${i + 1}`;
    const targets: SourceTarget[] = [];
    for (const t of rule.targets) {
      const type = (t.type ?? '').replace(/_reference$/, '');
      if (type === 'user') targets.push({ kind: 'person', sourceId: t.id });
      else if (type === 'schedule') targets.push({ kind: 'schedule', sourceId: t.id });
      else {
        notes.push({
          level: 'warning',
          subject,
          message: `Its ${at} targets a ${type.replaceAll('_', ' ') || 'target'} (${t.summary ?? t.id}), which Baton cannot import: left out`,
        });
      }
    }
    const strategy = rule.escalation_rule_assignment_strategy;
    const strategyName = typeof strategy === 'string' ? strategy : strategy?.type;
    if (strategyName === 'round_robin') {
      notes.push({
        level: 'warning',
        subject,
        message: `Its ${at} assigns round robin; the import's step notifies everyone at once: set round robin on it in Baton`,
      });
    }
    const raw = rule.escalation_delay_in_minutes;
    const delay = Math.min(Math.max(Math.round(raw), 1), DELAY_MINUTES_MAX);
    if (delay !== raw) {
      notes.push({
        level: 'warning',
        subject,
        message: `Its ${at} waits ${raw} minutes; Baton's step waits ${delay} (from 1 to ${DELAY_MINUTES_MAX} whole minutes)`,
      });
    }
    if (targets.length === 0) {
      notes.push({
        level: 'warning',
        subject,
        message: `Its ${at} has no target Baton can import: left out`,
      });
      return;
    }
    steps.push({ delayMinutes: delay, targets });
  });
  if (steps.length > STEPS_MAX) {
    notes.push({
      level: 'warning',
      subject,
      message: `It has ${steps.length} rules and Baton keeps the first ${STEPS_MAX}`,
    });
  }
  return {
    sourceId: p.id,
    name: p.name,
    description: p.description ?? null,
    repeat: Math.min(Math.max(loops, 0), REPEAT_MAX),
    steps: steps.slice(0, STEPS_MAX),
  };
}

/** Which Baton endpoint an integration's monitoring should send to instead. */
function integrationSourceOf(type: string): { source: IntegrationSource; note?: string } {
  const kind = type.replace(/_reference$/, '');
  if (kind === 'events_api_v2_inbound_integration') return { source: 'pagerduty' };
  if (kind === 'generic_email_inbound_integration') return { source: 'email' };
  if (kind === 'generic_events_api_inbound_integration') {
    return {
      source: 'generic',
      note: "It uses PagerDuty's Events API v1, which Baton does not speak: it becomes a generic integration; move the sender to Events API v2 or to Baton's generic endpoint",
    };
  }
  return {
    source: 'generic',
    note: `Its type (${kind.replaceAll('_', ' ')}) has no Baton endpoint of its own: it becomes a generic integration; point the sender at Baton's generic endpoint`,
  };
}
