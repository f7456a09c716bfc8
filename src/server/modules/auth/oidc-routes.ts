import { timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AuthResponseSchema,
  FirebaseSignInInputSchema,
  OIDC_RESULT_MESSAGE,
  type OidcFailureReason,
  type OidcResult,
  SIGN_IN_MESSAGES,
} from '../../../shared/contracts/auth';
import type { AppDeps } from '../../core/deps';
import { isDatabaseBusy, isDatabaseUnavailable } from '../../http/database-unavailable';
import { AppError, notFound, unauthenticated } from '../../http/errors';
import { answers, content, noContent } from '../../http/openapi';
import {
  classifyProviderError,
  newFlowSecrets,
  oidcClientOf,
  ProviderError,
  providerAppError,
} from '../oidc/oidc-client';
import { CLOCK_SKEW_SECONDS, createKeySet, verifyIdToken } from '../oidc/oidc-verifier';
import type { TokenSyncStart } from '../token-sync/token-sync-service';
import { signInWithIdentity } from './auth-service';
import { POPUP_SCRIPT, POPUP_SCRIPT_PATH, popupPage } from './oidc-popup-page';
import { claimIdToken, replayKey } from './oidc-replay';

/** The cookie binding a sign-in popup's state, nonce and PKCE verifier to this browser. */
export const FLOW_COOKIE = 'baton_oidc';

/**
 * flowCookie names the flow cookie as sessionCookie names the session's (decision 162):
 * `__Host-baton_oidc` in production, which a browser keeps only Secure, on Path=/ and without a
 * Domain, so a sibling subdomain cannot plant its own flow in this browser (a sign-in as
 * someone else); `baton_oidc` elsewhere. Path=/ always, as the prefix requires.
 */
export function flowCookie(config: { isProduction: boolean }) {
  return {
    name: config.isProduction ? `__Host-${FLOW_COOKIE}` : FLOW_COOKIE,
    path: '/',
  };
}
const FLOW_TTL_MS = 10 * 60_000;
const FLOW_CONTEXT = { table: 'oidc_flow', column: 'cookie', rowId: 0 };

/** The sealed content of the flow cookie. */
interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  expiresAt: number;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What oidcRoutes needs beyond the app's: how a sign-in starts its session. */
type OidcDeps = AppDeps & {
  startSession: (reply: FastifyReply, userId: number, sync?: TokenSyncStart) => Promise<void>;
};

function sendPopup(reply: FastifyReply, status: number, result: OidcResult) {
  // The provider's page and this one must share a browsing context group, or the popup loses
  // its opener; the default policy of the rest of the app would cut it.
  return reply
    .code(status)
    .header('Cross-Origin-Opener-Policy', 'unsafe-none')
    .type('text/html; charset=utf-8')
    .send(popupPage(result));
}
const failure = (reason: OidcFailureReason, status: number, message: string): OidcResult => ({
  type: OIDC_RESULT_MESSAGE,
  ok: false,
  status,
  reason,
  message,
});

/**
 * The popup routes' error handler. The popup is a window of its own, so a refusal raised before
 * the handler runs (the rate limit's 429, a database outage while reading the session) ends on
 * the popup's page, which tells the main window, instead of raw JSON (decision 150). Every
 * other /api route keeps the app's JSON error shape.
 */
function popupErrorHandler(err: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    const denied = err.status === 401 || err.status === 403;
    return sendPopup(
      reply,
      err.status,
      failure(denied ? 'denied' : 'failed', err.status, err.message),
    );
  }
  const status = err.statusCode ?? 500;
  if (status === 429) return sendPopup(reply, 429, failure('rate_limited', 429, err.message));
  if (status < 500) {
    return sendPopup(reply, status, failure('failed', status, SIGN_IN_MESSAGES.problem));
  }
  const unavailable = isDatabaseUnavailable(err) || isDatabaseBusy(err);
  req.log.error({ err }, unavailable ? 'database unavailable' : 'OpenID Connect popup failed');
  const code = unavailable ? 503 : 500;
  return sendPopup(reply, code, failure('failed', code, SIGN_IN_MESSAGES.problem));
}
/**
 * popupAnswers: the popup's pages answer in HTML whatever happens: what they tell the main window
 * is the result. Made for each app, as the routes' other answers are.
 */
function popupAnswers() {
  const popupAnswer = content('text/html', 'The popup page: it tells the main window the result.');
  return {
    200: popupAnswer,
    400: popupAnswer,
    401: popupAnswer,
    403: popupAnswer,
    404: popupAnswer,
    429: popupAnswer,
    '5xx': popupAnswer,
  };
}

/** What the popup's routes share: the provider's client, the flow cookie and the route options. */
interface Popup {
  deps: OidcDeps;
  oidc: ReturnType<typeof oidcClientOf>;
  flowCookieOf: ReturnType<typeof flowCookie>;
  route: {
    config: { rateLimit: object };
    errorHandler: typeof popupErrorHandler;
  };
  answers: ReturnType<typeof popupAnswers>;
}

/**
 * oidcRoutes: the sign-in popup (GET /api/auth/oidc/start → the provider → GET
 * /api/auth/oidc/callback, a page that tells the main window and closes) and POST
 * /api/auth/firebase for an ID token the client already holds (decision 010).
 */
export async function oidcRoutes(app: FastifyInstance, deps: OidcDeps) {
  const { config } = deps;
  const POPUP_RATE_LIMIT = {
    rateLimit: {
      max: 2 * config.signInRateLimit,
      timeWindow: '1 minute',
      // Read by popupErrorHandler, which shows it on the popup's own page.
      errorResponseBuilder: (_req: FastifyRequest, ctx: { ttl: number }) => ({
        statusCode: 429,
        code: 'RATE_LIMITED',
        message: `Too many sign-in attempts. Try again in ${Math.ceil(ctx.ttl / 1000)} seconds.`,
      }),
    },
  };
  const oidc = oidcClientOf(config);
  const popup: Popup = {
    deps,
    oidc,
    flowCookieOf: flowCookie(config),
    route: { config: POPUP_RATE_LIMIT, errorHandler: popupErrorHandler },
    answers: popupAnswers(),
  };

  app.get(
    POPUP_SCRIPT_PATH,
    {
      schema: {
        security: [],
        response: answers({ 200: content('text/javascript', "The popup page's script.") }),
      },
    },
    async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(POPUP_SCRIPT),
  );
  popupStartRoute(app, popup);
  popupCallbackRoute(app, popup);
  idTokenSignInRoute(app, deps, oidc);
}

const baseUrl = (deps: OidcDeps, req: FastifyRequest) =>
  deps.config.publicUrl ?? `${req.protocol}://${req.host}`;

/** popupStartRoute: GET /api/auth/oidc/start seals a new flow in a cookie and goes to the provider. */
function popupStartRoute(app: FastifyInstance, popup: Popup) {
  const { deps, oidc, flowCookieOf } = popup;
  const { config, cipher, clock } = deps;
  app.get(
    '/api/auth/oidc/start',
    {
      ...popup.route,
      schema: {
        security: [],
        response: answers({
          ...popup.answers,
          302: noContent('To the identity provider, the flow bound to this browser by a cookie.'),
        }),
      },
    },
    async (req, reply) => {
      if (!oidc) {
        return sendPopup(reply, 404, failure('failed', 404, SIGN_IN_MESSAGES.notConfigured));
      }
      const secrets = newFlowSecrets();
      const redirectUri = `${baseUrl(deps, req)}/api/auth/oidc/callback`;
      let url: string;
      try {
        url = await oidc.authorizationUrl({ ...secrets, redirectUri });
      } catch (err) {
        req.log.warn({ err }, 'OpenID Connect discovery failed');
        return sendPopup(reply, 502, failure('failed', 502, SIGN_IN_MESSAGES.problem));
      }
      const flow: Flow = {
        state: secrets.state,
        nonce: secrets.nonce,
        verifier: secrets.verifier,
        redirectUri,
        expiresAt: clock.now().getTime() + FLOW_TTL_MS,
      };
      reply.setCookie(flowCookieOf.name, cipher.encrypt(JSON.stringify(flow), FLOW_CONTEXT), {
        path: flowCookieOf.path,
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level GET navigation, which carries it.
        sameSite: 'lax',
        secure: config.isProduction,
        maxAge: FLOW_TTL_MS / 1000,
      });
      reply.header('Cross-Origin-Opener-Policy', 'unsafe-none');
      return reply.redirect(url, 302);
    },
  );
}

/** readFlow opens this browser's flow cookie, or null when it is missing, forged or expired. */
function readFlow(popup: Popup, req: FastifyRequest): Flow | null {
  const { cipher, clock } = popup.deps;
  const sealed = req.cookies[popup.flowCookieOf.name];
  if (!sealed || sealed.length > 4096) return null;
  try {
    const flow = JSON.parse(cipher.decrypt(sealed, FLOW_CONTEXT)) as Flow;
    return flow.expiresAt > clock.now().getTime() ? flow : null;
  } catch {
    return null;
  }
}

/**
 * popupCallbackRoute: GET /api/auth/oidc/callback checks the provider's answer against this
 * browser's flow, exchanges the code, verifies the ID token and starts the session.
 */
function popupCallbackRoute(app: FastifyInstance, popup: Popup) {
  const { deps, oidc, flowCookieOf } = popup;
  const { config, database, cipher, clock, startSession } = deps;
  const signInDeps = { db: database.db, cipher, clock };
  app.get(
    '/api/auth/oidc/callback',
    { ...popup.route, schema: { security: [], response: answers(popup.answers) } },
    async (req, reply) => {
      if (!oidc) {
        return sendPopup(reply, 404, failure('failed', 404, SIGN_IN_MESSAGES.notConfigured));
      }
      const query = req.query as Record<string, unknown>;
      const param = (name: string) => (typeof query[name] === 'string' ? query[name] : undefined);
      const flow = readFlow(popup, req);
      // Single use: whatever happens next, this browser's flow is over.
      reply.clearCookie(flowCookieOf.name, { path: flowCookieOf.path });
      const state = param('state');
      if (!flow || !state || !sameSecret(state, flow.state)) {
        return sendPopup(
          reply,
          400,
          failure(
            'failed',
            400,
            'The sign-in expired or was started in another window. Please try again.',
          ),
        );
      }
      const error = param('error');
      if (error) {
        req.log.info({ error }, 'the identity provider refused the sign-in');
        return classifyProviderError(error) === 'refused'
          ? sendPopup(
              reply,
              400,
              failure('provider_refused', 400, SIGN_IN_MESSAGES.operationNotAllowed),
            )
          : sendPopup(reply, 400, failure('provider_error', 400, SIGN_IN_MESSAGES.failed));
      }
      const code = param('code');
      if (!code) return sendPopup(reply, 400, failure('failed', 400, SIGN_IN_MESSAGES.problem));
      try {
        const issuers = await oidc.issuers();
        // RFC 9207: when the provider names itself in the response, it must be ours.
        const iss = param('iss');
        if (iss !== undefined && !issuers.includes(iss)) {
          return sendPopup(reply, 400, failure('failed', 400, SIGN_IN_MESSAGES.problem));
        }
        const { idToken, refreshToken } = await oidc.exchangeCode({
          code,
          iss,
          redirectUri: flow.redirectUri,
          verifier: flow.verifier,
          nonce: flow.nonce,
          now: clock.now(),
        });
        const identity = await verifyIdToken(idToken, {
          issuers,
          audience: oidc.settings.clientId,
          keys: await oidc.keys(),
          now: clock.now(),
          companyDomain: config.companyDomain,
          expectedNonce: flow.nonce,
        });
        const user = await signInWithIdentity(signInDeps, identity);
        await startSession(reply, user.id, { source: 'oidc', idToken, refreshToken });
        req.log.info({ userId: user.id }, 'signed in with OpenID Connect');
        return sendPopup(reply, 200, { type: OIDC_RESULT_MESSAGE, ok: true });
      } catch (err) {
        if (err instanceof ProviderError) {
          req.log.warn({ err }, 'OpenID Connect sign-in failed at the provider');
          return err.kind === 'refused'
            ? sendPopup(
                reply,
                400,
                failure('provider_refused', 400, SIGN_IN_MESSAGES.operationNotAllowed),
              )
            : sendPopup(reply, 502, failure('failed', 502, SIGN_IN_MESSAGES.problem));
        }
        if (err instanceof AppError) {
          // The message can name the person (their email address): log the code only.
          req.log.info({ code: err.code, status: err.status }, 'OpenID Connect sign-in refused');
          const denied = err.status === 401 || err.status === 403;
          return sendPopup(
            reply,
            err.status,
            failure(denied ? 'denied' : 'failed', err.status, err.message),
          );
        }
        req.log.error({ err }, 'OpenID Connect sign-in failed');
        return sendPopup(reply, 500, failure('failed', 500, SIGN_IN_MESSAGES.problem));
      }
    },
  );
}

/** idTokenSignInRoute: POST /api/auth/firebase signs in with an ID token the client holds. */
function idTokenSignInRoute(
  app: FastifyInstance,
  deps: OidcDeps,
  oidc: ReturnType<typeof oidcClientOf>,
) {
  const { config, database, cipher, clock, startSession } = deps;
  const { firebaseProjectId, firebaseJwksUrl } = config.oidc;
  const SIGN_IN_RATE_LIMIT = { rateLimit: { max: config.signInRateLimit, timeWindow: '1 minute' } };
  const firebaseKeys = firebaseProjectId ? createKeySet(firebaseJwksUrl) : null;
  const signInDeps = { db: database.db, cipher, clock };

  /** The issuer, audience and keys POST /api/auth/firebase verifies against, or null. */
  type TokenVerification = NonNullable<Awaited<ReturnType<typeof tokenVerification>>>;
  async function tokenVerification() {
    if (firebaseProjectId && firebaseKeys) {
      return {
        issuers: [`https://securetoken.google.com/${firebaseProjectId}`],
        audience: firebaseProjectId,
        keys: firebaseKeys,
        firebase: true,
      };
    }
    if (!oidc) return null;
    try {
      return {
        issuers: await oidc.issuers(),
        audience: oidc.settings.clientId,
        keys: await oidc.keys(),
        firebase: false,
      };
    } catch (err) {
      if (err instanceof ProviderError) throw providerAppError(err);
      throw err;
    }
  }

  // Whether this server verifies ID tokens at all is answered before the body is read.
  const verifications = new WeakMap<FastifyRequest, TokenVerification>();
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/auth/firebase',
    {
      config: SIGN_IN_RATE_LIMIT,
      preValidation: async (req) => {
        const verification = await tokenVerification();
        if (!verification) throw notFound(SIGN_IN_MESSAGES.notConfigured);
        verifications.set(req, verification);
      },
      schema: {
        security: [],
        body: FirebaseSignInInputSchema,
        response: answers({ 200: AuthResponseSchema }, 400, 401, 403, 404, 429),
      },
    },
    async (req, reply) => {
      const verification = verifications.get(req) as TokenVerification;
      const { token } = req.body;
      const now = clock.now();
      const { firebase: _firebase, ...verifyAgainst } = verification;
      const identity = await verifyIdToken(token, {
        ...verifyAgainst,
        now,
        companyDomain: config.companyDomain,
      });
      // A token is good for one sign-in (decision 011): a replay is refused until it expires.
      const rememberUntil = new Date(identity.expiresAt.getTime() + CLOCK_SKEW_SECONDS * 1000);
      if (!(await claimIdToken(database.db, replayKey(token, identity), rememberUntil, now))) {
        throw unauthenticated('This sign-in token was already used. Please sign in again.');
      }
      const user = await signInWithIdentity(signInDeps, identity);
      // No refresh token comes with an exchanged token: the companion gets this one, and the
      // DELETE at the end (decision 228).
      await startSession(reply, user.id, {
        source: verification.firebase ? 'firebase' : 'oidc',
        idToken: token,
      });
      req.log.info({ userId: user.id }, 'signed in with an ID token');
      return { user };
    },
  );
}
