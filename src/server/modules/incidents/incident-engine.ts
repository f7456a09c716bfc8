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
import { sharedRead } from '../../db/batch-transaction';
import type { Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import type { IncidentPolicyCopy } from '../../db/schema';
import {
  type LoadedWorld,
  loadEscalationWorld,
} from '../escalation-policies/escalation-policy-service';
import { listMemberRoles } from '../members/member-reads';
import { announce } from '../notifications/announce';
import { findPolicyRow } from '../rotations/rotation-repository';
import { findUsers, listUsersWithRoles } from '../users/user-repository';
import { ackToken, hashAckToken } from './ack-token';
import { postIncident } from './incident-destinations';
import {
  linkStartOf,
  pageRefOf,
  progressOf,
  rotationRefOf,
  type StepCause,
  type StepDeps,
  titleOf,
} from './incident-facts';
import { lookUpFollowUps, type StepFollowUps } from './incident-follow-ups';
import {
  findRotationFacts,
  type IncidentRotation,
  type IncidentRow,
  insertIncidentEvent,
  insertIncidentRow,
  type LockedIncident,
  lockTurns,
  storeTurn,
  updateIncidentRow,
} from './incident-repository';
import { messageStep } from './incident-step-messages';
import { pageMessageCtx, sealIncidentText } from './incident-text';

/**
 * The escalation engine (issue 16, decision 204): an incident (a page row) climbs the copy of the
 * policy it was raised on, one step at a time. A step notifies whom resolveStep names over the
 * world as it is now; a step that reaches nobody is recorded as skipped and the next is taken at
 * once; past the last step with no loop left the incident is exhausted and its rotation's managers
 * and the person who raised it are told. Everything in the caller's transaction, the incident row
 * locked by the caller. A step that reaches people is three parts (decision 239): its follow-up
 * lookups (`incident-follow-ups.ts`), its state change (`markStepReached`) and the messages it
 * sends (`incident-step-messages.ts`).
 */

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
  const inserted = await insertIncidentRow(tx, {
    id,
    rotationId: input.rotation?.id ?? null,
    pagedById: input.raisedBy?.id ?? null,
    targetUserId: null,
    messageEnc: cipher.encrypt(input.message, pageMessageCtx(id)),
    titleEnc: sealIncidentText(cipher, 'title', id, title),
    descriptionEnc: sealIncidentText(cipher, 'description', id, input.description),
    impactEnc: sealIncidentText(cipher, 'impact', id, input.impact),
    troubleshootingEnc: sealIncidentText(cipher, 'troubleshooting', id, input.troubleshootingSteps),
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
  });
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

/** loadWorldFor reads the world an incident's policy resolves over, in the transaction. */
function loadWorldFor(tx: Tx, deps: StepDeps, incident: LockedIncident, now: Date) {
  const { steps } = incident.page.policy;
  const ownRotationIds = incident.rotation ? [incident.rotation.id] : [];
  const targets = steps.flatMap((s) => s.targets.map((t) => `${t.type}:${t.id}`));
  return sharedRead(
    tx,
    `world:${now.getTime()}:${ownRotationIds}:${[...new Set(targets)].sort()}`,
    () => loadEscalationWorld(tx, deps, { policy: incident.page.policy, ownRotationIds, now }),
  );
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

/** A step resolveStep named people for, and how it was taken. */
interface NamedStep {
  position: { stepIndex: number; loop: number };
  recipients: { userId: number; reasons: string[] }[];
  skipped: SkippedTarget[];
  now: Date;
  cause: StepCause;
}

/**
 * notifyStep takes a step once resolveStep named people: the follow-up lookups (decision 213),
 * then its state change, then its messages. Returns the row as written.
 */
async function notifyStep(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
  loaded: LoadedWorld,
  step: NamedStep,
): Promise<IncidentRow> {
  const recipientIds = step.recipients.map((r) => r.userId);
  const followUps = await lookUpFollowUps(tx, deps, incident, recipientIds, step.now);
  const reached = await markStepReached(tx, deps, incident, { ...step, followUps });
  await messageStep(tx, deps, { ...step, ...reached, incident, loaded, followUps });
  return reached.updated;
}

/**
 * markStepReached writes a step that reached people: the incident's progress, status, assignees
 * and link (a reminder keeps the links of the step before; any other step gives new ones), and
 * the 'incident.step_reached' event. Returns the row and what the step's messages need.
 */
async function markStepReached(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
  step: NamedStep & { followUps: StepFollowUps },
) {
  const { page } = incident;
  const { now, cause, position } = step;
  const first =
    cause.reopened === true || (page.assigneeIds.length === 0 && page.notifiedIds.length === 0);
  const reminder =
    !first && isReminderStep(page.policy, position.stepIndex) && position.loop === page.loop;
  const recipientIds = step.recipients.map((r) => r.userId);
  const escalatedAt = first || reminder ? page.escalatedAt : now;
  const status = first || reminder ? page.status : 'escalated';
  const linkStart = linkStartOf({ createdAt: page.createdAt, escalatedAt });
  const progress = reachStep(position, now);
  const tokens = new Map(
    recipientIds.map((userId) => [
      userId,
      ackToken(deps.cipher, { pageId: page.id, targetUserId: userId, stepStart: linkStart }),
    ]),
  );
  const { followUpIds } = step.followUps;
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
  return { updated, first, reminder, linkStart, tokens, progress };
}

/**
 * nextPersonStep: the index of the next step in this loop, after the current one, that is not a
 * reminder and would reach someone now (the Page API's "next person"); null when there is none.
 */
export async function nextPersonStep(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
  now: Date,
): Promise<number | null> {
  const { page } = incident;
  const loaded = await loadWorldFor(tx, deps, incident, now);
  let progress: EscalationProgress = progressOf(page);
  for (;;) {
    const next = nextEscalation(page.policy, progress, now);
    if (next.kind !== 'step' || next.loop !== page.loop) return null;
    progress = reachStep(next, now);
    if (isReminderStep(page.policy, next.stepIndex)) continue;
    const resolution = resolveStep(page.policy.steps[next.stepIndex], loaded.world, now);
    if (resolution.kind === 'notify') return next.stepIndex;
  }
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
  const people = await findUsers(tx, deps.cipher, [...managerIds, page.pagedById]);
  await announce(tx, deps, now, {
    type: 'incident.exhausted',
    key: `page:${page.id}:exhausted:${now.getTime()}`,
    at: now,
    page: pageRefOf(page),
    rotation: rotationRefOf(incident),
    told: [...people.values()].map((person) => ({ person, as: 'to' as const })),
    title: titleOf(page, deps),
    policyName: page.policy.name,
    loops: page.policy.repeat + 1,
    raisedAt: page.createdAt,
  });
  return updated;
}

/** managersOf: a rotation's managers (creator, manager-role members), else the administrators. */
async function managersOf(tx: Tx, deps: StepDeps, rotationId: number | null): Promise<number[]> {
  const ids = new Set<number>();
  if (rotationId !== null) {
    const row = await findRotationFacts(tx, rotationId);
    if (row?.createdById != null) ids.add(row.createdById);
    for (const m of await listMemberRoles(tx, [rotationId])) {
      if (hasRole(effectiveRoles(m.roles, m.role), 'manager')) ids.add(m.userId);
    }
  }
  if (ids.size > 0) return [...ids];
  const admins = await listUsersWithRoles(tx, deps.cipher, ['admin']);
  return admins.map((u) => u.id);
}
