import type { FastifyRequest } from 'fastify';
import { isKeyedRoute } from './cross-site';

/**
 * bearerTokenOf returns the token of an `Authorization: Bearer <token>` header: a personal API
 * token (decision 223), checked by the caller. The inbound alert routes are left alone: there a
 * bearer credential is an integration key, which those routes check themselves and which opens
 * nothing else (decision 211). Any other scheme (Basic, say) is not read at all.
 */
export function bearerTokenOf(req: FastifyRequest): string | undefined {
  if (isKeyedRoute(req)) return undefined;
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}
