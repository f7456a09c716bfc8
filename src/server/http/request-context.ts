import type { FastifyRequest } from 'fastify';
import type { User } from '../../shared/contracts/users';
import { type Action, can } from '../../shared/domain/permissions';
import { forbidden, unauthenticated } from './errors';

export interface Principal {
  user: User;
  tokenHash: string;
  /** the database snapshot (`pg_current_snapshot()`) the session was read in (decision 140) */
  snapshot: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in user, from the server-side session only; null when signed out */
    principal: Principal | null;
  }
}

/** requireUser returns the signed-in user or throws 401. */
export function requireUser(req: FastifyRequest): User {
  if (!req.principal) throw unauthenticated();
  return req.principal.user;
}

/** requirePermission returns the signed-in user when the permission table lets them take the action. */
export function requirePermission(req: FastifyRequest, action: Action): User {
  const user = requireUser(req);
  if (!can(user.roles, action)) throw forbidden();
  return user;
}

/**
 * Route guards: a route names who may call it as its `preValidation` hook, so a caller who may
 * not is refused (401, 403) before the route's schema reads the input, and learns nothing from
 * a validation message (decision 190). The handler then reads the user with `requireUser`.
 */
export const signedIn = async (req: FastifyRequest): Promise<void> => {
  requireUser(req);
};

/** permitted is the guard of a route for one action of the shared permission table. */
export function permitted(action: Action) {
  return async (req: FastifyRequest): Promise<void> => {
    requirePermission(req, action);
  };
}
