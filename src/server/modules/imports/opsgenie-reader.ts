import { z } from 'zod';
import { DELAY_MINUTES_MAX, REPEAT_MAX } from '../../../shared/contracts/escalation-policies';
import type { IntegrationSource } from '../../../shared/contracts/integrations';
import {
  CADENCE_EVERY_MAX,
  LAYER_MEMBERS_MAX,
  LAYER_WINDOWS_MAX,
  LAYERS_MAX,
} from '../../../shared/contracts/rotations';
import type { Cadence } from '../../../shared/domain/layers';
import { wallTimeOf } from '../../../shared/domain/shifts';
import { isTimeZone } from '../../../shared/domain/time-zones';
import { hhmm, OPSGENIE_WEEKDAYS, windowsOfRestriction } from './opsgenie-windows';
import { merge, overlay } from './snapshot-rendering';
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
 * The Opsgenie reader (issue 34, decision 271): one account's users, schedules with their
 * rotations, overrides and final timeline, escalations and integrations, read through Opsgenie's
 * REST API v2 (`Authorization: GenieKey …`) and mapped onto Baton's layers, on-duty windows, cover,
 * policy steps and integration sources. What Baton cannot keep as Opsgenie has it is a note.
 */

export const OPSGENIE_API_URL = 'https://api.opsgenie.com';
const LABEL = 'Opsgenie';
/** Opsgenie's largest page of users. */
const USERS_PAGE = 100;
/** A bound on pages, far above any account: a source that pages forever is an error. */
const PAGES_MAX = 1000;
const MINUTE = 60_000;

// ------------------------------------------------------------------------------------------
// What Opsgenie answers (its published document), read leniently: unknown fields are ignored

const wrapped = <T extends z.ZodType>(data: T) => z.object({ data });

const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  fullName: z.string().nullish(),
  role: z.object({ name: z.string() }).nullish(),
  timeZone: z.string().nullish(),
});
const UsersPageSchema = z.object({
  data: z.array(UserSchema),
  paging: z.object({ next: z.string().nullish() }).nullish(),
});

const RecipientSchema = z.object({
  type: z.string(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  username: z.string().nullish(),
});
const TimeOfDaySchema = z.object({
  startHour: z.number().int().min(0).max(24),
  startMin: z.number().int().min(0).max(59),
  endHour: z.number().int().min(0).max(24),
  endMin: z.number().int().min(0).max(59),
});
const RestrictionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('time-of-day'), restriction: TimeOfDaySchema }),
  z.object({
    type: z.literal('weekday-and-time-of-day'),
    restrictions: z.array(
      TimeOfDaySchema.extend({
        startDay: z.enum(OPSGENIE_WEEKDAYS),
        endDay: z.enum(OPSGENIE_WEEKDAYS),
      }),
    ),
  }),
]);
const RotationSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  startDate: z.iso.datetime({ offset: true }),
  endDate: z.iso.datetime({ offset: true }).nullish(),
  type: z.enum(['hourly', 'daily', 'weekly']),
  length: z.number().int().min(1).nullish(),
  participants: z.array(RecipientSchema),
  timeRestriction: RestrictionSchema.nullish(),
});
const ScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  timezone: z.string(),
  enabled: z.boolean().nullish(),
  rotations: z.array(RotationSchema).nullish(),
});
const OverrideSchema = z.object({
  alias: z.string().nullish(),
  user: RecipientSchema,
  startDate: z.iso.datetime({ offset: true }),
  endDate: z.iso.datetime({ offset: true }),
  rotations: z.array(z.object({ id: z.string().nullish(), name: z.string().nullish() })).nullish(),
});
const PeriodSchema = z.object({
  startDate: z.iso.datetime({ offset: true }),
  endDate: z.iso.datetime({ offset: true }),
  type: z.string().nullish(),
  recipient: RecipientSchema.nullish(),
});
const TimelineSchema = z.object({
  finalTimeline: z.object({
    rotations: z
      .array(
        z.object({
          id: z.string().nullish(),
          name: z.string().nullish(),
          order: z.number().nullish(),
          periods: z.array(PeriodSchema).nullish(),
        }),
      )
      .nullish(),
  }),
});
const DurationSchema = z.object({
  timeAmount: z.number().min(0),
  timeUnit: z.string().nullish(),
});
const EscalationSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  rules: z.array(
    z.object({
      condition: z.string().nullish(),
      notifyType: z.string().nullish(),
      delay: DurationSchema,
      recipient: RecipientSchema,
    }),
  ),
  repeat: z
    .object({ waitInterval: z.number().nullish(), count: z.number().int().nullish() })
    .nullish(),
});
const IntegrationMetaSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  enabled: z.boolean().nullish(),
});
const IntegrationSchema = z.object({
  ownerTeam: z.object({ id: z.string().nullish(), name: z.string().nullish() }).nullish(),
  recipients: z.array(RecipientSchema).nullish(),
});
const RoutingRuleSchema = z.object({
  name: z.string().nullish(),
  isDefault: z.boolean().nullish(),
  order: z.number().nullish(),
  notify: RecipientSchema.nullish(),
});

type Rotation = z.infer<typeof RotationSchema>;
type Schedule = z.infer<typeof ScheduleSchema>;

// ------------------------------------------------------------------------------------------

/** The integration types with a Baton endpoint of their own; the rest post as generic. */
const INTEGRATION_SOURCE: Record<string, IntegrationSource> = {
  API: 'opsgenie',
  Prometheus: 'alertmanager',
  Grafana: 'grafana',
  GrafanaV2: 'grafana',
  Email: 'email',
  PagerDutyCompatibility: 'pagerduty',
};

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

const day = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(d);

export const readOpsgenie: SourceReader = async (input) => {
  if (!input.apiKey) {
    throw new ImportSourceError('Give the Opsgenie API key to read this account with', 'input');
  }
  let base: URL;
  try {
    base = new URL(input.apiUrl ?? OPSGENIE_API_URL);
  } catch {
    throw new ImportSourceError(`${LABEL}'s API address is not a valid URL`, 'input');
  }
  const root = base.href.replace(/\/+$/, '');
  const headers = { authorization: `GenieKey ${input.apiKey}` };
  const { from, to } = input.window;
  const notes: SourceNote[] = [];
  const note = (level: SourceNote['level'], subject: string, message: string) =>
    notes.push({ level, subject, message });

  /** GET a URL of the account (never another origin: the key goes with it) and read its answer. */
  async function read<T>(url: string, schema: z.ZodType<T>): Promise<T> {
    const target = new URL(url, `${root}/`);
    if (target.origin !== base.origin) {
      throw new ImportSourceError(
        `${LABEL} pointed the next page at another address (${target.host}): not followed`,
      );
    }
    let answer: { body: unknown };
    try {
      answer = await input.get(target.href, headers);
    } catch (err) {
      if (err instanceof ImportSourceError && / answered 429 /.test(err.message)) {
        throw new ImportSourceError(
          `${LABEL} limited the rate of requests (429) at ${target.pathname}: wait a minute and import again`,
        );
      }
      throw err;
    }
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` (at ${issue.path.join('.')})` : '';
      throw new ImportSourceError(
        `${LABEL} answered ${target.pathname} with data Baton cannot read${where}: ${issue?.message ?? 'unexpected shape'}`,
      );
    }
    return parsed.data;
  }
  const path = (p: string) => `${root}${p}`;

  // People -------------------------------------------------------------------------------
  const people: SourcePerson[] = [];
  let next: string | null | undefined = path(`/v2/users?limit=${USERS_PAGE}&offset=0`);
  for (let page = 0; next; page++) {
    if (page >= PAGES_MAX) {
      throw new ImportSourceError(`${LABEL} answered more than ${PAGES_MAX} pages of users`);
    }
    const answer: z.infer<typeof UsersPageSchema> = await read(next, UsersPageSchema);
    for (const user of answer.data) {
      const email = EMAIL.test(user.username) ? user.username.toLowerCase() : null;
      const role = user.role?.name;
      people.push({
        sourceId: user.id,
        name: user.fullName?.trim() || user.username,
        email,
        timeZone: user.timeZone ?? null,
        role: role === 'Owner' || role === 'Admin' ? 'admin' : 'member',
      });
      if (!email) {
        note(
          'warning',
          `User ${user.username}`,
          'Its username is not an email address, so it cannot be matched to a Baton person or invited: add them in Baton by hand',
        );
      }
    }
    next = answer.data.length > 0 ? answer.paging?.next : null;
  }
  const personIds = new Set(people.map((p) => p.sourceId));

  // Schedules ----------------------------------------------------------------------------
  const schedules: SourceSchedule[] = [];
  const { data: scheduleList } = await read(
    path('/v2/schedules?expand=rotation'),
    wrapped(z.array(ScheduleSchema)),
  );
  const weeks = Math.ceil((to.getTime() - from.getTime()) / (7 * 86_400_000));
  for (const schedule of scheduleList) {
    const id = encodeURIComponent(schedule.id);
    const { data: overrides } = await read(
      path(`/v2/schedules/${id}/overrides`),
      wrapped(z.array(OverrideSchema)),
    );
    const { data: timeline } = await read(
      path(
        `/v2/schedules/${id}/timeline?identifierType=id&interval=${weeks}&intervalUnit=weeks&date=${encodeURIComponent(from.toISOString())}`,
      ),
      wrapped(TimelineSchema),
    );
    const subject = `Schedule “${schedule.name}”`;
    if (schedule.enabled === false) {
      note('info', subject, 'It is disabled in Opsgenie; it is imported all the same');
    }
    const rotations = (schedule.rotations ?? []).filter((r) => {
      if (r.endDate && Date.parse(r.endDate) <= from.getTime()) {
        note('info', `${subject} rotation “${rotationName(r)}”`, 'It has ended: not imported');
        return false;
      }
      return true;
    });
    const rendered = renderedOf(schedule, rotations, timeline, subject);
    schedules.push({
      sourceId: schedule.id,
      name: schedule.name,
      description: schedule.description || null,
      timeZone: schedule.timezone,
      layers: layersOf(schedule, rotations, subject),
      overrides: overridesOf(overrides, rendered, subject, schedule.timezone),
      rendered,
    });
  }

  /** The final timeline as one person at a time: where rotations overlap the later one wins. */
  function renderedOf(
    schedule: Schedule,
    rotations: Rotation[],
    timeline: z.infer<typeof TimelineSchema>,
    subject: string,
  ): SourceShift[] {
    const rows = timeline.finalTimeline.rotations ?? [];
    const place = (row: (typeof rows)[number], index: number) => {
      const at = rotations.findIndex((r) => r.id === row.id);
      return at >= 0 ? at : rotations.length + (row.order ?? index);
    };
    const ordered = rows
      .map((row, index) => ({ row, place: place(row, index) }))
      .sort((a, b) => a.place - b.place)
      .map((r) => r.row);
    let rendered: SourceShift[] = [];
    const skipped = new Set<string>();
    ordered.forEach((row, index) => {
      const shifts: SourceShift[] = [];
      for (const p of row.periods ?? []) {
        const start = new Date(Math.max(Date.parse(p.startDate), from.getTime()));
        const end = new Date(Math.min(Date.parse(p.endDate), to.getTime()));
        if (end <= start) continue;
        const who = p.recipient;
        if (who?.type !== 'user' || !who.id) {
          skipped.add(who?.name ?? who?.type ?? 'nobody');
          continue;
        }
        shifts.push({ start, end, personSourceId: who.id });
      }
      if (index > 0) {
        const hours = overlapHours(rendered, shifts);
        if (hours > 0) {
          note(
            'warning',
            `${subject} rotation “${row.name ?? row.id}”`,
            `It is on call at the same time as an earlier rotation for ${hours} hours in the next 90 days. Opsgenie notifies everyone on call in every rotation; a Baton rotation has one person on call, and the later rotation (this one) is kept, as Baton's later layers win`,
          );
        }
      }
      rendered = overlay(rendered, shifts);
    });
    if (skipped.size > 0) {
      note(
        'warning',
        subject,
        `Its timeline puts ${[...skipped].join(', ')} on call, which is not a person: those hours have nobody on call in Baton`,
      );
    }
    void schedule;
    return merge(rendered);
  }

  /** The rotations as Baton's layers, or null (scheduled) with a note for each reason. */
  function layersOf(schedule: Schedule, rotations: Rotation[], subject: string) {
    const reasons: string[] = [];
    const layers: SourceLayer[] = [];
    if (!isTimeZone(schedule.timezone)) {
      reasons.push(`its time zone “${schedule.timezone}” is not one Baton knows`);
      return scheduled(reasons, subject);
    }
    if (rotations.length > LAYERS_MAX) {
      reasons.push(
        `it has ${rotations.length} rotations and a Baton rotation at most ${LAYERS_MAX} layers`,
      );
    }
    for (const rotation of rotations) {
      const name = rotationName(rotation);
      const why = (text: string) => reasons.push(`rotation “${name}” ${text}`);
      const cadence = rotation.type;
      const every = rotation.length ?? 1;
      if (every > CADENCE_EVERY_MAX[cadence]) {
        why(
          `turns last ${every} ${unitOf(cadence)}, longer than a Baton layer's ${CADENCE_EVERY_MAX[cadence]}`,
        );
      }
      if (rotation.endDate && Date.parse(rotation.endDate) < to.getTime()) {
        why(
          `ends on ${day(new Date(rotation.endDate), schedule.timezone)}, inside the 90 days, and a Baton layer cannot end`,
        );
      }
      const members: string[] = [];
      for (const p of rotation.participants) {
        if (p.type === 'user' && p.id && personIds.has(p.id)) members.push(p.id);
        else if (p.type === 'none')
          why('has a turn with nobody (“none”), and a Baton layer has no empty turn');
        else if (p.type === 'user')
          why(`has a participant who is not among the account's users (${p.username ?? p.id})`);
        else
          why(
            `has a ${p.type} (${p.name ?? p.id}) taking a turn, and a Baton layer's turns are people`,
          );
      }
      if (members.length > LAYER_MEMBERS_MAX) {
        why(`has ${members.length} turns, more than a layer's ${LAYER_MEMBERS_MAX}`);
      }
      const activeWindows = windowsOfRestriction(rotation.timeRestriction ?? null);
      if (activeWindows.length > LAYER_WINDOWS_MAX) {
        why(
          `is restricted to ${activeWindows.length} stretches of the week, more than a layer's ${LAYER_WINDOWS_MAX} on-duty windows`,
        );
      }
      const startsAt = new Date(rotation.startDate);
      const wall = wallTimeOf(startsAt, schedule.timezone);
      layers.push({
        name,
        memberSourceIds: members,
        cadence,
        cadenceEvery: every,
        handoffTime: hhmm(wall.hour, wall.minute),
        handoffWeekday: wall.weekday,
        activeWindows,
        startsAt,
      });
    }
    if (reasons.length === 0) return layers;
    return scheduled(reasons, subject);
  }

  function scheduled(reasons: string[], subject: string): null {
    for (const reason of [...new Set(reasons)]) {
      note(
        'warning',
        subject,
        `Imported as a scheduled rotation of Opsgenie's own timeline for the next 90 days: ${reason}`,
      );
    }
    return null;
  }

  /**
   * Overrides as cover: each override's hours in the window where the final timeline has its
   * person on call. Opsgenie applies an override to the rotations it names (none named: all of
   * them) and only while they have someone on call; Baton's cover holds its whole span, so it
   * is cut to the hours Opsgenie gives it.
   */
  function overridesOf(
    overrides: z.infer<typeof OverrideSchema>[],
    rendered: SourceShift[],
    subject: string,
    timeZone: string,
  ): SourceShift[] {
    const out: SourceShift[] = [];
    for (const o of overrides) {
      const start = Math.max(Date.parse(o.startDate), from.getTime());
      const end = Math.min(Date.parse(o.endDate), to.getTime());
      if (end <= start) continue;
      const who = o.user.id;
      const label = `${subject} override ${o.alias ?? ''}`.trim();
      if (o.user.type !== 'user' || !who) {
        note('warning', label, 'It names no person: not imported');
        continue;
      }
      let held = 0;
      for (const s of rendered) {
        if (s.personSourceId !== who) continue;
        const a = Math.max(s.start.getTime(), start);
        const b = Math.min(s.end.getTime(), end);
        if (b <= a) continue;
        out.push({ start: new Date(a), end: new Date(b), personSourceId: who });
        held += b - a;
      }
      if (held < end - start) {
        const only = o.rotations?.length
          ? `applies only to ${o.rotations.map((r) => `“${r.name ?? r.id}”`).join(', ')}`
          : 'applies only while a rotation has someone on call';
        note(
          'info',
          label,
          `In Opsgenie it ${only}: its cover from ${day(new Date(start), timeZone)} holds those hours only`,
        );
      }
    }
    return merge(out);
  }

  // Escalations --------------------------------------------------------------------------
  const { data: escalations } = await read(
    path('/v2/escalations'),
    wrapped(z.array(EscalationSchema)),
  );
  const scheduleIds = new Set(scheduleList.map((s) => s.id));
  const policies: SourceEscalationPolicy[] = escalations.map((e) => {
    const subject = `Escalation “${e.name}”`;
    const rules = e.rules
      .map((rule, index) => ({ rule, index, ms: durationMs(rule.delay) }))
      .sort((a, b) => a.ms - b.ms || a.index - b.index);
    const kept: { minutes: number; target: SourceTarget }[] = [];
    for (const { rule, index, ms } of rules) {
      const which = `rule ${index + 1}`;
      const r = rule.recipient;
      let target: SourceTarget | null = null;
      if (r.type === 'schedule' && r.id && scheduleIds.has(r.id)) {
        target = { kind: 'schedule', sourceId: r.id };
        const notify = rule.notifyType ?? 'default';
        if (notify !== 'default') {
          note(
            'warning',
            subject,
            `Its ${which} notifies the ${notify} on call of “${r.name ?? r.id}”; Baton's step notifies who is on call now`,
          );
        }
      } else if (r.type === 'user' && r.id && personIds.has(r.id)) {
        target = { kind: 'person', sourceId: r.id };
      } else {
        note(
          'warning',
          subject,
          `Its ${which} notifies ${r.type === 'team' ? `the team “${r.name ?? r.id}”` : `a ${r.type} Baton cannot import (${r.name ?? r.username ?? r.id ?? 'unknown'})`}: not imported; add the people in Baton`,
        );
        continue;
      }
      if ((rule.condition ?? 'if-not-acked') !== 'if-not-acked') {
        note(
          'warning',
          subject,
          `Its ${which} runs ${rule.condition === 'if-not-closed' ? 'until the alert is closed' : `“${rule.condition}”`}; Baton's steps stop when an incident is acknowledged`,
        );
      }
      const minutes = Math.ceil(ms / MINUTE);
      if (minutes * MINUTE !== ms) {
        note(
          'warning',
          subject,
          `Its ${which} waits ${ms / 1000} seconds; Baton counts whole minutes, so it waits ${minutes}`,
        );
      }
      kept.push({ minutes, target });
    }
    const steps: SourceEscalationStep[] = [];
    let previous = 0;
    for (const k of kept) {
      const last = steps.at(-1);
      if (last && k.minutes === previous) {
        if (
          !last.targets.some((t) => t.kind === k.target.kind && t.sourceId === k.target.sourceId)
        ) {
          last.targets.push(k.target);
        }
        continue;
      }
      const delayMinutes = k.minutes - previous;
      if (delayMinutes > DELAY_MINUTES_MAX) {
        note(
          'warning',
          subject,
          `A step waits ${delayMinutes} minutes; Baton's longest wait is ${DELAY_MINUTES_MAX} minutes (one day)`,
        );
      }
      steps.push({ delayMinutes, targets: [k.target] });
      previous = k.minutes;
    }
    if (steps.length === 0) {
      note('warning', subject, 'None of its rules notifies a schedule or a person Baton imports');
    }
    const count = e.repeat?.count ?? 0;
    let repeat = count;
    if (count > REPEAT_MAX) {
      repeat = REPEAT_MAX;
      note(
        'warning',
        subject,
        `It repeats ${count} times; Baton repeats a policy at most ${REPEAT_MAX} times, so it repeats ${REPEAT_MAX}`,
      );
    }
    const wait = e.repeat?.waitInterval ?? 0;
    if (count > 0 && wait > 0) {
      note(
        'info',
        subject,
        `Opsgenie waits ${wait} minutes after its last rule before repeating; Baton repeats after the last step's wait`,
      );
    }
    return {
      sourceId: e.id,
      name: e.name,
      description: e.description || null,
      repeat,
      steps,
    };
  });
  const policyIds = new Set(policies.map((p) => p.sourceId));

  // Integrations -------------------------------------------------------------------------
  const { data: integrationList } = await read(
    path('/v2/integrations'),
    wrapped(z.array(IntegrationMetaSchema)),
  );
  const routingRules = new Map<string, z.infer<typeof RoutingRuleSchema>[]>();
  const integrations: SourceIntegration[] = [];
  for (const meta of integrationList) {
    const subject = `Integration “${meta.name}”`;
    const { data: detail } = await read(
      path(`/v2/integrations/${encodeURIComponent(meta.id)}`),
      wrapped(IntegrationSchema),
    );
    let source = INTEGRATION_SOURCE[meta.type];
    if (!source) {
      source = 'generic';
      note(
        'warning',
        subject,
        `Baton has no ${meta.type} endpoint: it becomes a generic integration, and ${meta.type} must post Baton's generic JSON (or use Baton's Opsgenie-compatible endpoint)`,
      );
    }
    if (meta.enabled === false) {
      note('info', subject, 'It is disabled in Opsgenie; it is imported all the same');
    }
    let policySourceId: string | null = null;
    let scheduleSourceId: string | null = null;
    const pick = (r: z.infer<typeof RecipientSchema> | null | undefined) => {
      if (!r?.id) return false;
      if (r.type === 'escalation' && policyIds.has(r.id)) policySourceId = r.id;
      else if (r.type === 'schedule' && scheduleIds.has(r.id)) scheduleSourceId = r.id;
      else return false;
      return true;
    };
    const direct = (detail.recipients ?? []).filter((r) => pick(r));
    if (direct.length > 1) {
      note('warning', subject, 'It notifies several recipients; Baton keeps one escalation');
    }
    const team = detail.ownerTeam?.id;
    if (direct.length === 0 && team) {
      let rules = routingRules.get(team);
      if (!rules) {
        ({ data: rules } = await read(
          path(`/v2/teams/${encodeURIComponent(team)}/routing-rules`),
          wrapped(z.array(RoutingRuleSchema)),
        ));
        routingRules.set(team, rules);
      }
      const chosen = rules.find((r) => r.isDefault) ?? rules.at(-1);
      if (chosen && !pick(chosen.notify)) {
        note(
          'warning',
          subject,
          `Its team's routing rule “${chosen.name ?? 'Default'}” notifies nobody Baton imports`,
        );
      }
      if (rules.length > 1) {
        note(
          'info',
          subject,
          `Its team “${detail.ownerTeam?.name ?? team}” routes alerts by ${rules.length} rules; Baton sends all of its alerts by the default rule${chosen?.name ? ` (“${chosen.name}”)` : ''}`,
        );
      }
    }
    if (!policySourceId && !scheduleSourceId) {
      note('warning', subject, 'No escalation or schedule found for it: choose one in Baton');
    }
    integrations.push({
      sourceId: meta.id,
      name: meta.name,
      source,
      policySourceId,
      scheduleSourceId,
    });
  }

  return {
    source: 'opsgenie',
    account: base.host,
    window: { from, to },
    people,
    schedules,
    policies,
    integrations,
    notes,
  };
};

const rotationName = (r: Rotation) => r.name?.trim() || r.id;
const unitOf = (c: Cadence) => (c === 'hourly' ? 'hours' : c === 'daily' ? 'days' : 'weeks');

const UNIT_MS: Record<string, number> = {
  days: 86_400_000,
  hours: 3_600_000,
  minutes: MINUTE,
  seconds: 1000,
  miliseconds: 1,
  milliseconds: 1,
  micros: 0.001,
  nanos: 0.000001,
};

function durationMs(d: z.infer<typeof DurationSchema>): number {
  const unit = d.timeUnit ?? 'minutes';
  const ms = UNIT_MS[unit];
  if (ms === undefined) {
    throw new ImportSourceError(`${LABEL} answered a delay in an unknown unit “${unit}”`);
  }
  return d.timeAmount * ms;
}

/** Whole hours (rounded up) where two renderings both have someone, different people. */
function overlapHours(a: readonly SourceShift[], b: readonly SourceShift[]): number {
  let ms = 0;
  for (const x of a) {
    for (const y of b) {
      if (x.personSourceId === y.personSourceId) continue;
      const s = Math.max(x.start.getTime(), y.start.getTime());
      const e = Math.min(x.end.getTime(), y.end.getTime());
      if (e > s) ms += e - s;
    }
  }
  return Math.ceil(ms / 3_600_000);
}
