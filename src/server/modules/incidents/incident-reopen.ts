import type { Incident, ReopenIncidentInput } from '../../../shared/contracts/incidents';
import { INCIDENT_MESSAGES } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { allocateIds } from '../../db/ids';
import { conflict } from '../../http/errors';
import { sealReason } from '../audit/audit-sealed';
import { allowed, inIncident } from './incident-actions';
import { takeStep } from './incident-engine';
import { type IncidentDeps, rotationRefOf } from './incident-facts';
import { getIncident } from './incident-reads';
import { insertIncidentEvent, updateIncidentRow } from './incident-repository';

/**
 * reopenIncidentAs takes a resolved incident back to triggered (decision 261): who may resolve it
 * may reopen it (a responder, 403 otherwise); anything but a resolved incident is a 409. In one
 * transaction under the incident row's lock: the 'incident.reopened' event (the reason sealed),
 * the row cleared of its acknowledgement, resolution and exhaustion, and its copy of the policy
 * climbed again from step 1, whose people are paged afresh with new links.
 */
export async function reopenIncidentAs(
  deps: IncidentDeps,
  actor: User,
  id: number,
  input: ReopenIncidentInput,
): Promise<void> {
  await inIncident(deps, id, async (tx, locked, now) => {
    if (!(await allowed(tx, locked, actor, 'reopen'))) {
      throw conflict(INCIDENT_MESSAGES.notResolved);
    }
    const { page } = locked;
    const reason = input?.reason || undefined;
    const [eventId] = await allocateIds(tx, 'audit_events');
    await insertIncidentEvent(tx, {
      id: eventId,
      actorUserId: actor.id,
      action: 'incident.reopened',
      incidentId: page.id,
      details: {
        rotationName: rotationRefOf(locked).name,
        ...(reason ? sealReason(deps.cipher, eventId, reason) : {}),
      },
      at: now,
    });
    const reopened = await updateIncidentRow(tx, page.id, {
      status: 'triggered',
      resolvedAt: null,
      resolvedById: null,
      acknowledgedAt: null,
      acknowledgedById: null,
      exhaustedAt: null,
      // Step 1's links start now (linkStartOf): the raise's expired a day after it.
      escalatedAt: now,
      stepIndex: 0,
      loop: 0,
      stepStartedAt: now,
      stepSkipped: false,
      assigneeIds: [],
    });
    // The climb starts over: step 1's people now, then each step after its delay, as at raise.
    await takeStep(tx, deps, { ...locked, page: reopened }, { stepIndex: 0, loop: 0 }, now, {
      automatic: false,
      actorId: actor.id,
      reopened: true,
    });
  });
}

/** reopenIncident: POST /api/incidents/{id}/reopen. */
export async function reopenIncident(
  deps: IncidentDeps,
  actor: User,
  id: number,
  input: ReopenIncidentInput,
): Promise<Incident> {
  await reopenIncidentAs(deps, actor, id, input);
  return getIncident(deps, actor, id);
}
