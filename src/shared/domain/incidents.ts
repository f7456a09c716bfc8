import type { IncidentStatus } from '../contracts/incidents';
import type { PageStatus } from './paging';
import { type ManagedRotationFacts, managesRotation } from './permissions-rotation';
import { type Actor, hasRole } from './roles';

/**
 * Who may do what to an incident (issue 16, decision 204), and how a page's status reads as an
 * incident's. Pure: the server decides under the incident row's lock with these, and the screens
 * show the same buttons.
 */

/** incidentStatusOf: a page's 'escalated' is still waiting for a person, so 'triggered'. */
export function incidentStatusOf(status: PageStatus): IncidentStatus {
  return status === 'escalated' ? 'triggered' : status;
}

/** The facts of an incident that decide who may act on it. */
export interface IncidentFacts {
  status: PageStatus;
  /** who raised it (null: a machine, or a deleted person) */
  raisedById: number | null;
  /** everyone it has notified so far */
  notifiedIds: readonly number[];
  /** its rotation's management facts; null for an incident raised on a policy alone */
  rotation: ManagedRotationFacts | null;
}

/**
 * isIncidentResponder tells whether the actor answers for an incident: administrators and
 * incident managers any; managers the incidents of rotations they manage; anyone it notified;
 * the person who raised it.
 */
export function isIncidentResponder(actor: Actor, incident: IncidentFacts): boolean {
  if (hasRole(actor.roles, 'incident_manager')) return true; // admin counts as incident manager
  if (incident.notifiedIds.includes(actor.id)) return true;
  if (incident.raisedById === actor.id) return true;
  return (
    hasRole(actor.roles, 'manager') &&
    incident.rotation !== null &&
    managesRotation(actor, incident.rotation)
  );
}

const isOpen = (status: PageStatus) => status === 'triggered' || status === 'escalated';

/** What the actor may do to the incident now. */
export function incidentActions(actor: Actor, incident: IncidentFacts) {
  const responder = isIncidentResponder(actor, incident);
  const open = isOpen(incident.status);
  return {
    acknowledge: responder && open,
    resolve: responder && incident.status !== 'resolved',
    escalate: responder && open,
    reassign: responder && incident.status !== 'resolved',
    addNote: responder,
  };
}
