import { z } from 'zod';
import {
  DELAY_MINUTES_MAX,
  REPEAT_MAX,
  STEPS_MAX,
} from '../../../shared/contracts/escalation-policies';
import type { IntegrationSource } from '../../../shared/contracts/integrations';
import { isTimeZone } from '../../../shared/domain/time-zones';
import { instant, Schedule, scheduleOf } from './pagerduty-schedules';
import {
  ImportSourceError,
  type SourceEscalationPolicy,
  type SourceEscalationStep,
  type SourceIntegration,
  type SourceNote,
  type SourcePerson,
  type SourceReader,
  type SourceReadInput,
  type SourceSchedule,
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

const Overrides = z.object({
  overrides: z.array(z.object({ id: z.string(), start: instant, end: instant, user: Reference })),
});

const ScheduleListItem = z.object({ id: z.string(), name: z.string() });

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
// Escalation policies and integrations

/**
 * policyOf maps a PagerDuty escalation policy: each rule is a step, each user or schedule target a
 * target, num_loops the repeat. A rule's escalation delay is the minutes before moving on from it
 * to the next rule; a snapshot step's delay is the minutes after the step before (the first: after
 * the incident opens), so step k waits rule k−1's delay (plus the delays of rules left out between
 * them) and the first waits none. The last rule's delay, the wait before PagerDuty loops or stops,
 * has no step to carry it: a note says so.
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
  // minutes since the last step kept (or since the incident opened)
  let wait = 0;
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
    } else {
      if (wait > DELAY_MINUTES_MAX) {
        notes.push({
          level: 'warning',
          subject,
          message: `Its ${at} comes ${wait} minutes after the step before; Baton's step waits ${DELAY_MINUTES_MAX}`,
        });
      }
      steps.push({ delayMinutes: Math.min(wait, DELAY_MINUTES_MAX), targets });
      wait = 0;
    }
    wait += delay;
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
    // The last rule's delay: the wait before PagerDuty runs the policy again (or stops).
    loopDelayMinutes: steps.length > 0 && wait > 0 ? Math.min(wait, DELAY_MINUTES_MAX) : null,
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
