import { type Actor, hasRole } from './roles';

/** The rotation facts that decide whether a manager manages it. */
export interface ManagedRotationFacts {
  createdById: number | null;
  memberUserIds: readonly number[];
}

/**
 * managesRotation tells whether a manager manages a rotation: they created it or are one of its
 * members (decision 013).
 */
export function managesRotation(actor: Actor, rotation: ManagedRotationFacts): boolean {
  return rotation.createdById === actor.id || rotation.memberUserIds.includes(actor.id);
}

/** The message a refused change to a rotation one does not manage answers with (decision 233). */
export const NOT_MANAGED_MESSAGE = 'Managers can change only the rotations they manage.';

/**
 * canManageRotation tells whether the actor may change a rotation, its members, its baton and
 * what hangs off it (decision 233): administrators any rotation, managers only the rotations they
 * manage (managesRotation), nobody else.
 */
export function canManageRotation(actor: Actor, rotation: ManagedRotationFacts): boolean {
  if (hasRole(actor.roles, 'admin')) return true;
  return hasRole(actor.roles, 'manager') && managesRotation(actor, rotation);
}

/**
 * canPageRotation tells whether the actor may page a rotation's holder: administrators and
 * incident managers any rotation, managers only the rotations they manage, nobody else.
 */
export function canPageRotation(actor: Actor, rotation: ManagedRotationFacts): boolean {
  if (hasRole(actor.roles, 'incident_manager')) return true; // admin counts as incident manager
  if (hasRole(actor.roles, 'manager')) return managesRotation(actor, rotation);
  return false;
}

/** A policy's facts that decide who may read and edit it: the rotations that follow it. */
export interface PolicyFacts {
  createdById: number | null;
  rotations: readonly ManagedRotationFacts[];
}

/**
 * canReadPolicy tells whether the actor may read an escalation policy (decision 202):
 * administrators, managers and incident managers every policy; anyone else (on-call members) the
 * policies of the rotations they are members of.
 */
export function canReadPolicy(actor: Actor, policy: PolicyFacts): boolean {
  if (hasRole(actor.roles, 'manager') || hasRole(actor.roles, 'incident_manager')) return true;
  return policy.rotations.some((r) => r.memberUserIds.includes(actor.id));
}

/**
 * managesPolicy tells whether the actor may change or delete an escalation policy (decision 202):
 * administrators any; a manager a policy of rotations they manage, which is a policy every
 * rotation following it is one they manage (so a shared policy cannot change under a team that
 * does not answer to them), or, while no rotation follows it, one they created.
 */
export function managesPolicy(actor: Actor, policy: PolicyFacts): boolean {
  if (hasRole(actor.roles, 'admin')) return true;
  if (!hasRole(actor.roles, 'manager')) return false;
  if (policy.rotations.length === 0) return policy.createdById === actor.id;
  return policy.rotations.every((r) => managesRotation(actor, r));
}

/**
 * canArrangeCover tells whether the actor may arrange cover for someone else in a rotation
 * (decision 218): administrators in any, managers in the rotations they manage.
 */
export function canArrangeCover(actor: Actor, rotation: ManagedRotationFacts): boolean {
  return canManageRotation(actor, rotation);
}
