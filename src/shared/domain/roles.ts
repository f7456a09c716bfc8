/** The four roles of the product; 'member' is the legacy spelling of 'on-call'. */
export const ROLES = ['admin', 'manager', 'on-call', 'incident_manager'] as const;
export type Role = (typeof ROLES)[number];
const LEGACY_MEMBER_ROLE = 'member';

/** ROLE_LABELS are the names users see for each role. */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  manager: 'Manager',
  'on-call': 'On-Call',
  incident_manager: 'Incident Manager',
};

/** isRole tells whether a string is one of the four roles. */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** normalizeRole reads a stored role, the legacy 'member' as 'on-call'; unknown values give null. */
export function normalizeRole(value: string | null | undefined): Role | null {
  if (!value) return null;
  if (value === LEGACY_MEMBER_ROLE) return 'on-call';
  return isRole(value) ? value : null;
}

/**
 * effectiveRoles returns a user's roles from the roles list, falling back to the legacy single
 * role, and to 'on-call' when neither holds anything known.
 */
export function effectiveRoles(
  roles: readonly string[] | null | undefined,
  role?: string | null,
): Role[] {
  const out = new Set<Role>();
  for (const r of roles ?? []) {
    const n = normalizeRole(r);
    if (n) out.add(n);
  }
  if (out.size === 0) {
    const n = normalizeRole(role);
    if (n) out.add(n);
  }
  if (out.size === 0) out.add('on-call');
  return ROLES.filter((r) => out.has(r));
}

/** Actor is the user asking: their id and effective roles (decision 243: the one caller type). */
export interface Actor {
  id: number;
  roles: readonly Role[];
}

/** primaryRole returns the single role shown where one is asked for: the most privileged held. */
export function primaryRole(roles: readonly Role[]): Role {
  return ROLES.find((r) => roles.includes(r)) ?? 'on-call';
}

/** hasRole tells whether the roles grant `wanted`; admin counts as manager and incident manager. */
export function hasRole(roles: readonly Role[], wanted: Role): boolean {
  if (roles.includes(wanted)) return true;
  return roles.includes('admin') && (wanted === 'manager' || wanted === 'incident_manager');
}

/** isAdmin tells whether the roles include admin. */
export function isAdmin(roles: readonly Role[]): boolean {
  return roles.includes('admin');
}
