import { z } from 'zod';
import type { IntegrationSource } from '../../../shared/contracts/integrations';
import {
  EscalationSchema,
  IntegrationMetaSchema,
  IntegrationSchema,
  OverrideSchema,
  type Recipient,
  RoutingRuleSchema,
  ScheduleSchema,
  TimelineSchema,
  UsersPageSchema,
  wrapped,
} from './opsgenie-answers';
import { policyOf } from './opsgenie-escalations';
import { type MapContext, scheduleOf } from './opsgenie-schedules';
import {
  ImportSourceError,
  type SourceIntegration,
  type SourceNote,
  type SourcePerson,
  type SourceReader,
  type SourceSchedule,
} from './source-snapshot';

/**
 * The Opsgenie reader (issue 34, decision 271): one account's users, schedules with their
 * rotations, overrides and final timeline, escalations and integrations, read through Opsgenie's
 * REST API v2 (`Authorization: GenieKey …`) and mapped onto Baton's layers, on-duty windows, cover,
 * policy steps and integration sources (opsgenie-schedules.ts, opsgenie-escalations.ts). What
 * Baton cannot keep as Opsgenie has it is a note.
 */

export const OPSGENIE_API_URL = 'https://api.opsgenie.com';
const LABEL = 'Opsgenie';
/** Opsgenie's largest page of users. */
const USERS_PAGE = 100;
/** A bound on pages, far above any account: a source that pages forever is an error. */
const PAGES_MAX = 1000;

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

type Read = <T>(path: string, schema: z.ZodType<T>) => Promise<T>;

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
  const read = reader(input.get, base, { authorization: `GenieKey ${input.apiKey}` });
  const notes: SourceNote[] = [];
  const ctx: MapContext = {
    window: input.window,
    personIds: new Set(),
    note: (level, subject, message) => notes.push({ level, subject, message }),
  };

  const people = await readPeople(read, ctx);
  ctx.personIds = new Set(people.map((p) => p.sourceId));
  const schedules = await readSchedules(read, ctx);
  const scheduleIds = new Set(schedules.map((s) => s.sourceId));
  const { data: escalations } = await read('/v2/escalations', wrapped(z.array(EscalationSchema)));
  const policies = escalations.map((e) => policyOf(ctx, e, scheduleIds));
  const integrations = await readIntegrations(read, ctx, {
    policyIds: new Set(policies.map((p) => p.sourceId)),
    scheduleIds,
  });
  return {
    source: 'opsgenie',
    account: base.host,
    window: { from: input.window.from, to: input.window.to },
    people,
    schedules,
    policies,
    integrations,
    notes,
  };
};

/**
 * reader GETs a path or URL of the account (never another origin: the key goes with it) and reads
 * its answer against a schema, each failure an ImportSourceError naming what failed.
 */
function reader(
  get: (url: string, headers: Record<string, string>) => Promise<{ body: unknown }>,
  base: URL,
  headers: Record<string, string>,
): Read {
  const root = base.href.replace(/\/+$/, '');
  return async (path, schema) => {
    const target = new URL(path.startsWith('/') ? `${root}${path}` : path);
    if (target.origin !== base.origin) {
      throw new ImportSourceError(
        `${LABEL} pointed the next page at another address (${target.host}): not followed`,
      );
    }
    let answer: { body: unknown };
    try {
      answer = await get(target.href, headers);
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
  };
}

/** Every page of users as people: the username is the email Baton matches by. */
async function readPeople(read: Read, ctx: MapContext): Promise<SourcePerson[]> {
  const people: SourcePerson[] = [];
  let next: string | null | undefined = `/v2/users?limit=${USERS_PAGE}&offset=0`;
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
        ctx.note(
          'warning',
          `User ${user.username}`,
          'Its username is not an email address, so it cannot be matched to a Baton person or invited: add them in Baton by hand',
        );
      }
    }
    next = answer.data.length > 0 ? answer.paging?.next : null;
  }
  return people;
}

/** Every schedule with its rotations, its overrides and its final timeline over the window. */
async function readSchedules(read: Read, ctx: MapContext): Promise<SourceSchedule[]> {
  const { from, to } = ctx.window;
  const { data: list } = await read(
    '/v2/schedules?expand=rotation',
    wrapped(z.array(ScheduleSchema)),
  );
  const weeks = Math.ceil((to.getTime() - from.getTime()) / (7 * 86_400_000));
  const schedules: SourceSchedule[] = [];
  for (const schedule of list) {
    const id = encodeURIComponent(schedule.id);
    const { data: overrides } = await read(
      `/v2/schedules/${id}/overrides`,
      wrapped(z.array(OverrideSchema)),
    );
    const { data: timeline } = await read(
      `/v2/schedules/${id}/timeline?identifierType=id&interval=${weeks}&intervalUnit=weeks&date=${encodeURIComponent(from.toISOString())}`,
      wrapped(TimelineSchema),
    );
    schedules.push(scheduleOf(ctx, schedule, overrides, timeline));
  }
  return schedules;
}

/**
 * Every integration with its Baton source and what its alerts escalate by: an escalation or
 * schedule among its own recipients, else its owner team's default routing rule.
 */
async function readIntegrations(
  read: Read,
  ctx: MapContext,
  known: { policyIds: ReadonlySet<string>; scheduleIds: ReadonlySet<string> },
): Promise<SourceIntegration[]> {
  const { data: list } = await read('/v2/integrations', wrapped(z.array(IntegrationMetaSchema)));
  const routingRules = new Map<string, z.infer<typeof RoutingRuleSchema>[]>();
  const rulesOf = async (team: string) => {
    let rules = routingRules.get(team);
    if (!rules) {
      ({ data: rules } = await read(
        `/v2/teams/${encodeURIComponent(team)}/routing-rules`,
        wrapped(z.array(RoutingRuleSchema)),
      ));
      routingRules.set(team, rules);
    }
    return rules;
  };
  const integrations: SourceIntegration[] = [];
  for (const meta of list) {
    const subject = `Integration “${meta.name}”`;
    const { data: detail } = await read(
      `/v2/integrations/${encodeURIComponent(meta.id)}`,
      wrapped(IntegrationSchema),
    );
    let source = INTEGRATION_SOURCE[meta.type];
    if (!source) {
      source = 'generic';
      ctx.note(
        'warning',
        subject,
        `Baton has no ${meta.type} endpoint: it becomes a generic integration, and ${meta.type} must post Baton's generic JSON (or use Baton's Opsgenie-compatible endpoint)`,
      );
    }
    if (meta.enabled === false) {
      ctx.note('info', subject, 'It is disabled in Opsgenie; it is imported all the same');
    }
    const route = {
      policySourceId: null as string | null,
      scheduleSourceId: null as string | null,
    };
    const pick = (r: Recipient | null | undefined) => {
      if (!r?.id) return false;
      if (r.type === 'escalation' && known.policyIds.has(r.id)) route.policySourceId = r.id;
      else if (r.type === 'schedule' && known.scheduleIds.has(r.id)) route.scheduleSourceId = r.id;
      else return false;
      return true;
    };
    const direct = (detail.recipients ?? []).filter((r) => pick(r));
    if (direct.length > 1) {
      ctx.note('warning', subject, 'It notifies several recipients; Baton keeps one escalation');
    }
    const team = detail.ownerTeam?.id;
    if (direct.length === 0 && team) {
      const rules = await rulesOf(team);
      const chosen = rules.find((r) => r.isDefault) ?? rules.at(-1);
      if (chosen && !pick(chosen.notify)) {
        ctx.note(
          'warning',
          subject,
          `Its team's routing rule “${chosen.name ?? 'Default'}” notifies nobody Baton imports`,
        );
      }
      if (rules.length > 1) {
        ctx.note(
          'info',
          subject,
          `Its team “${detail.ownerTeam?.name ?? team}” routes alerts by ${rules.length} rules; Baton sends all of its alerts by the default rule${chosen?.name ? ` (“${chosen.name}”)` : ''}`,
        );
      }
    }
    if (!route.policySourceId && !route.scheduleSourceId) {
      ctx.note('warning', subject, 'No escalation or schedule found for it: choose one in Baton');
    }
    integrations.push({ sourceId: meta.id, name: meta.name, source, ...route });
  }
  return integrations;
}
