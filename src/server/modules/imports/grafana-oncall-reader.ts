import { z } from 'zod';
import type { IntegrationSource } from '../../../shared/contracts/integrations';
import { LAYERS_MAX, LAYER_WINDOWS_MAX as WINDOWS_MAX } from '../../../shared/contracts/rotations';
import { isTimeZone } from '../../../shared/domain/time-zones';
import {
  type GrafanaShift,
  grafanaInstant,
  type ShiftMapping,
  shiftLayer,
  turnOrder,
} from './grafana-oncall-shifts';
import {
  ImportSourceError,
  type SourceEscalationPolicy,
  type SourceEscalationStep,
  type SourceIntegration,
  type SourceLayer,
  type SourceNote,
  type SourcePerson,
  type SourceReader,
  type SourceSchedule,
  type SourceShift,
  type SourceTarget,
} from './source-snapshot';

/**
 * The Grafana OnCall reader (issue 34, decision 272): one OnCall instance's users, schedules with
 * their on-call shifts, escalation chains and integrations, read through its public API v1
 * (`Authorization: <token>`, lists paged by `next`), as a SourceSnapshot; each schedule's own
 * rendering is its `final_shifts` over the window. Decision 272 says how each construct maps.
 */

const LABEL = 'Grafana OnCall';
/** Grafana OnCall repeats a chain at most this many times (its "Repeat escalation (5 times max)"). */
const GRAFANA_REPEATS = 5;
const PAGES_MAX = 1000;

const nullableString = z.string().nullish();

const PageSchema = z.object({
  next: z.string().nullish(),
  results: z.array(z.unknown()),
});

const UserSchema = z.object({
  id: z.string(),
  email: nullableString,
  username: nullableString,
  name: nullableString,
  role: nullableString,
  timezone: nullableString,
});

const ScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  time_zone: nullableString,
  ical_url_primary: nullableString,
  ical_url_overrides: nullableString,
  shifts: z.array(z.string()).nullish(),
});

/** A date-time as the API answers it (UTC, 'YYYY-MM-DDTHH:MM:SS'). */
const apiDateTime = z.string().refine((t) => !Number.isNaN(grafanaInstant(t).getTime()));

const ShiftSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  schedule: nullableString,
  time_zone: nullableString,
  level: z.number().int().nullish(),
  start: apiDateTime,
  duration: z.number().min(0),
  rotation_start: apiDateTime.nullish(),
  frequency: nullableString,
  interval: z.number().int().nullish(),
  until: apiDateTime.nullish(),
  week_start: nullableString,
  by_day: z.array(z.string()).nullish(),
  by_month: z.array(z.number()).nullish(),
  by_monthday: z.array(z.number()).nullish(),
  users: z.array(z.string()).nullish(),
  rolling_users: z.array(z.array(z.string())).nullish(),
  start_rotation_from_user_index: z.number().int().nullish(),
});

const ChainSchema = z.object({ id: z.string(), name: z.string() });

const StepSchema = z.object({
  id: z.string(),
  escalation_chain_id: z.string(),
  position: z.number().int(),
  type: z.string(),
  duration: z.number().nullish(),
  persons_to_notify: z.array(z.string()).nullish(),
  persons_to_notify_next_each_time: z.array(z.string()).nullish(),
  notify_on_call_from_schedule: nullableString,
});

const IntegrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  default_route: z.object({ id: z.string(), escalation_chain_id: nullableString }).nullish(),
});

const RouteSchema = z.object({
  id: z.string(),
  integration_id: z.string(),
  escalation_chain_id: nullableString,
  routing_regex: nullableString,
  is_the_last_route: z.boolean().nullish(),
});

const FinalShiftSchema = z.object({
  user_pk: z.string(),
  shift_start: z.string(),
  shift_end: z.string(),
});

/** apiAccount reads the address a person gave: the instance's address, with or without /api/v1. */
export function apiAccount(apiUrl: string | undefined): string {
  const given = apiUrl?.trim();
  if (!given) {
    throw new ImportSourceError(
      "Give Grafana OnCall's API address, e.g. https://oncall.example.com",
      'input',
    );
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ImportSourceError(
      `Grafana OnCall's API address is not a valid URL: give one like https://oncall.example.com`,
      'input',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ImportSourceError("Grafana OnCall's API address must start with https://", 'input');
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return `${url.origin}${path}`;
}

const dateOf = (at: Date) => at.toISOString().slice(0, 10);

export const readGrafanaOnCall: SourceReader = async (input) => {
  const account = apiAccount(input.apiUrl);
  const token = input.apiKey?.trim();
  if (!token) {
    throw new ImportSourceError(
      'Give a Grafana OnCall API token (OnCall → Settings → API tokens)',
      'input',
    );
  }
  const headers = { authorization: token };
  const origin = new URL(account).origin;
  const { from, to } = input.window;

  /** list GETs every page of a list, following `next` within the instance only. */
  async function list<T>(path: string, schema: z.ZodType<T>): Promise<T[]> {
    const out: T[] = [];
    let url: string | null = `${account}/api/v1/${path}`;
    for (let page = 0; url; page++) {
      if (page >= PAGES_MAX) {
        throw new ImportSourceError(`${LABEL} answered more than ${PAGES_MAX} pages for ${path}`);
      }
      const { body } = await input.get(url, headers);
      const parsed = PageSchema.safeParse(body);
      if (!parsed.success) throw malformed(path, 'it is not a page of results');
      for (const item of parsed.data.results) {
        const one = schema.safeParse(item);
        if (!one.success) {
          const issue = one.error.issues[0];
          const field = issue ? issue.path.join('.') : '';
          throw malformed(path, `result ${out.length + 1}${field ? ` has no valid ${field}` : ''}`);
        }
        out.push(one.data);
      }
      const next: string | null = parsed.data.next ?? null;
      if (next) {
        let nextUrl: URL;
        try {
          nextUrl = new URL(next, url);
        } catch {
          throw malformed(path, 'its next page is not an address');
        }
        if (nextUrl.origin !== origin) {
          throw new ImportSourceError(
            `${LABEL} pointed the next page of ${path} at another address (${nextUrl.host}); Baton sends the token only to ${new URL(account).host}`,
          );
        }
        url = nextUrl.toString();
      } else url = null;
    }
    return out;
  }

  const users = await list('users/', UserSchema);
  const schedules = await list('schedules/', ScheduleSchema);
  const shifts = await list('on_call_shifts/', ShiftSchema);
  const chains = await list('escalation_chains/', ChainSchema);
  const steps = await list('escalation_policies/', StepSchema);
  const integrations = await list('integrations/', IntegrationSchema);
  const routes = await list('routes/', RouteSchema);

  const notes: SourceNote[] = [];
  const userIds = new Set(users.map((u) => u.id));
  const people = users.map((u) => person(u, notes));

  const sourceSchedules: SourceSchedule[] = [];
  for (const schedule of schedules) {
    const rendered: SourceShift[] = [];
    const query = `start_date=${dateOf(from)}&end_date=${dateOf(new Date(to.getTime() - 1))}`;
    const finalPath = `schedules/${encodeURIComponent(schedule.id)}/final_shifts?${query}`;
    for (const s of await list(finalPath, FinalShiftSchema)) {
      const start = instantOf(s.shift_start, finalPath);
      const end = instantOf(s.shift_end, finalPath);
      if (end <= from || start >= to || end <= start) continue;
      rendered.push(clipped(s.user_pk, start, end, { from, to }));
    }
    rendered.sort((a, b) => a.start.getTime() - b.start.getTime());
    const own = shifts.filter(
      (s) => s.schedule === schedule.id || (schedule.shifts ?? []).includes(s.id),
    );
    sourceSchedules.push(
      mapSchedule(schedule, own as GrafanaShift[], rendered, { from, to }, userIds, notes),
    );
  }

  const chainIds = new Set(chains.map((c) => c.id));
  const scheduleIds = new Set(schedules.map((s) => s.id));
  const policies = chains.map((chain) =>
    mapChain(
      chain,
      steps.filter((s) => s.escalation_chain_id === chain.id),
      { userIds, scheduleIds },
      notes,
    ),
  );

  const sourceIntegrations = integrations.map((integration) =>
    mapIntegration(
      integration,
      routes.filter((r) => r.integration_id === integration.id),
      chainIds,
      notes,
    ),
  );

  return {
    source: 'grafana-oncall',
    account,
    window: { from, to },
    people,
    schedules: sourceSchedules,
    policies,
    integrations: sourceIntegrations,
    notes,
  };
};

function malformed(path: string, what: string): ImportSourceError {
  const where = path.split('?')[0];
  return new ImportSourceError(
    `${LABEL} answered /api/v1/${where} with data Baton cannot read: ${what}`,
  );
}

/** clipped: a stretch of one person's, cut to the window. */
function clipped(
  personSourceId: string,
  start: Date,
  end: Date,
  window: { from: Date; to: Date },
): SourceShift {
  return {
    personSourceId,
    start: new Date(Math.max(start.getTime(), window.from.getTime())),
    end: new Date(Math.min(end.getTime(), window.to.getTime())),
  };
}

function instantOf(text: string, path: string): Date {
  const at = grafanaInstant(text);
  if (Number.isNaN(at.getTime())) throw malformed(path, `${text} is not a date`);
  return at;
}

function person(u: z.infer<typeof UserSchema>, notes: SourceNote[]): SourcePerson {
  const name = u.name?.trim() || u.username?.trim() || u.email || u.id;
  const email = u.email?.trim() || null;
  if (!email) {
    notes.push({
      level: 'warning',
      subject: `User ${name}`,
      message: 'has no email, so Baton can neither match nor invite them',
    });
  }
  const timeZone = u.timezone && isTimeZone(u.timezone) ? u.timezone : null;
  return {
    sourceId: u.id,
    name,
    email,
    timeZone,
    // OnCall's admin manages the whole instance; its editors and viewers (user, observer) page
    // and are paged, which a Baton member does.
    role: u.role === 'admin' ? 'admin' : 'member',
  };
}

/** mapSchedule: a schedule's shifts as layers (lowest level first) and overrides, or scheduled. */
export function mapSchedule(
  schedule: z.infer<typeof ScheduleSchema>,
  own: GrafanaShift[],
  rendered: SourceShift[],
  window: { from: Date; to: Date },
  userIds: ReadonlySet<string>,
  notes: SourceNote[],
): SourceSchedule {
  const subject = `Schedule “${schedule.name}”`;
  const zone = schedule.time_zone && isTimeZone(schedule.time_zone) ? schedule.time_zone : 'UTC';
  const refusals: string[] = [];
  if (schedule.time_zone && zone !== schedule.time_zone) {
    refusals.push(`its time zone ${schedule.time_zone} is not one Baton knows`);
  }
  if (schedule.type === 'ical') {
    refusals.push('its shifts come from an iCal calendar, not from on-call shifts');
  }
  if (schedule.ical_url_overrides) {
    refusals.push('its overrides come from an iCal calendar');
  }

  const overrides: SourceShift[] = [];
  const recurring: { shift: GrafanaShift; order: number }[] = [];
  for (const [order, shift] of own.entries()) {
    const start = grafanaInstant(shift.start);
    const until = shift.until ? grafanaInstant(shift.until) : null;
    const end = new Date(start.getTime() + shift.duration * 1000);
    const groups = turnOrder(shift);
    for (const id of groups.flat()) {
      if (!userIds.has(id))
        refusals.push(`shift “${shift.name}” names user ${id}, who is not listed`);
    }
    if (shift.type === 'override') {
      if (shift.frequency) {
        refusals.push(`override “${shift.name}” repeats`);
        continue;
      }
      if (end <= window.from || start >= window.to) continue;
      const first = groups[0] ?? [];
      if (first.length !== 1) {
        refusals.push(`override “${shift.name}” puts ${first.length} people on call at once`);
        continue;
      }
      overrides.push(clipped(first[0] as string, start, end, window));
      continue;
    }
    if (until && until <= window.from) {
      notes.push({
        level: 'info',
        subject: `${subject} shift “${shift.name}”`,
        message: `ended on ${shift.until} (UTC), before the import's window, so it is not imported`,
      });
      continue;
    }
    if (shift.type === 'single_event') {
      if (end <= window.from) continue;
      refusals.push(`shift “${shift.name}” is a single event, and Baton's layers repeat`);
      continue;
    }
    if (shift.type !== 'rolling_users' && shift.type !== 'recurrent_event') {
      refusals.push(`shift “${shift.name}” is of type ${shift.type}`);
      continue;
    }
    recurring.push({ shift, order });
  }

  // Grafana: a higher level wins where shifts overlap. Baton: a later layer wins where it has
  // somebody on duty. So the layers go lowest level first.
  recurring.sort((a, b) => (a.shift.level ?? 0) - (b.shift.level ?? 0) || a.order - b.order);
  const layers: SourceLayer[] = [];
  for (const { shift } of recurring) {
    const mapping: ShiftMapping = shiftLayer(shift, zone, window);
    if ('refusal' in mapping) refusals.push(`shift “${shift.name}”: ${mapping.refusal}`);
    else if (mapping.layer.activeWindows.length > WINDOWS_MAX) {
      refusals.push(`shift “${shift.name}” needs more than ${WINDOWS_MAX} on-duty windows`);
    } else layers.push(mapping.layer);
  }
  if (refusals.length === 0 && layers.length === 0) {
    refusals.push('it has no recurring shifts to make layers of');
  }
  if (layers.length > LAYERS_MAX) {
    refusals.push(
      `it has ${layers.length} rotations; a Baton rotation has at most ${LAYERS_MAX} layers`,
    );
  }

  if (refusals.length > 0) {
    notes.push({
      level: 'warning',
      subject,
      message: `becomes a scheduled rotation of Grafana OnCall's final shifts for the coming 90 days (${rendered.length} shifts), because ${refusals.join('; ')}. Its shifts after the window are not imported.`,
    });
  }
  return {
    sourceId: schedule.id,
    name: schedule.name,
    timeZone: zone,
    layers: refusals.length > 0 ? null : layers,
    overrides: overrides.sort((a, b) => a.start.getTime() - b.start.getTime()),
    rendered,
  };
}

/** mapChain: an escalation chain's steps as Baton policy steps (a wait delays the next step). */
export function mapChain(
  chain: z.infer<typeof ChainSchema>,
  chainSteps: z.infer<typeof StepSchema>[],
  known: { userIds: ReadonlySet<string>; scheduleIds: ReadonlySet<string> },
  notes: SourceNote[],
): SourceEscalationPolicy {
  const subject = `Escalation chain “${chain.name}”`;
  const ordered = [...chainSteps].sort((a, b) => a.position - b.position);
  const steps: SourceEscalationStep[] = [];
  let waitSeconds = 0;
  let repeat = 0;
  let loopDelayMinutes: number | null = null;
  let lastNotifyAt = -1;
  for (const [index, step] of ordered.entries()) {
    const where = `step ${index + 1} (${step.type})`;
    if (repeat > 0) {
      notes.push({
        level: 'warning',
        subject,
        message: `${where} comes after “repeat escalation”; Grafana runs it once the repeats are done, which a Baton policy cannot, so it is not imported`,
      });
      continue;
    }
    switch (step.type) {
      case 'wait':
        waitSeconds += step.duration ?? 0;
        break;
      case 'notify_persons':
      case 'notify_person_next_each_time':
      case 'notify_on_call_from_schedule': {
        const targets = targetsOf(step, known, subject, where, notes);
        if (step.type === 'notify_person_next_each_time') {
          notes.push({
            level: 'warning',
            subject,
            message: `${where} notifies one of its people in turn each time; Baton's step notifies them all`,
          });
        }
        if (targets.length === 0) break;
        const minutes = Math.round(waitSeconds / 60);
        if (minutes * 60 !== waitSeconds) {
          notes.push({
            level: 'warning',
            subject,
            message: `${where} waits ${waitSeconds} s, rounded to ${minutes} minutes`,
          });
        }
        const last = steps.at(-1);
        if (last && waitSeconds === 0 && lastNotifyAt === index - 1) {
          // no wait between two notifications: Grafana runs them at once, one Baton step
          last.targets.push(...targets.filter((t) => !last.targets.some((x) => same(x, t))));
        } else steps.push({ delayMinutes: minutes, targets });
        waitSeconds = 0;
        lastNotifyAt = index;
        break;
      }
      case 'repeat_escalation':
        repeat = GRAFANA_REPEATS;
        // The wait before the repeat is the last step's delay in Baton.
        if (waitSeconds > 0) loopDelayMinutes = Math.max(1, Math.round(waitSeconds / 60));
        waitSeconds = 0;
        break;
      default:
        notes.push({
          level: 'warning',
          subject,
          message: `${where} ${STEP_WORDS[step.type] ?? 'is a step Baton does not have'}, so it is not imported`,
        });
    }
  }
  if (steps.length === 0) {
    notes.push({
      level: 'warning',
      subject,
      message: 'notifies nobody Baton can name (no person or schedule); add a step before using it',
    });
  }
  return { sourceId: chain.id, name: chain.name, repeat, steps, loopDelayMinutes };
}

const STEP_WORDS: Record<string, string> = {
  notify_user_group: 'notifies a Slack user group',
  notify_team_members: 'notifies a team',
  notify_whole_channel: 'notifies a whole Slack channel',
  trigger_webhook: 'triggers an outgoing webhook',
  resolve: 'resolves the alert group',
  notify_if_time_from_to: 'continues only within chosen hours',
  notify_if_num_alerts_in_window: 'continues only after a number of alerts',
  declare_incident: 'declares an incident',
};

const same = (a: SourceTarget, b: SourceTarget) => a.kind === b.kind && a.sourceId === b.sourceId;

function targetsOf(
  step: z.infer<typeof StepSchema>,
  known: { userIds: ReadonlySet<string>; scheduleIds: ReadonlySet<string> },
  subject: string,
  where: string,
  notes: SourceNote[],
): SourceTarget[] {
  const out: SourceTarget[] = [];
  if (step.type === 'notify_on_call_from_schedule') {
    const id = step.notify_on_call_from_schedule;
    if (id && known.scheduleIds.has(id)) out.push({ kind: 'schedule', sourceId: id });
    else notes.push({ level: 'warning', subject, message: `${where} names no listed schedule` });
    return out;
  }
  const ids =
    (step.type === 'notify_persons'
      ? step.persons_to_notify
      : step.persons_to_notify_next_each_time) ?? [];
  for (const id of ids) {
    if (known.userIds.has(id)) out.push({ kind: 'person', sourceId: id });
    else
      notes.push({
        level: 'warning',
        subject,
        message: `${where} names user ${id}, who is not listed`,
      });
  }
  return out;
}

const INTEGRATION_TYPES: Record<string, IntegrationSource> = {
  alertmanager: 'alertmanager',
  legacy_alertmanager: 'alertmanager',
  grafana: 'grafana',
  grafana_alerting: 'grafana',
  legacy_grafana_alerting: 'grafana',
  webhook: 'generic',
  formatted_webhook: 'generic',
  email: 'email',
  inbound_email: 'email',
};

/** mapIntegration: an integration as a Baton integration, escalating by its default route's chain. */
export function mapIntegration(
  integration: z.infer<typeof IntegrationSchema>,
  own: z.infer<typeof RouteSchema>[],
  chainIds: ReadonlySet<string>,
  notes: SourceNote[],
): SourceIntegration {
  const subject = `Integration “${integration.name}”`;
  const source = INTEGRATION_TYPES[integration.type];
  if (!source) {
    notes.push({
      level: 'warning',
      subject,
      message: `is of type ${integration.type}, which Baton has no format for; it becomes a generic JSON integration`,
    });
  }
  const defaultRoute = integration.default_route;
  const chainId = defaultRoute?.escalation_chain_id ?? null;
  const policySourceId = chainId && chainIds.has(chainId) ? chainId : null;
  if (!policySourceId) {
    notes.push({
      level: 'warning',
      subject,
      message: 'its default route has no escalation chain; choose a policy for it in Baton',
    });
  }
  for (const route of own) {
    if (route.id === defaultRoute?.id || route.is_the_last_route) continue;
    notes.push({
      level: 'warning',
      subject,
      message: `its route matching “${route.routing_regex ?? ''}” is not imported: every alert escalates by the default route's chain`,
    });
  }
  return {
    sourceId: integration.id,
    name: integration.name,
    source: source ?? 'generic',
    policySourceId,
    scheduleSourceId: null,
  };
}
