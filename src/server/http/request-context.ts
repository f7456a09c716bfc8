import type { FastifyRequest } from 'fastify';
import type { ApiTokenScope } from '../../shared/contracts/api-tokens';
import type { User } from '../../shared/contracts/users';
import { API_TOKEN_MESSAGES } from '../../shared/domain/api-tokens';
import { type Action, can } from '../../shared/domain/permissions';
import { forbidden, unauthenticated } from './errors';

export interface Principal {
  user: User;
  /** how the request proved who it is: the session cookie, or a personal API token (decision 223) */
  via: 'session' | 'token';
  /** the session's or the API token's hash (the live stream re-checks it) */
  tokenHash: string;
  /** an API token's id and scope; absent for a session */
  apiToken?: { id: number; scope: ApiTokenScope };
  /** the database snapshot (`pg_current_snapshot()`) the session was read in (decision 140) */
  snapshot: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in user, from the server-side session or a personal API token; null when neither */
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

/**
 * signedInSession is the guard of the routes that manage API tokens: a signed-in session only,
 * never a request made with a token (decision 223), so a leaked token cannot mint others.
 */
export const signedInSession = async (req: FastifyRequest): Promise<void> => {
  requireUser(req);
  if (req.principal?.via === 'token') throw forbidden(API_TOKEN_MESSAGES.sessionOnly);
};

/** permittedInSession is signedInSession with one action of the permission table. */
export function permittedInSession(action: Action) {
  return async (req: FastifyRequest): Promise<void> => {
    requirePermission(req, action);
    if (req.principal?.via === 'token') throw forbidden(API_TOKEN_MESSAGES.sessionOnly);
  };
}
