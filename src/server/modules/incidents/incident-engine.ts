import { and, asc, eq, gt, inArray, lte, ne } from 'drizzle-orm';
import type { Severity } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import {
  type EscalationProgress,
  isReminderStep,
  nextEscalation,
  reachStep,
  resolveStep,
  type SkippedTarget,
} from '../../../shared/domain/escalation';
import type { Urgency } from '../../../shared/domain/paging';
import { effectiveRoles, hasRole } from '../../../shared/domain/roles';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import {
  alerts,
  type IncidentPolicyCopy,
  integrations,
  notifications,
  pages,
  rotations,
} from '../../db/schema';
import { findPolicyRow } from '../escalation-policies/escalation-policy-repository';
import {
  type LoadedWorld,
  loadEscalationWorld,
} from '../escalation-policies/escalation-policy-service';
import { countIncidentAlerts } from '../integrations/integration-repository';
import {
  type AlertFacts,
  alertFollowUpMessage,
  type FollowUpIncident,
  type FollowUpReason,
  incidentExhaustedNotice,
  pageBackupMessage,
  pageEscalatedNotice,
  pageEscalatedToYouMessage,
  pageMessage,
  pageReminderMessage,
  pageWarningMessage,
  publicBaseUrl,
  type RotationRef,
} from '../notifications/messages';
import { loadRecipients, toInput } from '../notifications/notify';
import {
  addToFollowUps,
  enqueueNotifications,
  type FollowUpInput,
  type NotificationInput,
} from '../notifications/outbox';
import { ackToken, ackUrl, hashAckToken } from '../paging/ack-token';
import { emailOnly, type PagingDeps } from '../paging/page-facts';
import { pageMessageCtx, pageMessageOf } from '../paging/page-message';
import { listMemberRoles } from '../paging/paging-repository';
import { replyCodeFor } from '../sms-replies/reply-codes';
import { listUsersWithRoles } from '../users/user-repository';
import { postIncident } from './incident-destinations';
import {
  type IncidentRotation,
  type IncidentRow,
  insertIncidentEvent,
  type LockedIncident,
  lockTurns,
  storeTurn,
  updateIncidentRow,
} from './incident-repository';
import { openIncidentText, sealIncidentText } from './incident-text';

/**
 * The escalation engine (issue 16, decision 204): an incident (a page row) climbs the copy of the
 * policy it was raised on, one step at a time. A step notifies whom resolveStep names over the
 * world as it is now; a step that reaches nobody is recorded as skipped and the next is taken at
 * once; past the last step with no loop left the incident is exhausted and its rotation's managers
 * and the person who raised it are told. Everything in the caller's transaction, the incident row
 * locked by the caller.
 */

/** What the engine and the actions need from the app. */
export interface IncidentDeps extends PagingDeps {
  config?: PagingDeps['config'] & Partial<Pick<Config, 'handoffTimings'>>;
}

/** What taking a step needs: the cipher and the configuration (links, SMS replies, timings). */
export type StepDeps = Pick<IncidentDeps, 'cipher' | 'config'>;

/** How a step is taken: by the clock, by a person's hand (with their reason), or on raising. */
export interface StepCause {
  automatic: boolean;
  actorId: number | null;
  /** the reason a person gave (escalate by hand, reassign) */
  reason?: string;
}

const MINUTE = 60_000;

/** rotationRefOf: what the messages name: the rotation, or the policy of an incident without one. */
export function rotationRefOf(incident: LockedIncident): RotationRef {
  return incident.rotation
    ? { id: incident.rotation.id, name: incident.rotation.name }
    : { id: 0, name: incident.page.policy.name };
}

/** titleOf: an incident's title (its message when it has none of its own). */
export function titleOf(page: IncidentRow, deps: Pick<PagingDeps, 'cipher'>): string {
  return (
    openIncidentText(deps.cipher, 'title', page.id, page.titleEnc) ??
    pageMessageOf(page, deps.cipher)
  );
}

/** progressOf: where an incident is on its policy. */
export const progressOf = (page: IncidentRow): EscalationProgress => ({
  stepIndex: page.stepIndex,
  loop: page.loop,
  stepStartedAt: page.stepStartedAt,
  stepSkipped: page.stepSkipped,
});

/** linkStartOf: when the current assignees' acknowledgement links start (the legacy step start). */
export const linkStartOf = (page: Pick<IncidentRow, 'createdAt' | 'escalatedAt'>) =>
  page.escalatedAt ?? page.createdAt;

export interface RaiseInput {
  rotation: { id: number; name: string; escalationPolicyId: number } | null;
  /** the policy of an incident raised without a rotation */
  policyId?: number;
  raisedBy: User | null;
  source: 'user' | 'integration' | 'system';
  title?: string;
  message: string;
  severity: Severity;
  urgency: Urgency;
  description?: string;
  impact?: string;
  troubleshootingSteps?: string;
  now: Date;
  /** the integration that raised it (issue 17): stored on the incident, named by its events */
  integration?: { id: number; name: string };
  /** the integration's alert storm incident (decision 209) */
  storm?: boolean;
  /**
   * Runs after the incident is inserted and before its first step, with its id: the alert intake
   * records the alert that raised it here, so the first step's messages can read it.
   */
  beforeFirstStep?: (incidentId: number) => Promise<void>;
}

const severityOf = (urgency: Urgency): Severity =>
  urgency === 'high' ? 'P1' : urgency === 'medium' ? 'P2' : 'P3';

/** defaultSeverity: the severity a page of this urgency is raised with (the legacy Page API). */
export const defaultSeverity = severityOf;

/**
 * raiseIncident records an incident on a rotation's policy (or a policy alone) with a copy of the
 * policy, its texts sealed, the 'incident.raised' event, and takes its first step.
 */
export async function raiseIncident(
  tx: Tx,
  deps: StepDeps,
  input: RaiseInput,
): Promise<IncidentRow> {
  const policyId = input.rotation?.escalationPolicyId ?? input.policyId;
  if (policyId === undefined) throw new Error('raiseIncident: no policy');
  const policyRow = await findPolicyRow(tx, policyId);
  if (!policyRow) throw new Error(`escalation policy ${policyId} is missing`);
  const policy: IncidentPolicyCopy = {
    name: policyRow.name,
    repeat: policyRow.repeat,
    steps: policyRow.steps,
  };
  const [id] = await allocateIds(tx, 'pages');
  const { cipher } = deps;
  const title = input.title && input.title !== input.message ? input.title : undefined;
  const [inserted] = await tx
    .insert(pages)
    .values({
      id,
      rotationId: input.rotation?.id ?? null,
      pagedById: input.raisedBy?.id ?? null,
      targetUserId: null,
      messageEnc: cipher.encrypt(input.message, pageMessageCtx(id)),
      titleEnc: sealIncidentText(cipher, 'title', id, title),
      descriptionEnc: sealIncidentText(cipher, 'description', id, input.description),
      impactEnc: sealIncidentText(cipher, 'impact', id, input.impact),
      troubleshootingEnc: sealIncidentText(
        cipher,
        'troubleshooting',
        id,
        input.troubleshootingSteps,
      ),
      urgency: input.urgency,
      severity: input.severity,
      status: 'triggered',
      createdAt: input.now,
      escalationPolicyId: policyId,
      policy,
      stepIndex: 0,
      loop: 0,
      stepStartedAt: input.now,
      stepSkipped: false,
      assigneeIds: [],
      notifiedIds: [],
      integrationId: input.integration?.id ?? null,
      storm: input.storm ?? false,
    })
    .returning();
  await insertIncidentEvent(tx, {
    actorUserId: input.raisedBy?.id ?? null,
    action: 'incident.raised',
    incidentId: id,
    details: {
      source: input.source,
      ...(input.rotation ? { rotationName: input.rotation.name } : {}),
      ...(input.integration ? { integrationName: input.integration.name } : {}),
      ...(input.storm ? { storm: true } : {}),
    },
    at: input.now,
  });
  if (input.beforeFirstStep) await input.beforeFirstStep(id);
  const rotation: IncidentRotation | null = input.rotation
    ? { id: input.rotation.id, name: input.rotation.name, createdById: null, suspended: false }
    : null;
  const raised = await takeStep(
    tx,
    deps,
    { page: inserted, rotation },
    { stepIndex: 0, loop: 0 },
    input.now,
    { automatic: true, actorId: input.raisedBy?.id ?? null },
  );
  await postIncident(tx, deps, {
    type: 'incident.raised',
    incident: raised,
    rotation: rotation && { id: rotation.id, name: rotation.name },
    byName: input.raisedBy?.name ?? input.integration?.name ?? null,
    now: input.now,
  });
  return raised;
}

/** How long after a person's page from an integration its further incidents join a follow-up. */
export const FOLLOW_UP_WINDOW_MS = 5 * MINUTE;
/** How long a follow-up gathers incidents after its first before it is sent. */
export const FOLLOW_UP_DELAY_MS = MINUTE;
/** The notifications that page a person about one incident (each with its own link). */
const PAGE_KINDS = ['page', 'page.reminder', 'page.escalated', 'page.backup'];

/** loadWorldFor reads the world an incident's policy resolves over, in the transaction. */
function loadWorldFor(tx: Tx, deps: StepDeps, incident: LockedIncident, now: Date) {
  return loadEscalationWorld(tx, deps, {
    policy: incident.page.policy,
    ownRotationIds: incident.rotation ? [incident.rotation.id] : [],
    now,
  });
}

/**
 * takeStep takes the step `to` of a locked incident at `now`: notifies whom it names (each with an
 * acknowledgement link and, by SMS, a reply code), or records it skipped and takes the next at
 * once; past the last step with no loop left, the incident is exhausted. Returns the row as written.
 */
export async function takeStep(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
  to: { stepIndex: number; loop: number },
  now: Date,
  cause: StepCause,
): Promise<IncidentRow> {
  const { policy } = incident.page;
  const loaded = await loadWorldFor(tx, deps, incident, now);
  let position = to;
  let page = incident.page;
  // Bounded: every step of every loop skipped once at most, then the policy has run out.
  for (let guard = 0; guard <= policy.steps.length * (policy.repeat + 1); guard++) {
    const step = policy.steps[position.stepIndex];
    const turns =
      step.assignment === 'round-robin' ? await lockTurns(tx, page.escalationPolicyId) : [];
    const turn = turns[position.stepIndex] ?? 0;
    const resolution = resolveStep(step, { ...loaded.world, turn }, now);
    if (resolution.kind === 'notify') {
      if (step.assignment === 'round-robin') {
        await storeTurn(tx, page.escalationPolicyId, turns, position.stepIndex, turn + 1);
      }
      return notifyStep(tx, deps, { ...incident, page }, loaded, {
        position,
        recipients: resolution.recipients,
        skipped: resolution.skipped,
        now,
        cause,
      });
    }
    await insertIncidentEvent(tx, {
      actorUserId: cause.automatic ? null : cause.actorId,
      action: 'incident.step_skipped',
      incidentId: page.id,
      details: {
        step: position.stepIndex,
        loop: position.loop,
        reason: resolution.reason,
        skipped: resolution.skipped.map(skippedDetail),
      },
      at: now,
    });
    const progress = reachStep(position, now, true);
    page = await updateIncidentRow(tx, page.id, {
      ...progressColumns(progress),
      exhaustedAt: null,
    });
    const next = nextEscalation(policy, progress, now);
    if (next.kind === 'exhausted') return exhaustIncident(tx, deps, { ...incident, page }, now);
    position = next;
  }
  return exhaustIncident(tx, deps, { ...incident, page }, now);
}

const progressColumns = (progress: EscalationProgress) => ({
  stepIndex: progress.stepIndex,
  loop: progress.loop,
  stepStartedAt: progress.stepStartedAt,
  stepSkipped: progress.stepSkipped,
});

const skippedDetail = (s: SkippedTarget) => ({
  target: { type: s.target.type, id: s.target.id },
  reason: s.reason,
  ...(s.userId === undefined ? {} : { userId: s.userId }),
});

/**
 * The step's notifications, row and event, once resolveStep named people. A page of an incident an
 * integration raised shows its alert (decision 213); and a person who, within the follow-up
 * window, was paged about another still unacknowledged incident of that integration hears of this
 * one in their follow-up, not in a page of its own.
 */
async function notifyStep(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
  loaded: LoadedWorld,
  step: {
    position: { stepIndex: number; loop: number };
    recipients: { userId: number; reasons: string[] }[];
    skipped: SkippedTarget[];
    now: Date;
    cause: StepCause;
  },
): Promise<IncidentRow> {
  const { page } = incident;
  const { policy } = page;
  const { now, cause, position } = step;
  const first = page.assigneeIds.length === 0 && page.notifiedIds.length === 0;
  const reminder =
    !first && isReminderStep(policy, position.stepIndex) && position.loop === page.loop;
  const recipientIds = step.recipients.map((r) => r.userId);
  // A reminder keeps the links of the step before; any other step gives new ones.
  const escalatedAt = first || reminder ? page.escalatedAt : now;
  const status = first ? page.status : reminder ? page.status : 'escalated';
  const linkStart = linkStartOf({ createdAt: page.createdAt, escalatedAt });
  const progress = reachStep(position, now);
  const tokens = new Map(
    recipientIds.map((userId) => [
      userId,
      ackToken(deps.cipher, { pageId: page.id, targetUserId: userId, stepStart: linkStart }),
    ]),
  );
  const source = await integrationSourceOf(tx, deps, incident);
  const followUpIds = source
    ? await pagedRecentlyBy(tx, source.integrationId, page.id, recipientIds, now)
    : new Set<number>();
  const updated = await updateIncidentRow(tx, page.id, {
    ...progressColumns(progress),
    status,
    escalatedAt,
    exhaustedAt: null,
    assigneeIds: recipientIds,
    notifiedIds: [...new Set([...page.notifiedIds, ...recipientIds])],
    targetUserId: recipientIds[0],
    ackTokenHash: hashAckToken(tokens.get(recipientIds[0]) as string),
  });
  await insertIncidentEvent(tx, {
    actorUserId: cause.automatic ? null : cause.actorId,
    action: 'incident.step_reached',
    incidentId: page.id,
    details: {
      step: position.stepIndex,
      loop: position.loop,
      notified: step.recipients.map((r) => ({ userId: r.userId, reasons: r.reasons })),
      skipped: step.skipped.map(skippedDetail),
      reminder,
      automatic: cause.automatic,
      ...(followUpIds.size > 0 ? { followUpIds: [...followUpIds] } : {}),
    },
    at: now,
  });

  const people = await loadRecipients(tx, deps.cipher, [
    ...recipientIds,
    page.pagedById,
    ...page.assigneeIds,
  ]);
  const rotation = rotationRefOf(incident);
  const baseUrl = publicBaseUrl(deps.config);
  const message = pageMessageOf(page, deps.cipher);
  const urgency = page.urgency as Urgency;
  const options = { emailOnly: emailOnly(page.urgency), pageId: page.id };
  const eventKey = `page:${page.id}:step:${position.stepIndex}:${position.loop}:${now.getTime()}`;
  // An integration's incident is paged in its name: "Prometheus paged you".
  const pagerName =
    source?.name ?? (page.pagedById === null ? null : (people.get(page.pagedById)?.name ?? null));
  const alert = source?.facts ?? null;
  const fromName =
    page.targetUserId === null ? null : (people.get(page.targetUserId)?.name ?? null);
  const next = nextEscalation(policy, progress, now);
  const nextNames = nextRecipientNames(policy, next, loaded);
  const reason =
    cause.reason ??
    `Not acknowledged within ${Math.round((now.getTime() - linkStartOf(page).getTime()) / MINUTE)} minutes`;
  const inputs: NotificationInput[] = [];
  const followUps: FollowUpInput<FollowUpIncident>[] = [];
  /** this incident, into the person's follow-up of its integration instead of a page */
  const followUp = (person: User, why: FollowUpReason) => {
    if (!source) return;
    followUps.push({
      topic: `integration:${source.integrationId}`,
      kind: 'page.follow_up',
      recipient: person,
      key: `page:${page.id}`,
      item: {
        pageId: page.id,
        title: titleOf(page, deps),
        severity: page.severity as Severity,
        source: source.facts.event?.source.trim() || null,
        reason: why,
      },
      emailOnly: options.emailOnly,
      pageId: page.id,
      delayMs: FOLLOW_UP_DELAY_MS,
      render: (incidents) =>
        alertFollowUpMessage({ baseUrl, rotation, integrationName: source.name, incidents }),
    });
  };
  for (const recipient of step.recipients) {
    const person = people.get(recipient.userId);
    if (!person) continue;
    const bundled = followUpIds.has(person.id);
    const url = ackUrl(baseUrl, tokens.get(recipient.userId) as string);
    const context = { baseUrl, rotation, timeZone: zoneOrUtc(person.timezone) };
    const replyCode = () =>
      replyCodeFor(tx, deps, {
        pageId: page.id,
        recipient: person,
        emailOnly: options.emailOnly,
        now,
      });
    const holder = step.recipients.find((r) => !r.reasons.every((x) => x === 'backup'));
    const backupOnly = first && recipient.reasons.every((x) => x === 'backup') && holder;
    if (backupOnly && holder) {
      const view = incident.rotation ? loaded.rotations.get(incident.rotation.id) : undefined;
      if (bundled) followUp(person, 'backup');
      else
        inputs.push(
          toInput(
            `page:${page.id}:backup`,
            'page.backup',
            person,
            pageBackupMessage({
              ...context,
              pagerName,
              holderName: people.get(holder.userId)?.name ?? 'The holder',
              message,
              urgency,
              createdAt: page.createdAt,
              backupUntil: view?.backupUntil ? new Date(view.backupUntil) : null,
              alert,
            }),
            options,
          ),
        );
      await insertIncidentEvent(tx, {
        actorUserId: null,
        action: 'page.backup_notified',
        incidentId: page.id,
        details: {
          rotationName: rotation.name,
          toUserId: recipient.userId,
          until: view?.backupUntil ?? null,
        },
        at: now,
      });
      continue;
    }
    if (bundled) {
      followUp(person, first ? 'new' : reminder ? 'reminder' : 'escalated');
    } else if (first) {
      inputs.push(
        toInput(
          `page:${page.id}:sent`,
          'page',
          person,
          pageMessage({
            ...context,
            pagerName,
            message,
            urgency,
            ackUrl: url,
            createdAt: page.createdAt,
            replyCode: await replyCode(),
            alert,
          }),
          options,
        ),
      );
    } else if (reminder) {
      inputs.push(
        toInput(
          eventKey,
          'page.reminder',
          person,
          pageReminderMessage({
            ...context,
            pagerName,
            message,
            urgency,
            ackUrl: url,
            createdAt: linkStart,
            escalatesAt: next.kind === 'step' && nextNames ? next.at : null,
            replyCode: await replyCode(),
            alert,
          }),
          options,
        ),
      );
    } else {
      inputs.push(
        toInput(
          eventKey,
          'page.escalated',
          person,
          pageEscalatedToYouMessage({
            ...context,
            pagerName,
            message,
            urgency,
            ackUrl: url,
            createdAt: page.createdAt,
            fromName: recipient.userId === page.targetUserId ? null : fromName,
            reason,
            escalatedAt: now,
            replyCode: await replyCode(),
            alert,
          }),
          options,
        ),
      );
    }
  }
  // The person who raised it hears how it goes: a warning at a reminder, a notice when it moved on.
  const pager = page.pagedById === null ? undefined : people.get(page.pagedById);
  if (!first && pager && !recipientIds.includes(pager.id) && pager.id !== cause.actorId) {
    const context = { baseUrl, rotation, timeZone: zoneOrUtc(pager.timezone) };
    if (reminder) {
      inputs.push(
        toInput(
          eventKey,
          'page.warning',
          pager,
          pageWarningMessage({
            ...context,
            targetName: people.get(recipientIds[0])?.name ?? null,
            message,
            sentAt: linkStart,
            escalation:
              next.kind === 'step' && nextNames ? { at: next.at, toName: nextNames } : null,
          }),
          options,
        ),
      );
    } else {
      inputs.push(
        toInput(
          eventKey,
          'page.escalation_notice',
          pager,
          pageEscalatedNotice({
            ...context,
            fromName,
            toName: namesOf(recipientIds.map((id) => people.get(id)?.name ?? 'a former member')),
            reason,
            automatic: cause.automatic,
          }),
          options,
        ),
      );
    }
  }
  await enqueueNotifications(tx, deps.cipher, now, inputs);
  await addToFollowUps(tx, deps.cipher, now, followUps);
  return updated;
}

/** Who raised an incident of an integration, in the words its pages use (decision 213). */
interface IntegrationSource {
  integrationId: number;
  name: string;
  facts: AlertFacts;
}

/**
 * integrationSourceOf reads what an integration's incident pages show, in one query (a storm's
 * count of alerts in a second): the integration's name and the incident's first trigger alert
 * (the intake records it before the first step, RaiseInput.beforeFirstStep). Null for an incident a person raised, or whose
 * integration is deleted.
 */
async function integrationSourceOf(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
): Promise<IntegrationSource | null> {
  const { page } = incident;
  if (page.integrationId === null) return null;
  const [row] = await tx
    .select({ name: integrations.name, alertId: alerts.id, eventEnc: alerts.eventEnc })
    .from(integrations)
    .leftJoin(alerts, and(eq(alerts.pageId, page.id), eq(alerts.action, 'trigger')))
    .where(eq(integrations.id, page.integrationId))
    .orderBy(asc(alerts.id))
    .limit(1);
  if (!row) return null;
  return {
    integrationId: page.integrationId,
    name: row.name,
    facts: {
      severity: page.severity as Severity,
      event: row.alertId === null ? null : openAlertEvent(deps, row.alertId, row.eventEnc),
      stormAlerts: page.storm
        ? ((await countIncidentAlerts(tx, [page.id])).get(page.id)?.alertCount ?? 0)
        : null,
    },
  };
}

/** openAlertEvent opens an alert's sealed event; null when it cannot be read (the page says less). */
function openAlertEvent(
  deps: StepDeps,
  alertId: number,
  sealed: string | null,
): AlertFacts['event'] {
  if (sealed === null) return null;
  try {
    const value = JSON.parse(
      deps.cipher.decrypt(sealed, { table: 'alerts', column: 'event', rowId: alertId }),
    ) as Partial<NonNullable<AlertFacts['event']>>;
    return {
      summary: typeof value.summary === 'string' ? value.summary : '',
      source: typeof value.source === 'string' ? value.source : '',
      details: Array.isArray(value.details) ? value.details : [],
      links: Array.isArray(value.links) ? value.links : [],
    };
  } catch {
    return null;
  }
}

/**
 * pagedRecentlyBy returns which of the people were paged (a page of its own, not a follow-up)
 * within the follow-up window about another incident of the integration that is still
 * unacknowledged: they hear of this one in a follow-up (decision 213). One query.
 */
async function pagedRecentlyBy(
  tx: Tx,
  integrationId: number,
  pageId: number,
  userIds: readonly number[],
  now: Date,
): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const windowStart = new Date(now.getTime() - FOLLOW_UP_WINDOW_MS);
  const rows = await tx
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .innerJoin(pages, eq(pages.id, notifications.pageId))
    .where(
      and(
        eq(pages.integrationId, integrationId),
        ne(pages.id, pageId),
        inArray(pages.status, ['triggered', 'escalated']),
        // Implied (a step's notifications are as old as its start, and steps only move on), and
        // it keeps the scan to the integration's recent steps, not all its incidents ever.
        gt(pages.stepStartedAt, windowStart),
        inArray(notifications.userId, [...userIds]),
        inArray(notifications.kind, PAGE_KINDS),
        gt(notifications.createdAt, windowStart),
        lte(notifications.createdAt, now),
      ),
    );
  return new Set(rows.flatMap((r) => (r.userId === null ? [] : [r.userId])));
}

const namesOf = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** Whom the next step would reach as the world is now (for the warning), or null. */
function nextRecipientNames(
  policy: IncidentPolicyCopy,
  next: ReturnType<typeof nextEscalation>,
  loaded: LoadedWorld,
): string | null {
  if (next.kind !== 'step') return null;
  const resolution = resolveStep(policy.steps[next.stepIndex], loaded.world, next.at);
  if (resolution.kind !== 'notify') return null;
  const names = resolution.recipients.map((r) => loaded.people.get(r.userId)?.name ?? '');
  return namesOf(names.filter(Boolean)) || null;
}

/**
 * exhaust marks a locked incident whose policy ran out: exhausted_at, the 'incident.exhausted'
 * event, and a notice to its rotation's managers (its creator and its members with the manager
 * role; the administrators when it has none, or no rotation) and to the person who raised it.
 * The incident stays open.
 */
export async function exhaustIncident(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
  now: Date,
): Promise<IncidentRow> {
  const { page } = incident;
  const updated = await updateIncidentRow(tx, page.id, { exhaustedAt: now });
  await insertIncidentEvent(tx, {
    actorUserId: null,
    action: 'incident.exhausted',
    incidentId: page.id,
    details: { loops: page.policy.repeat + 1 },
    at: now,
  });
  const managerIds = await managersOf(tx, deps, incident.rotation?.id ?? null);
  const people = await loadRecipients(tx, deps.cipher, [...managerIds, page.pagedById]);
  const rotation = rotationRefOf(incident);
  const baseUrl = publicBaseUrl(deps.config);
  const title = titleOf(page, deps);
  const inputs = [...people.values()].map((person) =>
    toInput(
      `page:${page.id}:exhausted:${now.getTime()}`,
      'incident.exhausted',
      person,
      incidentExhaustedNotice({
        baseUrl,
        rotation,
        timeZone: zoneOrUtc(person.timezone),
        title,
        policyName: page.policy.name,
        loops: page.policy.repeat + 1,
        raisedAt: page.createdAt,
        at: now,
      }),
      { emailOnly: emailOnly(page.urgency), pageId: page.id },
    ),
  );
  await enqueueNotifications(tx, deps.cipher, now, inputs);
  return updated;
}

/** managersOf: a rotation's managers (creator, manager-role members), else the administrators. */
async function managersOf(tx: Tx, deps: StepDeps, rotationId: number | null): Promise<number[]> {
  const ids = new Set<number>();
  if (rotationId !== null) {
    const [row] = await tx
      .select({ createdById: rotations.createdById })
      .from(rotations)
      .where(eq(rotations.id, rotationId));
    if (row?.createdById != null) ids.add(row.createdById);
    for (const m of await listMemberRoles(tx, [rotationId])) {
      if (hasRole(effectiveRoles(m.roles, m.role), 'manager')) ids.add(m.userId);
    }
  }
  if (ids.size > 0) return [...ids];
  const admins = await listUsersWithRoles(tx, deps.cipher, ['admin']);
  return admins.map((u) => u.id);
}
