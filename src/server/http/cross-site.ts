import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** The methods that change nothing; every other method is a state change (decision 160). */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CROSS_SITE_REFUSED = 'Cross-site request refused.';
export const ORIGIN_REQUIRED =
  "Request refused: a change must come from Baton's own pages, and this request says neither where it comes from (no Origin header) nor that it is same-origin (Sec-Fetch-Site).";

/**
 * refuseCrossSiteWrite throws a 403 unless a state-changing request provably comes from Baton's
 * own pages (decision 160):
 * - with an Origin header, it must be Baton's own origin (PUBLIC_URL's, or the request's own);
 * - without one, `Sec-Fetch-Site: same-origin` (set by the browser, never by a page's script)
 *   must say so;
 * - otherwise the request is refused, cookie or not: a form or a client that hides where it comes
 *   from gets no benefit of the doubt. A request authenticated by a bearer token (not by an ambient
 *   cookie) cannot be forged by another site; when Baton has bearer tokens, `carriesBearerToken`
 *   is where they pass.
 */
export function refuseCrossSiteWrite(req: FastifyRequest, publicUrl: string | undefined): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (!isOwnOrigin(origin, req, publicUrl)) throw new AppError('FORBIDDEN', CROSS_SITE_REFUSED);
    return;
  }
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin') return;
  if (fetchSite !== undefined) throw new AppError('FORBIDDEN', CROSS_SITE_REFUSED);
  if (carriesBearerToken(req)) return;
  throw new AppError('FORBIDDEN', ORIGIN_REQUIRED);
}

/**
 * The hook for bearer tokens (API tokens for scripts and integrations): Baton issues none yet, so
 * no request passes here. When it does, verify the `Authorization: Bearer` token here; a token
 * that is present but invalid must not pass.
 */
function carriesBearerToken(_req: FastifyRequest): boolean {
  return false;
}

function isOwnOrigin(origin: string, req: FastifyRequest, publicUrl?: string): boolean {
  if (publicUrl && origin === new URL(publicUrl).origin) return true;
  return origin === `${req.protocol}://${req.host}`;
}
