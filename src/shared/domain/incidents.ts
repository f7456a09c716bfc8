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
    // Whoever may resolve an incident may take that back (decision 261).
    reopen: responder && incident.status === 'resolved',
  };
}

/** The times that say how an incident went, as its reads give them (ISO strings). */
export interface IncidentTimes {
  createdAt: string;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
}

/**
 * incidentTimings returns, in milliseconds from when the incident was raised, its time to
 * acknowledge and its time to resolve (null until it happened; a reopened incident counts from its
 * first raise to its last resolution, decision 261), and how long it has been open at `now`
 * (null once resolved).
 */
export function incidentTimings(
  incident: IncidentTimes,
  now: Date,
): { toAcknowledge: number | null; toResolve: number | null; openFor: number | null } {
  const raised = Date.parse(incident.createdAt);
  const since = (at: string | null) => (at === null ? null : Math.max(0, Date.parse(at) - raised));
  return {
    toAcknowledge: since(incident.acknowledgedAt),
    toResolve: since(incident.resolvedAt),
    openFor: incident.resolvedAt === null ? Math.max(0, now.getTime() - raised) : null,
  };
}

const MINUTE_MS = 60_000;

/**
 * durationWords returns a duration as an on-call screen states it, to the minute: 'under a
 * minute', '4 min', '1 h 5 min', '2 d 3 h' (days drop the minutes).
 */
export function durationWords(ms: number): string {
  const minutes = Math.floor(ms / MINUTE_MS);
  if (minutes < 1) return 'under a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}
