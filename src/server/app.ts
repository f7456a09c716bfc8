import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import type { ApiTokenScope } from '../shared/contracts/api-tokens';
import { API_TOKEN_MESSAGES, scopeAllows } from '../shared/domain/api-tokens';
import type { AppDeps } from './core/deps';
import { Lifecycle, SHUTDOWN_RETRY_AFTER_SECONDS, SHUTTING_DOWN } from './core/lifecycle';
import { BATON_VERSION } from './core/version';
import { hashToken } from './crypto/bearer-secrets';
import { checkAnswer } from './http/answer-check';
import { isAppPageRequest, pageWithSession } from './http/app-page';
import { bearerTokenOf } from './http/bearer-token';
import { refuseCrossSiteWrite, SAFE_METHODS } from './http/cross-site';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseBusy,
  isDatabaseUnavailable,
} from './http/database-unavailable';
import { serializeLoggedError } from './http/error-log';
import { AppError, inputError, unauthenticated } from './http/errors';
import { openApiRoutes, registerOpenApi } from './http/openapi';
import { databaseRateLimitStore } from './http/rate-limit-store';
import { READ_CACHE_MAX_AGE_MS, ReadCache } from './http/read-cache';
import type { Principal } from './http/request-context';
import { isReservedPath } from './http/reserved-paths';
import {
  clientErrorHandler,
  frameworkErrors,
  helmetOptions,
  securityHeaders,
} from './http/security-headers';
import { alertRoutes } from './modules/alerts/alert-routes';
import { integrationAlertRoutes } from './modules/alerts/integration-alert-routes';
import { apiTokenRoutes } from './modules/api-tokens/api-token-routes';
import { resolveApiToken } from './modules/api-tokens/api-token-service';
import { auditRoutes } from './modules/audit/audit-routes';
import { authRoutes } from './modules/auth/auth-routes';
import { calendarRoutes } from './modules/calendar/calendar-routes';
import { coverageRoutes, requestCoverageRoutes } from './modules/coverage/coverage-routes';
import type { RotationsRead } from './modules/debug/debug-repository';
import { debugRoutes } from './modules/debug/debug-routes';
import {
  destinationDeliveryRoutes,
  destinationRoutes,
} from './modules/destinations/destination-routes';
import { escalationPolicyRoutes } from './modules/escalation-policies/escalation-policy-routes';
import { handoffRoutes } from './modules/handoffs/handoff-routes';
import { healthRoutes } from './modules/health/health-routes';
import { helpRoutes } from './modules/help/help-routes';
import { importRoutes } from './modules/imports/import-routes';
import { IMPORT_READERS, type ImportReaders } from './modules/imports/readers';
import { incidentActionRoutes } from './modules/incidents/incident-action-routes';
import { incidentRoutes, rotationPageRoutes } from './modules/incidents/incident-routes';
import { integrationRoutes } from './modules/integrations/integration-routes';
import { invitationRoutes } from './modules/invitations/invitation-routes';
import { LiveHub } from './modules/live/live-hub';
import { liveRoutes } from './modules/live/live-routes';
import { OnCallChanges } from './modules/live/on-call-changes';
import { Metrics } from './modules/metrics/metrics';
import { metricsRoutes, recordRequests } from './modules/metrics/metrics-routes';
import { destinationTestRoutes } from './modules/notifications/destination-test-routes';
import { inboxRoutes } from './modules/notifications/inbox-routes';
import { notificationRoutes } from './modules/notifications/notification-routes';
import { notificationTestRoutes } from './modules/notifications/notification-test-routes';
import { onCallTeamRoutes } from './modules/on-call-team/on-call-team-routes';
import { oncallsRoutes } from './modules/oncalls/oncalls-routes';
import { pagingRoutes } from './modules/paging/paging-routes';
import { notificationRulesRoutes } from './modules/people/notification-rules-routes';
import { userRoutes } from './modules/people/people-routes';
import { reachabilityRoutes } from './modules/people/reachability-routes';
import { workingHoursRoutes } from './modules/people/working-hours-routes';
import { pushRoutes } from './modules/push/push-routes';
import { rotationRoutes } from './modules/rotations/rotation-routes';
import { scheduleRoutes } from './modules/schedules/schedule-routes';
import { SessionMemo } from './modules/sessions/session-memo';
import { resolveSession, sessionCookie } from './modules/sessions/session-service';
import { settingsRoutes } from './modules/settings/settings-routes';
import { setupRoutes } from './modules/setup/setup-routes';
import { shiftChangeRoutes } from './modules/shift-changes/shift-change-routes';
import { slackRoutes } from './modules/slack/slack-routes';
import { smsReplyRoutes } from './modules/sms-replies/sms-reply-routes';
import { timeOffRoutes } from './modules/time-off/time-off-routes';
import { toUser } from './modules/users/user-repository';
import { voiceCallRoutes } from './modules/voice-calls/voice-call-routes';
import { testCallerFromConfig } from './modules/voice-calls/voice-channel';

declare module 'fastify' {
  interface FastifyInstance {
    routeList: { method: string; url: string }[];
    /** this process's open live-update streams (decision 220) */
    liveHub: LiveHub;
    /** this process's metrics (decision 225) */
    metrics: Metrics;
    /** the graceful shutdown's state (decision 225) */
    lifecycle: Lifecycle;
  }
}

/** A personal API token's rate limit counts its requests in windows this long (decision 223). */
const API_TOKEN_RATE_WINDOW_MS = 60_000;

/** redactUrl drops query strings and secret path segments before a URL reaches the logs. */
export function redactUrl(url: string): string {
  return url
    .split('?')[0]
    .replace(/\/invitations\/[^/]+\/validate/, '/invitations/:token/validate')
    .replace(/\/pages\/ack\/[^/]+/, '/pages/ack/:token')
    .replace(/\/calendar\/feeds\/[^/]+/, '/calendar/feeds/:token');
}

/**
 * AppInput is what buildApp is given: AppDeps, and what the composition root hands to one module
 * only (so core/deps.ts names no module, decision 242).
 */
export interface AppInput extends AppDeps {
  /** this process's metrics (absent: the app makes its own); main.ts shares it with the workers */
  metrics?: Metrics;
  /** the diagnostics' storage read (absent: the one GET /api/rotations uses); tests replace it */
  rotationsStorageRead?: RotationsRead;
  /** the import sources' readers (absent: the ones Baton ships); tests pass their own */
  importReaders?: ImportReaders;
}

/** buildApp returns the Fastify app, ready for `inject` in tests or `listen` in main.ts. */
export async function buildApp(given: AppInput): Promise<FastifyInstance> {
  const { rotationsStorageRead, importReaders, metrics: givenMetrics, ...rest } = given;
  const metrics = givenMetrics ?? new Metrics({ version: BATON_VERSION });
  const lifecycle = given.lifecycle ?? new Lifecycle();
  const deps: AppDeps = { ...rest, lifecycle };
  const headers = securityHeaders(helmetOptions(deps.config));
  const app = Fastify(fastifyOptions(deps, headers));
  app.decorate('metrics', metrics);
  app.decorate('lifecycle', lifecycle);
  // First, so that every route and the not-found answers are counted.
  recordRequests(app, metrics);
  declareInputsAndAnswers(app, deps);
  await decorateRequests(app, deps);
  await guardRequests(app, { ...deps, lifecycle }, headers);
  const sessionCookieName = sessionCookie(deps.config).name;
  // Before the routes: the document is made of the routes registered after it.
  await registerOpenApi(app, { sessionCookie: sessionCookieName });
  identifyCallers(app, deps, sessionCookieName);
  app.setErrorHandler(answerError);
  await registerModules(app, deps, { metrics, rotationsStorageRead, importReaders });
  await serveClient(app, deps.clientDir);
  return app;
}

/** fastifyOptions: the logger (redacted), request ids, limits and the early answers' headers. */
function fastifyOptions(deps: AppDeps, headers: ReturnType<typeof securityHeaders>) {
  const { config } = deps;
  return {
    logger:
      deps.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(deps.logStream ? { stream: deps.logStream } : {}),
            redact: [
              'req.headers.cookie',
              'req.headers.authorization',
              'res.headers["set-cookie"]',
            ],
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url) }),
              // A failed query's values (what people typed) never reach the log (decision 167).
              err: serializeLoggedError,
            },
          },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: 100 * 1024,
    // Answers given before any hook runs carry the security headers too (decision 162).
    clientErrorHandler: clientErrorHandler(headers),
    frameworkErrors: frameworkErrors(headers),
    // Only behind a proxy (TRUST_PROXY) may X-Forwarded-For name the client: rate limits key on it.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // During shutdown the app answers new requests itself, in its error shape (decision 225).
    return503OnClosing: false,
  } satisfies FastifyServerOptions;
}

/** declareInputsAndAnswers: routes' inputs are the shared zod schemas, and their answers declared. */
function declareInputsAndAnswers(app: FastifyInstance, deps: AppDeps) {
  // Routes declare their input as the shared zod schemas (decision 190).
  app.setValidatorCompiler(inputValidator);
  // Routes declare their answers too (decision 224), for the document: production writes them
  // with JSON.stringify, unchecked and as fast as before; the tests check each one (checkAnswers).
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const report = deps.checkAnswers;
  if (report) {
    app.addHook('onSend', async (req, reply, payload) => {
      const mismatch = checkAnswer(req, reply, payload);
      if (mismatch) report(mismatch);
      return payload;
    });
  }
}

/** decorateRequests: the request's principal, the read cache and the list of routes. */
async function decorateRequests(app: FastifyInstance, deps: AppDeps) {
  const { config, clock, database } = deps;
  app.decorateRequest('principal', null);
  // Where this process is the database's one writer (PGlite), the on-call reads are keyed on the
  // change feed's version rather than the whole database's (decision 295).
  const onCall =
    config.readCacheBytes > 0 && database.changeCount ? await OnCallChanges.listen(database) : null;
  if (onCall) {
    app.addHook('preClose', async () => {
      await onCall.close();
    });
  }
  app.decorate(
    'readCache',
    config.readCacheBytes > 0
      ? new ReadCache({
          clock,
          maxBytes: config.readCacheBytes,
          maxAgeMs: READ_CACHE_MAX_AGE_MS,
          version: onCall ? () => onCall.version() : undefined,
        })
      : null,
  );
  // Every route registered, for the permission test that checks each one against its table.
  const routeList: { method: string; url: string }[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeList.push({ method, url: route.url });
    }
  });
}

/** guardRequests: cookies, the security headers, the shutdown's refusal and the rate limits. */
async function guardRequests(
  app: FastifyInstance,
  deps: AppDeps & { lifecycle: Lifecycle },
  headers: ReturnType<typeof securityHeaders>,
) {
  const { database, cipher, clock, lifecycle } = deps;
  // PGlite: a request's database work goes before that of requests arriving later, and a read's
  // after waiting changes', four at most (decisions 273, 291 and 293).
  const inArrivalOrder = database.inArrivalOrder;
  if (inArrivalOrder) {
    app.addHook('onRequest', (req, _reply, done) =>
      inArrivalOrder(done, SAFE_METHODS.has(req.method) ? 'read' : 'change'),
    );
  }
  await app.register(fastifyCookie);
  // helmet's headers, computed once: @fastify/helmet builds helmet anew for every request, a
  // twentieth of the alert intake's time (decision 216).
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
  // A graceful shutdown refuses what arrives once it has begun; what is in flight finishes.
  app.addHook('onRequest', async (_req, reply) => {
    if (!lifecycle.refusing) return;
    return reply
      .code(503)
      .header('Connection', 'close')
      .header('Retry-After', String(SHUTDOWN_RETRY_AFTER_SECONDS))
      .send({ message: SHUTTING_DOWN, code: 'SERVICE_UNAVAILABLE' });
  });
  // What was in flight when the refusing began is answered with its connection closed, so no
  // keep-alive connection outlives the server's close (decision 291).
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (lifecycle.refusing) reply.header('Connection', 'close');
    done(null, payload);
  });
  await app.register(fastifyRateLimit, {
    global: false,
    // Counted in the database, so a limit holds across instances, not per process (decision 161).
    store: databaseRateLimitStore({ db: database.db, clock, cipher }),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      message: `Too many attempts. Try again in ${Math.ceil(ctx.ttl / 1000)} seconds.`,
      code: 'RATE_LIMITED',
    }),
  });
}

/**
 * identifyCallers: each /api request's principal, from a personal API token (its rate limit and
 * scope) or the session cookie, after the cross-site check.
 */
function identifyCallers(app: FastifyInstance, deps: AppDeps, sessionCookieName: string) {
  const { config, database, cipher, clock } = deps;
  // One limit per API token across every instance, counted in the same database store.
  const apiTokenLimit = app.createRateLimit({
    max: config.apiTokenRateLimit,
    timeWindow: API_TOKEN_RATE_WINDOW_MS,
    keyGenerator: (req) => `api-token ${req.principal?.apiToken?.id ?? ''}`,
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) {
      // A page of the app carries its signed-in user (serveClient): the session cookie alone.
      const token = isAppPageRequest(req) ? req.cookies[sessionCookieName] : undefined;
      if (token) req.principal = await principalOf(token);
      return;
    }
    reply.header('Cache-Control', 'no-store');
    // Identity comes from a personal API token (decision 223) or the session cookie alone;
    // X-User-Id / X-User-Role headers are ignored. A request with a bearer token is the token's:
    // a cookie beside it is not read.
    const bearer = bearerTokenOf(req);
    if (bearer !== undefined) {
      req.principal = await tokenPrincipal(bearer, reply);
      await limitApiToken(req, reply);
      const scope = req.principal.apiToken?.scope ?? 'read';
      if (!scopeAllows(scope, req.method)) {
        throw new AppError('FORBIDDEN', API_TOKEN_MESSAGES.readScope(req.method));
      }
    }
    // Cross-site request forgery: a state change must provably come from Baton's own pages
    // (or carry a token, which another site cannot make a browser send).
    refuseCrossSiteWrite(req, config.publicUrl);
    if (bearer !== undefined) return;
    const token = req.cookies[sessionCookieName];
    if (token) req.principal = await principalOf(token);
  });

  async function tokenPrincipal(token: string, reply: FastifyReply): Promise<Principal> {
    // PGlite: counted before the read, as for sessions (decision 141).
    const count = database.changeCount?.();
    const resolved = await resolveApiToken({ database, clock }, token);
    if (resolved.status !== 'valid') {
      reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      throw unauthenticated(
        resolved.status === 'expired'
          ? API_TOKEN_MESSAGES.expired(resolved.expiresAt.toISOString())
          : API_TOKEN_MESSAGES.invalid,
      );
    }
    return {
      user: toUser(resolved.user, cipher),
      via: 'token',
      tokenHash: resolved.tokenHash,
      apiToken: { id: resolved.token.id, scope: resolved.token.scope as ApiTokenScope },
      snapshot: count === undefined ? resolved.snapshot : `changes:${count}`,
    };
  }

  /** limitApiToken counts a token's request and answers RateLimit-* headers, or 429 past the limit. */
  async function limitApiToken(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const limit = await apiTokenLimit(req);
    if (limit.isAllowed) return;
    reply.header('RateLimit-Limit', limit.max);
    reply.header('RateLimit-Remaining', limit.remaining);
    reply.header('RateLimit-Reset', limit.ttlInSeconds);
    if (limit.isExceeded) {
      reply.header('Retry-After', limit.ttlInSeconds);
      throw new AppError('RATE_LIMITED', API_TOKEN_MESSAGES.rateLimited(limit.ttlInSeconds));
    }
  }

  // PGlite: this process is the database's one writer, so a session read while nothing has
  // changed since is still what the database holds (decision 141). PostgreSQL reads it each time.
  const sessionMemo = database.changeCount
    ? new SessionMemo<Principal>(database.changeCount)
    : null;

  async function principalOf(token: string): Promise<Principal | null> {
    if (!sessionMemo) {
      const session = await resolveSession(database.db, clock, config.session, token);
      return session
        ? {
            user: toUser(session.user, cipher),
            via: 'session',
            tokenHash: session.tokenHash,
            snapshot: session.snapshot,
          }
        : null;
    }
    const tokenHash = token.length > 100 ? '' : hashToken(token);
    const remembered = tokenHash ? sessionMemo.get(tokenHash, clock.now()) : undefined;
    if (remembered) return remembered;
    // Counted before the read: what is read is at least this new.
    const count = sessionMemo.count();
    const session = await resolveSession(database.db, clock, config.session, token);
    if (!session) return null;
    const principal: Principal = {
      user: toUser(session.user, cipher),
      via: 'session',
      tokenHash: session.tokenHash,
      snapshot: `changes:${count}`,
    };
    sessionMemo.remember(session.tokenHash, count, { ...session, value: principal });
    return principal;
  }
}

/** answerError answers every error in the one shape, `{ message, code, fields? }`, hiding 5xx. */
function answerError(thrown: FastifyError | AppError, req: FastifyRequest, reply: FastifyReply) {
  // A route schema's refusal answers in the one error shape, as a handler's would (decision 190).
  const err = hasZodFastifySchemaValidationErrors(thrown)
    ? inputError(thrown.validationContext, thrown.validation)
    : thrown;
  if (err instanceof AppError) {
    return reply
      .code(err.status)
      .send({ message: err.message, code: err.code, fields: err.fields });
  }
  const status = err.statusCode ?? 500;
  if (status < 500) {
    return reply.code(status).send({ message: clientMessage(err, status), code: codeFor(status) });
  }
  if (isDatabaseUnavailable(err)) {
    req.log.error({ err }, 'database unavailable');
    return reply.code(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).send({
      message: 'The database is unavailable. Try again shortly.',
      code: 'SERVICE_UNAVAILABLE',
    });
  }
  if (isDatabaseBusy(err)) {
    // A lock or statement time-out (decision 168): rolled back, and worth repeating shortly.
    req.log.warn({ err }, 'database busy');
    return reply.code(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).send({
      message: 'The database is busy. Try again shortly.',
      code: 'SERVICE_UNAVAILABLE',
    });
  }
  req.log.error({ err }, 'unhandled error');
  return reply.code(500).send({ message: 'Something went wrong on our side.', code: 'INTERNAL' });
}

/** registerModules registers every module's routes, the live updates, metrics and the document. */
async function registerModules(
  app: FastifyInstance,
  deps: AppDeps,
  {
    metrics,
    rotationsStorageRead,
    importReaders,
  }: { metrics: Metrics; rotationsStorageRead?: RotationsRead; importReaders?: ImportReaders },
) {
  const { database, clock } = deps;
  await app.register(healthRoutes, deps);
  await app.register(authRoutes, deps);
  await app.register(helpRoutes, deps);
  await app.register(invitationRoutes, deps);
  await app.register(userRoutes, deps);
  await app.register(notificationRulesRoutes, deps);
  await app.register(workingHoursRoutes, deps);
  await app.register(reachabilityRoutes, deps);
  // A test call (decision 254) is placed by voice-calls, which imports notifications.
  await app.register(notificationTestRoutes, {
    ...deps,
    placeTestCall: testCallerFromConfig(deps.config),
  });
  await app.register(pushRoutes, deps);
  await app.register(rotationRoutes, deps);
  await app.register(requestCoverageRoutes, deps);
  await app.register(rotationPageRoutes, deps);
  await app.register(scheduleRoutes, deps);
  await app.register(handoffRoutes, deps);
  await app.register(coverageRoutes, deps);
  await app.register(calendarRoutes, deps);
  await app.register(oncallsRoutes, deps);
  await app.register(auditRoutes, deps);
  await app.register(onCallTeamRoutes, deps);
  await app.register(settingsRoutes, deps);
  await app.register(setupRoutes, deps);
  await app.register(debugRoutes, { ...deps, rotationsStorageRead });
  await app.register(notificationRoutes, deps);
  await app.register(inboxRoutes, deps);
  await app.register(pagingRoutes, deps);
  await app.register(smsReplyRoutes, deps);
  await app.register(voiceCallRoutes, deps);
  await app.register(slackRoutes, deps);
  await app.register(escalationPolicyRoutes, deps);
  await app.register(incidentRoutes, deps);
  await app.register(incidentActionRoutes, deps);
  await app.register(integrationRoutes, deps);
  await app.register(integrationAlertRoutes, deps);
  await app.register(alertRoutes, { ...deps, metrics });
  await app.register(shiftChangeRoutes, deps);
  await app.register(timeOffRoutes, deps);
  await app.register(destinationRoutes, deps);
  await app.register(destinationTestRoutes, deps);
  await app.register(destinationDeliveryRoutes, deps);
  await app.register(apiTokenRoutes, deps);
  await app.register(importRoutes, { ...deps, readers: importReaders ?? IMPORT_READERS });

  // Live updates (decision 220): the streams end before the server closes, or close would wait
  // on them forever.
  const liveHub = new LiveHub({ database, clock, log: app.log });
  app.decorate('liveHub', liveHub);
  app.addHook('preClose', async () => {
    await liveHub.close({ retryHint: true });
  });
  await app.register(liveRoutes, { ...deps, hub: liveHub });
  await app.register(metricsRoutes, { ...deps, metrics, openStreams: () => liveHub.size });
  await app.register(openApiRoutes);
  // Tools look for the document at the root; it lives with the API.
  app.get('/openapi.json', { schema: { hide: true } }, (_req, reply) =>
    reply.redirect('/api/openapi.json', 301),
  );
}

/** IMMUTABLE: the Cache-Control of a file whose name carries its content's hash. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** isHashedAsset: whether the file is one of the build's hash-named files (under assets/). */
function isHashedAsset(clientDir: string, filePath: string): boolean {
  return path.relative(clientDir, filePath).split(path.sep)[0] === 'assets';
}

/** serveClient serves the built client, and index.html for any other page the app routes. */
async function serveClient(app: FastifyInstance, clientDir: string | undefined) {
  const indexHtml = clientDir ? path.join(clientDir, 'index.html') : undefined;
  if (clientDir && indexHtml && existsSync(indexHtml)) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // The build writes a Brotli and a gzip copy of each script and style sheet
      // (scripts/build-client.mjs): sent to a browser that accepts one, the file otherwise.
      preCompressed: true,
      // The build names each file under assets/ by its content's hash: a browser keeps it and
      // never asks again. Everything else (the service worker, the manifest, icons) is asked
      // again each time, as before.
      setHeaders: (reply, filePath) => {
        if (isHashedAsset(clientDir, filePath)) reply.header('cache-control', IMMUTABLE);
      },
    });
  }
  app.setNotFoundHandler(async (req, reply) => {
    if (isReservedPath(req.url) || !SAFE_METHODS.has(req.method)) {
      return reply.code(404).send({ message: 'Not found', code: 'NOT_FOUND' });
    }
    if (!indexHtml || !existsSync(indexHtml)) {
      return reply
        .code(404)
        .type('text/plain')
        .send(
          'The Baton client is not built. Run `npm run build`, or `npm run dev` for development.',
        );
    }
    // The single-page app renders its own not-found screen for unknown paths. A page that
    // carries its signed-in user is that user's alone: never stored.
    const user = req.principal?.via === 'session' ? req.principal.user : null;
    const html = pageWithSession(await readFile(indexHtml, 'utf8'), user);
    return reply
      .type('text/html')
      .header('Cache-Control', user ? 'private, no-store' : 'no-cache')
      .send(html);
  });
}

/**
 * inputValidator is fastify-type-provider-zod's validator, but a request without a body, which
 * Fastify hands to the validator as null, is read as no body at all (`undefined`): the same
 * message as before routes had schemas, and an optional body stays optional.
 */
const inputValidator: typeof validatorCompiler = (route) => {
  const validate = validatorCompiler(route);
  return route.httpPart === 'body' ? (data) => validate(data ?? undefined) : validate;
};

function clientMessage(err: FastifyError, status: number): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type; send JSON.';
    default:
      return status === 429 ? err.message : err.message || 'Bad request';
  }
}

function codeFor(status: number): string {
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 404) return 'NOT_FOUND';
  return 'BAD_REQUEST';
}
