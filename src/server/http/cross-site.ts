import type { FastifyRequest } from 'fastify';
import { AppError, unauthenticated } from './errors';

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
 *   from gets no benefit of the doubt.
 * A request authenticated by a personal API token (decision 223; the app resolves it before this
 * check, and a token that does not resolve is refused with 401 first) passes: it carries no
 * ambient credential another site could borrow, since a browser sends an Authorization header to
 * another site only after asking first (CORS), and Baton answers no such question.
 */
export function refuseCrossSiteWrite(req: FastifyRequest, publicUrl: string | undefined): void {
  if (SAFE_METHODS.has(req.method)) return;
  if (isKeyedRoute(req)) return;
  if (req.principal?.via === 'token') return;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (!isOwnOrigin(origin, req, publicUrl)) throw new AppError('FORBIDDEN', CROSS_SITE_REFUSED);
    return;
  }
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin') return;
  if (fetchSite !== undefined) throw new AppError('FORBIDDEN', CROSS_SITE_REFUSED);
  if (carriesOwnSignature(req)) return;
  throw new AppError('FORBIDDEN', ORIGIN_REQUIRED);
}

/**
 * The routes a provider calls, authenticated by the provider's own signature of the request, not
 * by a cookie (decisions 201, 222): each route, the header that carries its signature. A provider's
 * server sends no Origin; a browser cannot send these headers to another site without asking
 * first (CORS), and Baton answers no such question.
 */
export const SIGNED_ROUTES: ReadonlyMap<string, string> = new Map([
  ['/api/twilio/sms', 'x-twilio-signature'],
  // Phone calls' callbacks (decision 252)
  ['/api/twilio/voice/:id/:token', 'x-twilio-signature'],
  ['/api/twilio/voice/:id/:token/gather', 'x-twilio-signature'],
  ['/api/twilio/voice/:id/:token/status', 'x-twilio-signature'],
  ['/api/slack/interactions', 'x-slack-signature'],
  ['/api/slack/commands', 'x-slack-signature'],
]);

export const SIGNATURE_REQUIRED = 'Request refused: this address accepts only signed requests.';

/**
 * A POST to a signed route that carries its signature header passes here: the route itself
 * verifies the signature before it reads anything, and refuses a wrong one (401). Without the
 * header it is refused here, with the same 401 (it is neither signed nor from Baton's pages).
 */
function carriesOwnSignature(req: FastifyRequest): boolean {
  if (req.method !== 'POST') return false;
  const header = SIGNED_ROUTES.get(req.routeOptions.url ?? '');
  if (header === undefined) return false;
  const signature = req.headers[header];
  if (typeof signature === 'string' && signature.length > 0) return true;
  throw unauthenticated(SIGNATURE_REQUIRED);
}

/**
 * The inbound alert endpoints (decision 211): monitoring tools post to them from servers, with no
 * Origin, and the integration key in the request (its body, Authorization header or query) is the
 * credential. No cookie counts there, so another site has nothing to forge with: without the key
 * a request is refused by the route, with it the sender is the key's holder wherever it runs.
 */
export const KEYED_ROUTE_PREFIX = '/api/alerts/';

export function isKeyedRoute(req: FastifyRequest): boolean {
  return (req.routeOptions.url ?? '').startsWith(KEYED_ROUTE_PREFIX);
}

function isOwnOrigin(origin: string, req: FastifyRequest, publicUrl?: string): boolean {
  if (publicUrl && origin === new URL(publicUrl).origin) return true;
  return origin === `${req.protocol}://${req.host}`;
}
