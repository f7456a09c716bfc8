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
