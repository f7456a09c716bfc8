import { hasRole, type Role } from './roles';

/**
 * The permission table of specification section 6: each action and the roles that may take it.
 * The server enforces it; the client uses it to show or hide controls. Admin counts as manager and
 * incident manager (hasRole); legacy 'member' is read as on-call before it gets here.
 */
export const PERMISSIONS = {
  'rotation.view': ['admin', 'manager', 'on-call', 'incident_manager'],
  'rotation.create': ['manager'],
  'rotation.edit': ['manager'],
  'rotation.delete': ['admin'],
  'rotation.changeType': ['admin'],
  'rotation.suspend': ['admin'],
  'schedule.manage': ['admin'],
  'member.add': ['manager'],
  'member.remove': ['manager'],
  'member.reorder': ['manager'],
  /** hold, take and pass the baton, ask for coverage; incident managers never hold it */
  'baton.hold': ['on-call', 'manager'],
  'baton.reassign': ['manager'],
  /** page the holder: incident managers and admins any rotation, managers their managed ones */
  'page.send': ['incident_manager', 'manager'],
  'page.viewHistory': ['admin', 'manager', 'on-call', 'incident_manager'],
  'handoff.viewHistory': ['admin', 'manager', 'on-call', 'incident_manager'],
  'audit.viewAdmin': ['admin'],
  'audit.export': ['admin'],
  'users.view': ['admin', 'manager', 'on-call', 'incident_manager'],
  'users.manage': ['admin'],
  'roles.change': ['admin'],
  'invitations.manage': ['admin'],
  'profile.editOwn': ['admin', 'manager', 'on-call', 'incident_manager'],
  'profile.editAny': ['admin'],
  'system.configure': ['admin'],
  'debug.view': ['admin'],
  /**
   * escalation policies (decision 202): everyone signed in reads, on-call members only the
   * policies of their rotations; managers create, and edit or delete the policies of rotations
   * they manage (managesPolicy)
   */
  'escalationPolicy.view': ['admin', 'manager', 'on-call', 'incident_manager'],
  'escalationPolicy.edit': ['manager'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof PERMISSIONS;

/** can tells whether any of the roles may take the action. */
export function can(roles: readonly Role[], action: Action): boolean {
  return PERMISSIONS[action].some((role) => hasRole(roles, role));
}
