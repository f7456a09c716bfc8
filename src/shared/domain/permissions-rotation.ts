import { hasRole, type Role } from './roles';

/** The rotation facts that decide whether a manager manages it. */
export interface ManagedRotationFacts {
  createdById: number | null;
  memberUserIds: readonly number[];
}

/** The caller, as the permission rules see them. */
export interface RotationActor {
  roles: readonly Role[];
  userId: number;
}

/**
 * managesRotation tells whether a manager manages a rotation: they created it or are one of its
 * members (decision 013).
 */
export function managesRotation(actor: RotationActor, rotation: ManagedRotationFacts): boolean {
  return rotation.createdById === actor.userId || rotation.memberUserIds.includes(actor.userId);
}

/**
 * canPageRotation tells whether the actor may page a rotation's holder: administrators and
 * incident managers any rotation, managers only the rotations they manage, nobody else.
 */
export function canPageRotation(actor: RotationActor, rotation: ManagedRotationFacts): boolean {
  if (hasRole(actor.roles, 'incident_manager')) return true; // admin counts as incident manager
  if (hasRole(actor.roles, 'manager')) return managesRotation(actor, rotation);
  return false;
}
