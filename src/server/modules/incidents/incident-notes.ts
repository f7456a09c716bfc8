import { INCIDENT_MESSAGES, type Incident } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { incidentActions } from '../../../shared/domain/incidents';
import type { PageStatus } from '../../../shared/domain/paging';
import { allocateIds } from '../../db/ids';
import { forbidden, notFound } from '../../http/errors';
import { listRotationMemberIds } from '../members/member-reads';
import type { IncidentDeps } from './incident-facts';
import { getIncident } from './incident-reads';
import { insertIncidentEvent, lockIncidentRow } from './incident-repository';
import { sealNote } from './incident-text';

/**
 * addIncidentNote adds a responder's note to an incident's timeline (decision 205): an
 * 'incident.note' event whose text is sealed in its details (as an escalation reason is: `reasonEnc`, bound to the event's id),
 * in one transaction under the incident row's lock. 404 before 403. Answers the incident.
 */
export async function addIncidentNote(
  deps: IncidentDeps,
  actor: User,
  incidentId: number,
  text: string,
): Promise<Incident> {
  await deps.database.db.transaction(async (tx) => {
    const found = await lockIncidentRow(tx, incidentId);
    if (!found) throw notFound(INCIDENT_MESSAGES.notFound);
    const { page, rotation } = found;
    const members = rotation ? await listRotationMemberIds(tx, [rotation.id]) : new Map();
    const may = incidentActions(actor, {
      status: page.status as PageStatus,
      raisedById: page.pagedById,
      notifiedIds: page.notifiedIds,
      rotation: rotation
        ? { createdById: rotation.createdById, memberUserIds: members.get(rotation.id) ?? [] }
        : null,
    });
    if (!may.addNote) throw forbidden(INCIDENT_MESSAGES.mayNotAct);
    // The note is what people type about the incident: sealed, bound to its event (decision 163).
    const [eventId] = await allocateIds(tx, 'audit_events');
    await insertIncidentEvent(tx, {
      id: eventId,
      actorUserId: actor.id,
      action: 'incident.note',
      incidentId: page.id,
      details: sealNote(deps.cipher, eventId, text),
      at: deps.clock.now(),
    });
  });
  return getIncident(deps, actor, incidentId);
}
