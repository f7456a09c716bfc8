import { ErrorCodes } from '../../../shared/contracts/errors';
import {
  INCIDENT_MESSAGES,
  type Incident,
  type IncidentInput,
  type Severity,
} from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { escalateByHand, reachStep } from '../../../shared/domain/escalation';
import {
  type IncidentFacts,
  incidentActions,
  isIncidentResponder,
} from '../../../shared/domain/incidents';
import type { PageStatus, Urgency } from '../../../shared/domain/paging';
import { canPageRotation, managesPolicy } from '../../../shared/domain/permissions-rotation';
import { hasRole } from '../../../shared/domain/roles';
import { pageRefusal } from '../../../shared/domain/rotation';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { AppError, conflict, forbidden, notFound } from '../../http/errors';
import { sealReason } from '../audit/audit-sealed';
import { findIntegrationNames } from '../integrations/integration-repository';
import {
  listMemberRoles,
  listMembersWithRoles,
  listRotationsUsingPolicies,
} from '../members/member-reads';
import { announce } from '../notifications/announce';
import { readyMethods } from '../notifications/channels';
import { formatWhen } from '../notifications/message-layout';
import { findPolicyRow, lockRotationRow } from '../rotations/rotation-repository';
import { refusalError } from '../rotations/rotation-service';
import { closeReplyCodes, replyCodeFor } from '../sms-replies/reply-codes';
import { findUsers } from '../users/user-repository';
import { ackToken, hashAckToken } from './ack-token';
import { postIncident } from './incident-destinations';
import { raiseIncident, takeStep } from './incident-engine';
import {
  type IncidentDeps,
  pageRefOf,
  progressOf,
  rotationRefOf,
  type StepDeps,
} from './incident-facts';
import { getIncident } from './incident-reads';
import {
  type IncidentRow,
  insertIncidentEvent,
  type LockedIncident,
  lockIncidentRow,
  updateIncidentRow,
} from './incident-repository';
import {
  pagedBySms,
  pagedRules,
  recordSkippedRules,
  ruledPerson,
  stopRules,
} from './incident-rules';
import { incidentFactsOf, pageMessageOf, sealNote } from './incident-text';

/**
 * What people do to an incident (issue 16, decision 204): acknowledge, resolve, escalate (to the
 * next step or step N), reassign, raise. Each is ONE transaction holding the incident row's lock;
 * who may is isIncidentResponder's rule, checked 404 before 403 before the incident's state. The
 * legacy Page API acts through the same steps (markAcknowledged, markResolved).
 */

/** How a person acted: in the app, by a link, an SMS reply, an integration, Slack, a call's key. */
export type ActedVia = 'app' | 'link' | 'sms' | 'integration' | 'slack' | 'phone';

/** factsOf: who answers for a locked incident (its rotation's creator and members). */
async function factsOf(tx: Tx, locked: LockedIncident): Promise<IncidentFacts> {
  const { page, rotation } = locked;
  const members = rotation ? await listMemberRoles(tx, [rotation.id]) : [];
  return {
    status: page.status as PageStatus,
    raisedById: page.pagedById,
    notifiedIds: page.notifiedIds,
    rotation: rotation
      ? { createdById: rotation.createdById, memberUserIds: members.map((m) => m.userId) }
      : null,
  };
}

/** inIncident runs `work` in one transaction holding the incident row's lock (404 when none). */
export async function inIncident<T>(
  deps: IncidentDeps,
  id: number,
  work: (tx: Tx, locked: LockedIncident, now: Date) => Promise<T>,
): Promise<T> {
  return deps.database.db.transaction(async (tx) => {
    const locked = await lockIncidentRow(tx, id);
    if (!locked) throw notFound(INCIDENT_MESSAGES.notFound);
    return work(tx, locked, deps.clock.now());
  });
}

/** The 409 of an incident someone acknowledged first: who and when, in the reader's zone. */
async function acknowledgedRefusal(
  tx: Tx,
  deps: IncidentDeps,
  page: IncidentRow,
  reader: User,
): Promise<AppError> {
  const byId = page.acknowledgedById ?? page.targetUserId;
  const by = byId === null ? undefined : (await findUsers(tx, deps.cipher, [byId])).get(byId);
  const at = formatWhen(page.acknowledgedAt ?? page.stepStartedAt, zoneOrUtc(reader.timezone));
  return conflict(INCIDENT_MESSAGES.acknowledgedBy(by?.name ?? 'a former member', at));
}

/**
 * markAcknowledged acknowledges a locked open incident: the climb stops, its SMS reply codes close
 * (decision 201), and the person who raised it is told.
 */
export async function markAcknowledged(
  tx: Tx,
  deps: StepDeps,
  locked: LockedIncident,
  how: { byUserId: number | null; via: ActedVia; now: Date; sourceName?: string },
): Promise<void> {
  const { page } = locked;
  const rotation = rotationRefOf(locked);
  await updateIncidentRow(tx, page.id, {
    status: 'acknowledged',
    acknowledgedAt: how.now,
    acknowledgedById: how.byUserId,
  });
  await closeReplyCodes(tx, page.id, how.now);
  await stopRules(tx, page.id, 'acknowledged');
  await insertIncidentEvent(tx, {
    actorUserId: how.byUserId,
    action: 'page.acknowledged',
    incidentId: page.id,
    details: {
      via: how.via,
      rotationName: rotation.name,
      ...(how.sourceName === undefined ? {} : { integrationName: how.sourceName }),
    },
    at: how.now,
  });
  await postIncident(tx, deps, {
    type: 'incident.acknowledged',
    incident: { ...page, status: 'acknowledged' },
    rotation: locked.rotation && { id: locked.rotation.id, name: locked.rotation.name },
    byUserId: how.byUserId,
    byName: how.sourceName ?? null,
    now: how.now,
  });
  if (page.pagedById === null || page.pagedById === how.byUserId) return;
  const people = await findUsers(tx, deps.cipher, [page.pagedById, how.byUserId]);
  const pager = people.get(page.pagedById);
  if (!pager) return;
  await announce(tx, deps, how.now, {
    type: 'page.acknowledged',
    key: `page:${page.id}:acknowledged`,
    at: how.now,
    page: pageRefOf(page),
    rotation,
    told: [{ person: pager, as: 'to' }],
    byName: how.byUserId === null ? null : (people.get(how.byUserId)?.name ?? null),
  });
}

/**
 * markResolved resolves a locked incident; its SMS reply codes close; the people it is with, if
 * it was still open, are told it needs nothing more.
 */
export async function markResolved(
  tx: Tx,
  deps: StepDeps,
  locked: LockedIncident,
  how: { actor: User | null; via: ActedVia; now: Date; sourceName?: string; note?: string },
): Promise<void> {
  const { page } = locked;
  const status = page.status as PageStatus;
  const rotation = rotationRefOf(locked);
  const actorId = how.actor?.id ?? null;
  await updateIncidentRow(tx, page.id, {
    status: 'resolved',
    resolvedAt: how.now,
    resolvedById: actorId,
  });
  await closeReplyCodes(tx, page.id, how.now);
  await stopRules(tx, page.id, 'resolved');
  // The resolution note is what people typed about the fix: sealed, bound to its event (decision 261).
  const [eventId] = await allocateIds(tx, 'audit_events');
  await insertIncidentEvent(tx, {
    id: eventId,
    actorUserId: actorId,
    action: 'page.resolved',
    incidentId: page.id,
    details: {
      rotationName: rotation.name,
      from: status,
      ...(how.via === 'app' ? {} : { via: how.via }),
      ...(how.sourceName === undefined ? {} : { integrationName: how.sourceName }),
      ...(how.note ? sealNote(deps.cipher, eventId, how.note) : {}),
    },
    at: how.now,
  });
  await postIncident(tx, deps, {
    type: 'incident.resolved',
    incident: { ...page, status: 'resolved' },
    rotation: locked.rotation && { id: locked.rotation.id, name: locked.rotation.name },
    byName: how.actor?.name ?? how.sourceName ?? null,
    now: how.now,
  });
  if (status !== 'triggered' && status !== 'escalated') return;
  const told = page.assigneeIds.filter((id) => id !== actorId);
  if (told.length === 0) return;
  const people = await findUsers(tx, deps.cipher, told);
  await announce(tx, deps, how.now, {
    type: 'page.resolved',
    key: `page:${page.id}:resolved`,
    at: how.now,
    page: pageRefOf(page),
    rotation,
    told: [...people.values()].map((person) => ({ person, as: 'to' as const })),
    byName: how.actor?.name ?? how.sourceName ?? null,
    message: pageMessageOf(page, deps.cipher),
  });
}

/**
 * allowed: 403 unless the actor answers for the incident (isIncidentResponder); then whether its
 * state lets the action happen now (false: the caller's 409).
 */
export async function allowed(
  tx: Tx,
  locked: LockedIncident,
  actor: User,
  action: keyof ReturnType<typeof incidentActions>,
) {
  const facts = await factsOf(tx, locked);
  if (!isIncidentResponder(actor, facts)) throw forbidden(INCIDENT_MESSAGES.mayNotAct);
  return incidentActions(actor, facts)[action];
}

/**
 * acknowledgeIncidentAs acknowledges an incident as a responder; the first acknowledgement stops
 * the climb, a later one is a 409 saying who acknowledged it and when. Returns the row.
 */
export async function acknowledgeIncidentAs(
  deps: IncidentDeps,
  actor: User,
  id: number,
  via: ActedVia = 'app',
): Promise<void> {
  await inIncident(deps, id, async (tx, locked, now) => {
    if (!(await allowed(tx, locked, actor, 'acknowledge'))) {
      if (locked.page.status === 'resolved') throw conflict(INCIDENT_MESSAGES.alreadyResolved);
      throw await acknowledgedRefusal(tx, deps, locked.page, actor);
    }
    await markAcknowledged(tx, deps, locked, { byUserId: actor.id, via, now });
  });
}

/** acknowledgeIncident: POST /api/incidents/{id}/acknowledge. */
export async function acknowledgeIncident(
  deps: IncidentDeps,
  actor: User,
  id: number,
): Promise<Incident> {
  await acknowledgeIncidentAs(deps, actor, id);
  return getIncident(deps, actor, id);
}

/** resolveIncidentAs resolves an incident as a responder (once), with an optional resolution note. */
export async function resolveIncidentAs(
  deps: IncidentDeps,
  actor: User,
  id: number,
  via: ActedVia = 'app',
  note?: string,
): Promise<void> {
  await inIncident(deps, id, async (tx, locked, now) => {
    if (!(await allowed(tx, locked, actor, 'resolve'))) {
      throw conflict(INCIDENT_MESSAGES.alreadyResolved);
    }
    await markResolved(tx, deps, locked, { actor, via, now, note });
  });
}

/** resolveIncident: POST /api/incidents/{id}/resolve, with an optional resolution note. */
export async function resolveIncident(
  deps: IncidentDeps,
  actor: User,
  id: number,
  input?: { note?: string },
): Promise<Incident> {
  await resolveIncidentAs(deps, actor, id, 'app', input?.note || undefined);
  return getIncident(deps, actor, id);
}

/**
 * escalateIncidentAs escalates an open incident by hand, with a reason, to the next step or to
 * step `toStep` (zero-based): the 'incident.escalated' event with the reason sealed, then the step
 * (its notifications, or its skip). 409 once acknowledged or resolved, past the last step, or when
 * it has left `fromStep` (one-based), the step the person saw.
 */
export async function escalateIncidentAs(
  deps: IncidentDeps,
  actor: User,
  id: number,
  input: { reason: string; toStep?: number; fromStep?: number },
): Promise<void> {
  await inIncident(deps, id, async (tx, locked, now) => {
    if (!(await allowed(tx, locked, actor, 'escalate'))) {
      if (locked.page.status === 'resolved') throw conflict(INCIDENT_MESSAGES.alreadyResolved);
      throw conflict(INCIDENT_MESSAGES.escalateAcknowledged);
    }
    await escalateLocked(tx, deps, locked, actor, { ...input, now });
  });
}

/**
 * requireStillAt throws 409 INCIDENT_ALREADY_ESCALATED, naming the step it is at now, when a
 * locked incident has left `fromStep` (one-based), the step the person saw; nothing without it.
 */
export function requireStillAt(
  page: Pick<IncidentRow, 'stepIndex'>,
  fromStep: number | undefined,
  message: (step: number) => string = INCIDENT_MESSAGES.alreadyMoved,
): void {
  // Called under the incident row's lock: two presses from the same step queue for it, and the
  // second finds the step moved. Without it they escalated twice (1 → 3), and a replayed Slack
  // click once per replay.
  if (fromStep === undefined || fromStep === page.stepIndex + 1) return;
  throw new AppError(ErrorCodes.INCIDENT_ALREADY_ESCALATED, message(page.stepIndex + 1));
}

/**
 * escalateLocked: the escalation by hand of a locked open incident; with `fromStep`, only while it
 * is still at that step (requireStillAt, decision 236).
 */
export async function escalateLocked(
  tx: Tx,
  deps: IncidentDeps,
  locked: LockedIncident,
  actor: User,
  input: { reason: string; toStep?: number; fromStep?: number; now: Date },
): Promise<IncidentRow> {
  const { page } = locked;
  requireStillAt(page, input.fromStep);
  const moved = escalateByHand(page.policy, progressOf(page), input.now, input.toStep);
  if (!moved.ok) throw conflict(moved.message);
  const [eventId] = await allocateIds(tx, 'audit_events');
  await insertIncidentEvent(tx, {
    id: eventId,
    actorUserId: actor.id,
    action: 'incident.escalated',
    incidentId: page.id,
    details: {
      fromStep: page.stepIndex,
      toStep: moved.progress.stepIndex,
      loop: moved.progress.loop,
      automatic: false,
      ...sealReason(deps.cipher, eventId, input.reason),
    },
    at: input.now,
  });
  const after = await takeStep(tx, deps, locked, moved.progress, input.now, {
    automatic: false,
    actorId: actor.id,
    reason: input.reason,
  });
  await postIncident(tx, deps, {
    type: 'incident.escalated',
    incident: after,
    rotation: locked.rotation && { id: locked.rotation.id, name: locked.rotation.name },
    now: input.now,
  });
  return after;
}

/** escalateIncident: POST /api/incidents/{id}/escalate (toStep and fromStep one-based in the API). */
export async function escalateIncident(
  deps: IncidentDeps,
  actor: User,
  id: number,
  input: { reason: string; toStep?: number; fromStep?: number },
): Promise<Incident> {
  await escalateIncidentAs(deps, actor, id, {
    reason: input.reason,
    toStep: input.toStep === undefined ? undefined : input.toStep - 1,
    fromStep: input.fromStep,
  });
  return getIncident(deps, actor, id);
}

/**
 * reassignIncident gives an incident to one person: they are notified (with a link and a reply
 * code), it is with them alone, and the climb restarts from them: the policy's step 1 follows
 * after step 0's delay. An acknowledged incident is triggered again. 404 for an unknown person.
 */
export async function reassignIncident(
  deps: IncidentDeps,
  actor: User,
  id: number,
  input: { userId: number; reason?: string },
): Promise<Incident> {
  await reassignIncidentAs(deps, actor, id, input);
  return getIncident(deps, actor, id);
}

/** reassignIncidentAs: reassignIncident's change, answering nothing. */
export async function reassignIncidentAs(
  deps: IncidentDeps,
  actor: User,
  id: number,
  input: { userId: number; reason?: string },
): Promise<void> {
  await inIncident(deps, id, async (tx, locked, now) => {
    if (!(await allowed(tx, locked, actor, 'reassign'))) {
      throw conflict(INCIDENT_MESSAGES.alreadyResolved);
    }
    const { page } = locked;
    const people = await findUsers(tx, deps.cipher, [input.userId, page.pagedById]);
    const person = people.get(input.userId);
    if (!person) throw notFound(INCIDENT_MESSAGES.noPerson);
    const [eventId] = await allocateIds(tx, 'audit_events');
    await insertIncidentEvent(tx, {
      id: eventId,
      actorUserId: actor.id,
      action: 'incident.reassigned',
      incidentId: page.id,
      details: {
        toUserId: person.id,
        ...(input.reason ? sealReason(deps.cipher, eventId, input.reason) : {}),
      },
      at: now,
    });
    const progress = reachStep({ stepIndex: 0, loop: 0 }, now);
    const token = ackToken(deps.cipher, {
      pageId: page.id,
      targetUserId: person.id,
      stepStart: now,
    });
    await updateIncidentRow(tx, page.id, {
      status: 'escalated',
      escalatedAt: now,
      acknowledgedAt: null,
      acknowledgedById: null,
      exhaustedAt: null,
      stepIndex: progress.stepIndex,
      loop: progress.loop,
      stepStartedAt: progress.stepStartedAt,
      stepSkipped: false,
      assigneeIds: [person.id],
      notifiedIds: [...new Set([...page.notifiedIds, person.id])],
      targetUserId: person.id,
      ackTokenHash: hashAckToken(token),
    });
    const ruled = (
      await pagedRules(tx, [person], page.urgency as Urgency, {
        now,
        ready: readyMethods(deps.config),
      })
    ).get(person.id);
    await recordSkippedRules(tx, page.id, person.id, ruled, now);
    const replyCode = await replyCodeFor(tx, deps, {
      pageId: page.id,
      recipient: person,
      emailOnly: !pagedBySms(page.urgency as Urgency, ruled),
      now,
    });
    await announce(tx, deps, now, {
      type: 'page.escalated',
      key: `page:${page.id}:reassigned:${now.getTime()}`,
      at: now,
      page: pageRefOf(page),
      rotation: rotationRefOf(locked),
      told: [{ person: ruledPerson(person, ruled), as: 'to', ackToken: token, replyCode }],
      pagerName: await pagerNameOf(tx, page, people),
      message: pageMessageOf(page, deps.cipher),
      ...incidentFactsOf(page, deps.cipher),
      alert: null,
      pagedAt: page.createdAt,
      how: { kind: 'reassigned', actorName: actor.name, reason: input.reason ?? null },
    });
  });
}

/**
 * pagerNameOf: who paged, as a reassigned page names them: the person who raised the incident,
 * else the integration that did (issue 35: never "Someone" for an alert's incident).
 */
async function pagerNameOf(
  tx: Tx,
  page: IncidentRow,
  people: Map<number, User>,
): Promise<string | null> {
  if (page.pagedById !== null) return people.get(page.pagedById)?.name ?? null;
  if (page.integrationId === null) return null;
  return (await findIntegrationNames(tx, [page.integrationId])).get(page.integrationId) ?? null;
}

/**
 * raiseIncidentFor raises an incident for a person: on a rotation (who may page it may; a
 * suspended rotation or nobody on call is refused as a page is), or on an escalation policy alone
 * (incident managers and administrators, or a manager who manages the policy).
 */
export async function raiseIncidentFor(
  deps: IncidentDeps,
  actor: User,
  input: IncidentInput,
): Promise<Incident> {
  const id = await raiseIncidentAs(deps, actor, input);
  return getIncident(deps, actor, id);
}

/** raiseIncidentAs: raiseIncidentFor's change; answers the new incident's id. */
export async function raiseIncidentAs(
  deps: IncidentDeps,
  actor: User,
  input: IncidentInput,
): Promise<number> {
  const now = deps.clock.now();
  const urgency = (input.urgency ?? 'high') as Urgency;
  const fields = {
    raisedBy: actor,
    source: 'user' as const,
    title: input.title,
    message: input.title,
    severity: (input.severity ?? 'P2') as Severity,
    urgency,
    description: input.description,
    impact: input.impact,
    troubleshootingSteps: input.troubleshootingSteps,
    now,
  };
  return deps.database.db.transaction(async (tx) => {
    if (input.rotationId !== undefined) {
      const row = await lockRotationRow(tx, input.rotationId);
      if (!row) throw notFound('Rotation not found');
      const members = await listMembersWithRoles(tx, row.id);
      const managed = {
        createdById: row.createdById,
        memberUserIds: members.map((m) => m.member.userId),
      };
      if (!canPageRotation(actor, managed)) {
        throw forbidden(INCIDENT_MESSAGES.mayNotRaise);
      }
      const refusal = pageRefusal({
        type: row.type as 'fixed',
        suspended: row.suspended,
        currentOnCallUserId: row.holderUserId,
        members: members.map((m) => ({ userId: m.member.userId, order: m.member.order })),
      });
      if (refusal) throw refusalError(refusal);
      const raised = await raiseIncident(tx, deps, { ...fields, rotation: row });
      return raised.id;
    }
    const policyId = input.escalationPolicyId as number;
    const policy = await findPolicyRow(tx, policyId);
    if (!policy) throw notFound('Escalation policy not found');
    const users = await listRotationsUsingPolicies(tx, [policyId]);
    const facts = {
      createdById: policy.createdById,
      rotations: users.filter((r) => r.escalationPolicyId === policyId),
    };
    const may =
      hasRole(actor.roles, 'incident_manager') ||
      (hasRole(actor.roles, 'manager') && managesPolicy(actor, facts));
    if (!may) throw forbidden(INCIDENT_MESSAGES.mayNotRaise);
    const raised = await raiseIncident(tx, deps, { ...fields, rotation: null, policyId });
    return raised.id;
  });
}
