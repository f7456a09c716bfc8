import { randomUUID } from 'node:crypto';
import DataLoader from 'dataloader';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  AlertmanagerWebhookSchema,
  GenericAlertSchema,
  GrafanaWebhookSchema,
  OpsgenieAcceptedSchema,
  OpsgenieAlertActionSchema,
  OpsgenieCreateAlertSchema,
  OpsgenieIdentifierQuerySchema,
  OpsgenieIdentifierSchema,
  OpsgenieRefusalSchema,
  PagerDutyEventSchema,
  PagerDutyRefusalSchema,
  PagerDutySuccessSchema,
} from '../../../shared/contracts/alerts';
import { type ErrorCode, ErrorCodes } from '../../../shared/contracts/errors';
import {
  ALERT_BODY_MAX,
  type AlertFormat,
  AlertReceiptSchema,
  AlertReceiptsSchema,
  INTEGRATION_MESSAGES,
} from '../../../shared/contracts/integrations';
import {
  eventOfAction,
  issueMessages,
  normalizeAlertGroup,
  normalizeGeneric,
  normalizeOpsgenieAction,
  normalizeOpsgenieCreate,
  normalizePagerDuty,
  opsgenieError,
  pagerDutyInvalid,
} from '../../../shared/domain/alerts';
import type { AppDeps } from '../../core/deps';
import { answers, ok } from '../../http/openapi';
import {
  findIntegrationByKeyHash,
  hashIntegrationKey,
  IntegrationKeyGone,
  type IntegrationRow,
  normalizeOptionsOf,
  RecentIntegrations,
} from '../integrations/integration-keys';
import type { Metrics } from '../metrics/metrics';
import {
  checkGrafanaSignature,
  GRAFANA_SIGNATURE_HEADER,
  GRAFANA_TIMESTAMP_HEADER,
  jsonNestingExceeds,
  KeyRateLimiter,
  keyFromAuthorization,
  keyFromQuery,
} from './alert-auth';
import {
  type AlertReceipt,
  type FoldProbe,
  foldIntoStorms,
  foldProbeOf,
  foldReceipt,
  type InboundEvent,
  receiveAlerts,
  repeatProbeOf,
  repeatReceipt,
  touchDue,
} from './alert-intake';
import {
  type FoldHit,
  openKeysOfIncident,
  type RepeatHit,
  type RepeatProbe,
  repeatAlerts,
} from './alert-repository';
import { KeyGuesses } from './key-guesses';

/** The inbound alert endpoints (issue 17): fixed, so a tool's configuration is written once. */
export const ALERT_PATHS = {
  pagerduty: '/api/alerts/pagerduty/v2/enqueue',
  opsgenieCreate: '/api/alerts/opsgenie/v2/alerts',
  opsgenieClose: '/api/alerts/opsgenie/v2/alerts/:identifier/close',
  opsgenieAcknowledge: '/api/alerts/opsgenie/v2/alerts/:identifier/acknowledge',
  alertmanager: '/api/alerts/alertmanager',
  grafana: '/api/alerts/grafana',
  generic: '/api/alerts/generic',
} as const;

/** The PagerDuty endpoint's answers: PagerDuty's own, its refusals in PagerDuty's shape. */
const PAGERDUTY_ANSWERS = answers({
  202: PagerDutySuccessSchema,
  ...Object.fromEntries(
    [400, 413, 415, 429].map((status) => [
      status,
      ok(
        PagerDutyRefusalSchema,
        "Refused, in PagerDuty's shape: a bad event or routing key (400), too large (413), not JSON (415), too many (429).",
      ),
    ]),
  ),
});

/** The Opsgenie endpoints' answers: Opsgenie's own, its refusals in Opsgenie's shape. */
const OPSGENIE_ANSWERS = answers({
  202: OpsgenieAcceptedSchema,
  ...Object.fromEntries(
    [400, 401, 413, 415, 422, 429].map((status) => [
      status,
      ok(
        OpsgenieRefusalSchema,
        "Refused, in Opsgenie's shape: not JSON (400), a wrong key (401), too large (413), a form (415), a bad alert (422), too many (429).",
      ),
    ]),
  ),
});

/** JSON nested deeper than this is refused before it is parsed (no sender nests so deep). */
export const ALERT_JSON_DEPTH_MAX = 64;

type Wire = Exclude<AlertFormat, 'email' | 'test'>;

const WIRE_OF_PATH: Record<string, Wire> = {
  [ALERT_PATHS.pagerduty]: 'pagerduty',
  [ALERT_PATHS.opsgenieCreate]: 'opsgenie',
  [ALERT_PATHS.opsgenieClose]: 'opsgenie',
  [ALERT_PATHS.opsgenieAcknowledge]: 'opsgenie',
  [ALERT_PATHS.alertmanager]: 'alertmanager',
  [ALERT_PATHS.grafana]: 'grafana',
  [ALERT_PATHS.generic]: 'generic',
};

export const ALERT_ROUTE_MESSAGES = {
  notJson: 'The request body is not valid JSON.',
  tooDeep: `The request body nests objects or arrays deeper than ${ALERT_JSON_DEPTH_MAX} levels.`,
  sendJson: 'Send the alert as JSON (Content-Type: application/json).',
  bodyRequired: 'The request body is empty: send the alert as JSON.',
  notObject: 'The request body must be a JSON object.',
} as const;

/** What the plugin's body parser hands the routes: the text as received, parsed by each route. */
interface InboundBody {
  text: string;
  form: boolean;
}

/**
 * AlertRefusal is a 4xx an alert route answers, in its format's own error shape (PagerDuty's,
 * Opsgenie's or Baton's); nothing has been written when it is thrown.
 */
class AlertRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: z.ZodError,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/**
 * oneBatchAtATime: a DataLoader whose batches go to the database one at a time (decision 216).
 * The keys that arrive while a batch is in flight wait for it and go together as the next
 * batch, as a database's group commit does: batches of one process never queue on each other's
 * row locks, and the busier the intake, the fewer statements per event.
 */
export function oneBatchAtATime<K, V>(
  load: (keys: readonly K[]) => Promise<V[]>,
): DataLoader<K, V> {
  let inFlight: Promise<unknown> = Promise.resolve();
  return new DataLoader<K, V>(
    (keys) => {
      const sent = load(keys);
      inFlight = sent.catch(() => undefined);
      return sent;
    },
    {
      cache: false,
      maxBatchSize: 500,
      batchScheduleFn: (send) => {
        inFlight.then(() => setImmediate(send));
      },
    },
  );
}

/**
 * alertRoutes: the inbound alert endpoints (issue 17, decisions 208 and 211). Each finds the
 * integration by its key, answers 4xx in its vendor's shape for a wrong key, a bad body or too
 * many requests (writing nothing), and otherwise normalizes the body and hands the events to the
 * intake, which stores them in one transaction. The body parsers (any content type read as text,
 * up to ALERT_BODY_MAX) and the error handler are this plugin's alone.
 */
export async function alertRoutes(app: FastifyInstance, deps: AppDeps & { metrics?: Metrics }) {
  const limiter = new KeyRateLimiter(deps.clock);
  const guesses = new KeyGuesses(
    { db: deps.database.db, cipher: deps.cipher, clock: deps.clock },
    deps.config.alertKeyGuessLimit,
  );
  const recent = new RecentIntegrations();
  // The repeats that arrive while the database is busy go as one statement (decision 216), one
  // statement at a time: the repeats that arrive while a batch is in the database go as the next.
  const repeats = oneBatchAtATime<RepeatProbe, RepeatHit | undefined>((probes) =>
    repeatAlerts(deps.database.db, probes, deps.clock.now()),
  );
  // So do the new keys of an integration in an alert storm: a share of two statements each.
  const folds = oneBatchAtATime<FoldProbe, FoldHit | undefined>((probes) =>
    foldIntoStorms(deps, probes, deps.clock.now()),
  );

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: ALERT_BODY_MAX },
    (req, body, done) => {
      const type = String(req.headers['content-type'] ?? '').toLowerCase();
      done(null, {
        text: body as string,
        form: type.startsWith('application/x-www-form-urlencoded'),
      } satisfies InboundBody);
    },
  );

  app.setErrorHandler((thrown: FastifyError | AlertRefusal, req, reply) => {
    const refusal =
      thrown instanceof AlertRefusal
        ? thrown
        : thrown.statusCode === 413 || thrown.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? new AlertRefusal(413, ErrorCodes.PAYLOAD_TOO_LARGE, INTEGRATION_MESSAGES.tooLarge)
          : thrown.statusCode !== undefined && thrown.statusCode < 500
            ? new AlertRefusal(thrown.statusCode, codeOf(thrown.statusCode), thrown.message)
            : undefined;
    // Anything else is the app's own failure: its handler logs it and answers 5xx.
    if (!refusal) throw thrown;
    deps.metrics?.alertRefused(wireOf(req), refusal.status);
    return answerRefusal(req, reply, refusal);
  });

  const options = { bodyLimit: ALERT_BODY_MAX };

  /** What admit answers: the integration, and whether its row was read for this request. */
  interface Admitted {
    wire: Wire;
    /** the client's address (its wrong keys are counted: decision 235) */
    address: string;
    integration: IntegrationRow;
    /** false: the row is one this process read within the minute (RecentIntegrations) */
    fresh: boolean;
  }

  /**
   * admit finds the integration of `key`, runs `verify` (Grafana's signature) and counts the
   * request against the integration's rate; it throws the refusal otherwise. A client past the
   * limit of wrong keys is refused whatever its key (decision 235), and the key of an integration
   * with a signing secret opens only the Grafana endpoint, which checks the signature. A key used
   * within the minute is answered from the row read then (never when `verify` needs the stored
   * secret).
   */
  async function admit(
    req: FastifyRequest,
    wire: Wire,
    key: string | undefined,
    verify?: (integration: IntegrationRow) => void,
  ): Promise<Admitted> {
    const address = req.ip;
    const blocked = guesses.waitOf(address);
    if (blocked > 0) throw guessRefusal(blocked);
    if (key === undefined || key.trim() === '') throw keyRefusal(wire, 'keyMissing');
    if (key.length > 200) throw await wrongKey(wire, address);
    const keyHash = hashIntegrationKey(key);
    const known = verify ? undefined : recent.get(keyHash, deps.clock.now());
    const integration = known ?? (await readIntegration(wire, address, keyHash));
    refuseUnsigned(wire, integration);
    verify?.(integration);
    const wait = limiter.take(integration.id, integration.rateLimit);
    if (wait > 0) {
      throw new AlertRefusal(
        429,
        ErrorCodes.RATE_LIMITED,
        INTEGRATION_MESSAGES.rateLimited(integration.rateLimit),
        undefined,
        wait,
      );
    }
    return { wire, address, integration, fresh: known === undefined };
  }

  /**
   * refuseUnsigned: a signing secret binds the whole key (decision 235). Only the Grafana endpoint
   * checks a signature; on every other, the key of an integration with a secret is refused.
   */
  function refuseUnsigned(wire: Wire, integration: IntegrationRow): void {
    if (wire !== 'grafana' && integration.signingSecretEnc !== null) {
      throw keyRefusal(wire, 'signedOnly');
    }
  }

  /**
   * keyGone answers a key that no longer opened its integration as the write checked it: signed
   * only now (a secret set since its row was read, on any instance), or a wrong key.
   */
  async function keyGone(admitted: Admitted): Promise<AlertRefusal> {
    const now = await findIntegrationByKeyHash(deps.database.db, admitted.integration.keyHash);
    if (now) {
      recent.remember(now, deps.clock.now());
      if (admitted.wire !== 'grafana' && now.signingSecretEnc !== null) {
        return keyRefusal(admitted.wire, 'signedOnly');
      }
    }
    return wrongKey(admitted.wire, admitted.address);
  }

  /**
   * wrongKey counts a client's wrong key and answers the refusal: the wrong key's, or 429 once
   * the client passes the limit (decision 235).
   */
  async function wrongKey(wire: Wire, address: string): Promise<AlertRefusal> {
    const wait = await guesses.wrongKey(address);
    return wait > 0 ? guessRefusal(wait) : keyRefusal(wire, 'keyUnknown');
  }

  /** readIntegration reads the integration of a key hash, or throws the wrong-key refusal. */
  async function readIntegration(
    wire: Wire,
    address: string,
    keyHash: string,
  ): Promise<IntegrationRow> {
    const integration = await findIntegrationByKeyHash(deps.database.db, keyHash);
    if (!integration) throw await wrongKey(wire, address);
    recent.remember(integration, deps.clock.now());
    return integration;
  }

  /**
   * receive hands the events to the intake. A plain repeat goes through the batched repeat
   * statement, which checks the key as it writes; so does a trigger's key lock. An acknowledge or
   * resolve reads the integration's row again first if it came from memory. Either way, a key
   * regenerated or deleted since writes nothing and is answered as a wrong key.
   */
  async function receive(
    admitted: Admitted,
    format: Wire,
    events: InboundEvent[],
    body: InboundBody | undefined,
  ): Promise<AlertReceipt[]> {
    const inbound = { format, events, payload: body?.text ?? '' };
    // Unsigned: each write checks too that the integration has no signing secret (decision 235).
    const unsigned = admitted.wire !== 'grafana';
    const repeatProbe = repeatProbeOf(admitted.integration, inbound, deps.clock.now());
    const probe = repeatProbe && { ...repeatProbe, unsigned };
    if (probe) {
      const hit = await repeats.load(probe);
      if (hit) {
        deps.metrics?.alertsStored(format, 1);
        return [repeatReceipt(inbound, hit)];
      }
      const folded = await folds.load(foldProbeOf(probe, inbound));
      if (folded) {
        deps.metrics?.alertsStored(format, 1);
        return [foldReceipt(inbound, folded)];
      }
    }
    const checkedAsWritten = events.every((e) => e.action === 'trigger');
    const integration =
      admitted.fresh || checkedAsWritten
        ? admitted.integration
        : await readIntegration(admitted.wire, admitted.address, admitted.integration.keyHash);
    refuseUnsigned(admitted.wire, integration);
    const now = deps.clock.now();
    try {
      const receipts = await receiveAlerts(deps, integration, inbound, {
        repeatProbed: probe !== undefined,
        unsigned,
      });
      deps.metrics?.alertsStored(format, receipts.length);
      // The intake recorded the key's use: the remembered row says so, or each request would.
      if (touchDue(integration, now)) recent.used(integration.keyHash, now);
      return receipts;
    } catch (err) {
      if (err instanceof IntegrationKeyGone) throw await keyGone(admitted);
      throw err;
    }
  }

  // PagerDuty Events API v2 ---------------------------------------------------------------------
  app.post(
    ALERT_PATHS.pagerduty,
    { ...options, schema: { security: [], response: PAGERDUTY_ANSWERS } },
    async (req, reply) => {
      const body = inbound(req);
      const json = parseJson(body);
      const routingKey = isObject(json) ? json.routing_key : undefined;
      const admitted = await admit(
        req,
        'pagerduty',
        typeof routingKey === 'string' ? routingKey : undefined,
      );
      const { integration } = admitted;
      const event = parseWith(PagerDutyEventSchema, json, 400);
      const normalized = normalizePagerDuty(
        event,
        generatedDedupKey(),
        normalizeOptionsOf(integration),
      );
      // The body carries the key: what is kept of it names the key by its last four characters only.
      const kept = { ...(json as Record<string, unknown>), routing_key: `…${integration.keyHint}` };
      await receive(admitted, 'pagerduty', [normalized], {
        text: JSON.stringify(kept),
        form: false,
      });
      return reply
        .code(202)
        .send({ status: 'success', message: 'Event processed', dedup_key: normalized.dedupKey });
    },
  );

  // Opsgenie Alert API --------------------------------------------------------------------------
  const genieKey = (req: FastifyRequest) =>
    keyFromAuthorization(req.headers.authorization, ['GenieKey']);
  const accepted = (req: FastifyRequest, reply: FastifyReply) =>
    reply.code(202).send({ result: 'Request will be processed', ...tookAndId(req, reply) });

  app.post(
    ALERT_PATHS.opsgenieCreate,
    { ...options, schema: { security: [], response: OPSGENIE_ANSWERS } },
    async (req, reply) => {
      const admitted = await admit(req, 'opsgenie', genieKey(req));
      const { integration } = admitted;
      const body = inbound(req);
      const alert = parseWith(OpsgenieCreateAlertSchema, parseJson(body), 422);
      const event = normalizeOpsgenieCreate(
        alert,
        generatedDedupKey(),
        normalizeOptionsOf(integration),
      );
      await receive(admitted, 'opsgenie', [event], body);
      return accepted(req, reply);
    },
  );

  for (const verb of ['close', 'acknowledge'] as const) {
    const path = verb === 'close' ? ALERT_PATHS.opsgenieClose : ALERT_PATHS.opsgenieAcknowledge;
    app.post(
      path,
      { ...options, schema: { security: [], response: OPSGENIE_ANSWERS } },
      async (req, reply) => {
        const admitted = await admit(req, 'opsgenie', genieKey(req));
        const { integration } = admitted;
        const identifier = parseWith(
          OpsgenieIdentifierSchema,
          (req.params as { identifier?: unknown }).identifier,
          422,
        );
        const { identifierType } = parseWith(OpsgenieIdentifierQuerySchema, req.query ?? {}, 422);
        const body = inbound(req);
        // Close and acknowledge may come without a body (Opsgenie's are all optional).
        const json = body === undefined || body.text.trim() === '' ? {} : parseJson(body);
        const action = normalizeOpsgenieAction(
          verb,
          identifier,
          identifierType,
          parseWith(OpsgenieAlertActionSchema, json, 422),
        );
        const event = eventOfAction(action, action.identifier, normalizeOptionsOf(integration));
        if (action.identifierType === 'alias') {
          await receive(admitted, 'opsgenie', [event], body);
          return accepted(req, reply);
        }
        // id and tiny name a Baton incident by its number (shown on the incident): the action
        // takes each of this integration's keys still open on it, known by their hashes.
        const incidentId = /^\d{1,9}$/.test(action.identifier) ? Number(action.identifier) : 0;
        const hashes =
          incidentId > 0
            ? await openKeysOfIncident(deps.database.db, integration.id, incidentId)
            : [];
        const events =
          hashes.length === 0
            ? [{ ...event, dedupKey: `${action.identifierType}:${action.identifier}` }]
            : hashes.map((dedupKeyHash) => ({ ...event, dedupKeyHash }));
        await receive(admitted, 'opsgenie', events, body);
        return accepted(req, reply);
      },
    );
  }

  // Alertmanager webhook and Grafana's webhook contact point ------------------------------------
  const bearerOrToken = (req: FastifyRequest) =>
    keyFromAuthorization(req.headers.authorization, ['Bearer']) ?? keyFromQuery(req.query);

  app.post(
    ALERT_PATHS.alertmanager,
    {
      ...options,
      schema: {
        security: [],
        response: answers({ 202: AlertReceiptsSchema }, 400, 401, 413, 415, 429),
      },
    },
    async (req, reply) => {
      const admitted = await admit(req, 'alertmanager', bearerOrToken(req));
      const { integration } = admitted;
      const body = inbound(req);
      const message = parseWith(AlertmanagerWebhookSchema, parseJson(body), 400);
      const events = normalizeAlertGroup(
        message,
        integration.grouping === 'fingerprint' ? 'fingerprint' : 'group',
        normalizeOptionsOf(integration),
      );
      const receipts = await receive(admitted, 'alertmanager', events, body);
      return reply.code(202).send(receiptsAnswer(receipts));
    },
  );

  app.post(
    ALERT_PATHS.grafana,
    {
      ...options,
      schema: {
        security: [],
        response: answers({ 202: AlertReceiptsSchema }, 400, 401, 413, 415, 429),
      },
    },
    async (req, reply) => {
      const body = inbound(req);
      const admitted = await admit(req, 'grafana', bearerOrToken(req), (found) => {
        if (found.signingSecretEnc === null) return;
        const secret = deps.cipher.decrypt(found.signingSecretEnc, {
          table: 'integrations',
          column: 'signing_secret',
          rowId: found.id,
        });
        const check = checkGrafanaSignature({
          secret,
          body: body?.text ?? '',
          signature: req.headers[GRAFANA_SIGNATURE_HEADER],
          timestamp: req.headers[GRAFANA_TIMESTAMP_HEADER],
          now: deps.clock.now(),
        });
        if (check !== 'ok') {
          throw new AlertRefusal(
            401,
            ErrorCodes.UNAUTHENTICATED,
            check === 'missing'
              ? INTEGRATION_MESSAGES.signatureRequired
              : INTEGRATION_MESSAGES.signatureWrong,
          );
        }
      });
      const { integration } = admitted;
      const message = parseWith(GrafanaWebhookSchema, parseJson(body), 400);
      const events = normalizeAlertGroup(
        message,
        integration.grouping === 'fingerprint' ? 'fingerprint' : 'group',
        normalizeOptionsOf(integration),
      );
      const receipts = await receive(admitted, 'grafana', events, body);
      return reply.code(202).send(receiptsAnswer(receipts));
    },
  );

  // Generic: JSON or a form, for scripts and cron jobs ------------------------------------------
  app.post(
    ALERT_PATHS.generic,
    {
      ...options,
      schema: {
        security: [],
        response: answers({ 202: AlertReceiptSchema }, 400, 401, 413, 415, 429),
      },
    },
    async (req, reply) => {
      const admitted = await admit(req, 'generic', bearerOrToken(req));
      const { integration } = admitted;
      const body = inbound(req);
      const fields = body?.form ? formFields(body.text) : parseJson(body);
      const alert = parseWith(GenericAlertSchema, fields, 400);
      const event = normalizeGeneric(alert, generatedDedupKey(), normalizeOptionsOf(integration));
      const [receipt] = await receive(admitted, 'generic', [event], body);
      return reply.code(202).send({
        dedupKey: receipt.dedupKey,
        outcome: receipt.outcome,
        incidentId: receipt.incidentId,
      });
    },
  );
}

/** keyRefusal: a missing or wrong key (or one bound to signed requests), as each format's senders expect it. */
function keyRefusal(wire: Wire, message: 'keyMissing' | 'keyUnknown' | 'signedOnly'): AlertRefusal {
  // PagerDuty names a wrong routing key as a bad field of the event (400), not as 401.
  return wire === 'pagerduty'
    ? new AlertRefusal(400, ErrorCodes.BAD_REQUEST, INTEGRATION_MESSAGES[message])
    : new AlertRefusal(401, ErrorCodes.UNAUTHENTICATED, INTEGRATION_MESSAGES[message]);
}

/** guessRefusal: 429 to a client past the limit of wrong keys, whatever key it sends now. */
function guessRefusal(seconds: number): AlertRefusal {
  return new AlertRefusal(
    429,
    ErrorCodes.RATE_LIMITED,
    INTEGRATION_MESSAGES.keyGuesses(seconds),
    undefined,
    seconds,
  );
}

/** A generated dedup key, for a trigger that names none: 32 hex characters, as PagerDuty's. */
function generatedDedupKey(): string {
  return randomUUID().replace(/-/g, '');
}

function inbound(req: FastifyRequest): InboundBody | undefined {
  const body = req.body as InboundBody | undefined;
  return body && typeof body === 'object' && typeof body.text === 'string' ? body : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** parseJson reads the body as one JSON object, or throws the refusal that says why not. */
function parseJson(body: InboundBody | undefined): Record<string, unknown> {
  const status = 400;
  if (body === undefined || body.text.trim() === '') {
    throw new AlertRefusal(status, ErrorCodes.BAD_REQUEST, ALERT_ROUTE_MESSAGES.bodyRequired);
  }
  if (body.form) {
    throw new AlertRefusal(415, ErrorCodes.UNSUPPORTED_MEDIA_TYPE, ALERT_ROUTE_MESSAGES.sendJson);
  }
  if (jsonNestingExceeds(body.text, ALERT_JSON_DEPTH_MAX)) {
    throw new AlertRefusal(status, ErrorCodes.BAD_REQUEST, ALERT_ROUTE_MESSAGES.tooDeep);
  }
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    throw new AlertRefusal(status, ErrorCodes.BAD_REQUEST, ALERT_ROUTE_MESSAGES.notJson);
  }
  if (!isObject(value)) {
    throw new AlertRefusal(status, ErrorCodes.BAD_REQUEST, ALERT_ROUTE_MESSAGES.notObject);
  }
  return value;
}

/** formFields reads `summary=…&details=…`: a field sent twice keeps its first value. */
function formFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, status: number): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const [first] = issueMessages(parsed.error);
  throw new AlertRefusal(
    status,
    ErrorCodes.VALIDATION_FAILED,
    first ?? 'The alert is not valid',
    parsed.error,
  );
}

function receiptsAnswer(receipts: AlertReceipt[]) {
  return {
    alerts: receipts.map((r) => ({
      dedupKey: r.dedupKey,
      outcome: r.outcome,
      incidentId: r.incidentId,
    })),
  };
}

/** Opsgenie's `took` (seconds) and `requestId`, in its answers and errors alike. */
function tookAndId(req: FastifyRequest, reply: FastifyReply) {
  return { took: Math.round(reply.elapsedTime) / 1000, requestId: String(req.id) };
}

function codeOf(status: number): ErrorCode {
  if (status === 415) return ErrorCodes.UNSUPPORTED_MEDIA_TYPE;
  if (status === 429) return ErrorCodes.RATE_LIMITED;
  if (status === 404) return ErrorCodes.NOT_FOUND;
  return ErrorCodes.BAD_REQUEST;
}

/** wireOf: the format of the route a request came to (generic when none matched). */
const wireOf = (req: FastifyRequest): Wire => WIRE_OF_PATH[req.routeOptions.url ?? ''] ?? 'generic';

/** answerRefusal answers a refusal in the shape the route's senders read. */
function answerRefusal(req: FastifyRequest, reply: FastifyReply, refusal: AlertRefusal) {
  const wire = wireOf(req);
  reply.code(refusal.status);
  if (refusal.retryAfter !== undefined) reply.header('Retry-After', String(refusal.retryAfter));
  const { issues, message, code } = refusal;
  if (wire === 'pagerduty') {
    const answer = issues
      ? pagerDutyInvalid(issues)
      : {
          status: refusal.status === 400 ? 'invalid event' : 'error',
          message,
          errors: [isKeyMessage(message) ? `routing_key: ${message}` : message],
        };
    return reply.send({ ...answer, code });
  }
  if (wire === 'opsgenie') {
    const { took, requestId } = tookAndId(req, reply);
    const answer = issues ? opsgenieError(issues, took, requestId) : { message, took, requestId };
    return reply.send({ ...answer, code });
  }
  return reply.send({ message, code, ...(issues ? { fields: fieldsOf(issues) } : {}) });
}

const isKeyMessage = (message: string) =>
  message === INTEGRATION_MESSAGES.keyMissing ||
  message === INTEGRATION_MESSAGES.keyUnknown ||
  message === INTEGRATION_MESSAGES.signedOnly;

/** Baton's `fields`: each bad field's path and its first message ('_' for the body itself). */
function fieldsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  const messages = issueMessages(error);
  error.issues.forEach((issue, i) => {
    const path = issue.path.map(String).join('.') || '_';
    fields[path] ??= messages[i] ?? issue.message;
  });
  return fields;
}
