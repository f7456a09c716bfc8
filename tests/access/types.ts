/** Who calls a route in the permission test. */
export const CALLERS = ['anonymous', 'admin', 'manager', 'on-call', 'incident_manager'] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * RouteAccess says who may call one route. `allowed` callers must not get 401/403 (a 404 or 400
 * for the made-up ids below is fine); every other caller must get 401 (anonymous) or 403.
 * Routes check permission before they look anything up, so a denied caller never learns more.
 */
export interface RouteAccess {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** the route pattern as registered, e.g. /api/rotations/:id */
  route: string;
  /** a concrete URL to call, e.g. /api/rotations/999999 */
  url: string;
  body?: unknown;
  allowed: readonly Caller[] | 'everyone';
  /**
   * Routes whose credential travels in the request (an integration key), not in a session: every
   * caller, signed in or not, gets this same answer to the request above (decision 211).
   */
  status?: number;
}

export const SIGNED_IN = ['admin', 'manager', 'on-call', 'incident_manager'] as const;
export const ADMIN = ['admin'] as const;
export const MANAGERS = ['admin', 'manager'] as const;
