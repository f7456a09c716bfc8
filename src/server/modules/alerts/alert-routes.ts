import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import {
  ALERT_BODY_MAX,
  AlertReceiptSchema,
  AlertReceiptsSchema,
} from '../../../shared/contracts/integrations';
import { normalizeAlertGroup } from '../../../shared/domain/alerts/alertmanager';
import { normalizeGeneric } from '../../../shared/domain/alerts/generic';
import {
  eventOfAction,
  normalizeOpsgenieAction,
  normalizeOpsgenieCreate,
} from '../../../shared/domain/alerts/opsgenie';
import { normalizePagerDuty } from '../../../shared/domain/alerts/pagerduty';
import { answers, ok } from '../../http/openapi';
import { normalizeOptionsOf } from '../integrations/integration-keys';
import { AlertAdmission, grafanaSignatureOf } from './alert-admission';
import {
  formFields,
  generatedDedupKey,
  inbound,
  isObject,
  parseJson,
  parseWith,
  readBodiesAsText,
} from './alert-body';
import type { AlertDeps } from './alert-deps';
import type { AlertReceipt } from './alert-intake';
import { keyFromAuthorization, keyFromQuery } from './alert-keys';
import { ALERT_PATHS } from './alert-paths';
import { AlertReceiver } from './alert-receiver';
import { alertErrorHandler, tookAndId } from './alert-refusals';
import { openKeysOfIncident } from './alert-repository';

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

/** Baton's own answers, for the endpoints whose format has none. */
const batonAnswers = (accepted: typeof AlertReceiptSchema | typeof AlertReceiptsSchema) =>
  answers({ 202: accepted }, 400, 401, 413, 415, 429);

/** What each group of routes is given: the deps, who may in, and who hands events on. */
interface AlertRouteContext {
  deps: AlertDeps;
  admission: AlertAdmission;
  receiver: AlertReceiver;
}

const options = { bodyLimit: ALERT_BODY_MAX };

/**
 * alertRoutes: the inbound alert endpoints (issue 17, decisions 208 and 211). Each route is
 * admitted by its key (alert-admission.ts: a wrong key, a bad signature or too many requests are
 * answered 4xx in its vendor's shape, writing nothing), parses its body (alert-body.ts),
 * normalizes it and hands the events on (alert-receiver.ts), which stores them in one
 * transaction. The body parsers and the error handler (alert-refusals.ts) are this plugin's alone.
 */
export async function alertRoutes(app: FastifyInstance, deps: AlertDeps) {
  readBodiesAsText(app);
  app.setErrorHandler(alertErrorHandler(deps));
  const admission = new AlertAdmission(deps);
  const context = { deps, admission, receiver: new AlertReceiver(deps, admission) };
  pagerDutyRoute(app, context);
  opsgenieRoutes(app, context);
  alertGroupRoutes(app, context);
  genericRoute(app, context);
}

/** PagerDuty Events API v2: the routing key is in the body. */
function pagerDutyRoute(app: FastifyInstance, { admission, receiver }: AlertRouteContext) {
  app.post(
    ALERT_PATHS.pagerduty,
    { ...options, schema: { security: [], response: PAGERDUTY_ANSWERS } },
    async (req, reply) => {
      const body = inbound(req);
      const json = parseJson(body);
      const routingKey = isObject(json) ? json.routing_key : undefined;
      const admitted = await admission.admit(
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
      await receiver.receive(admitted, 'pagerduty', [normalized], {
        text: JSON.stringify(kept),
        form: false,
      });
      return reply
        .code(202)
        .send({ status: 'success', message: 'Event processed', dedup_key: normalized.dedupKey });
    },
  );
}

const genieKey = (req: FastifyRequest) =>
  keyFromAuthorization(req.headers.authorization, ['GenieKey']);
const accepted = (req: FastifyRequest, reply: FastifyReply) =>
  reply.code(202).send({ result: 'Request will be processed', ...tookAndId(req, reply) });

/** Opsgenie's Alert API: create, close and acknowledge, the key in `Authorization: GenieKey`. */
function opsgenieRoutes(app: FastifyInstance, { deps, admission, receiver }: AlertRouteContext) {
  app.post(
    ALERT_PATHS.opsgenieCreate,
    { ...options, schema: { security: [], response: OPSGENIE_ANSWERS } },
    async (req, reply) => {
      const admitted = await admission.admit(req, 'opsgenie', genieKey(req));
      const { integration } = admitted;
      const body = inbound(req);
      const alert = parseWith(OpsgenieCreateAlertSchema, parseJson(body), 422);
      const event = normalizeOpsgenieCreate(
        alert,
        generatedDedupKey(),
        normalizeOptionsOf(integration),
      );
      await receiver.receive(admitted, 'opsgenie', [event], body);
      return accepted(req, reply);
    },
  );

  for (const verb of ['close', 'acknowledge'] as const) {
    const path = verb === 'close' ? ALERT_PATHS.opsgenieClose : ALERT_PATHS.opsgenieAcknowledge;
    app.post(
      path,
      { ...options, schema: { security: [], response: OPSGENIE_ANSWERS } },
      async (req, reply) => {
        const admitted = await admission.admit(req, 'opsgenie', genieKey(req));
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
          await receiver.receive(admitted, 'opsgenie', [event], body);
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
        await receiver.receive(admitted, 'opsgenie', events, body);
        return accepted(req, reply);
      },
    );
  }
}

const bearerOrToken = (req: FastifyRequest) =>
  keyFromAuthorization(req.headers.authorization, ['Bearer']) ?? keyFromQuery(req.query);

/** Alertmanager's webhook and Grafana's webhook contact point (signed when it has a secret). */
function alertGroupRoutes(app: FastifyInstance, { deps, admission, receiver }: AlertRouteContext) {
  app.post(
    ALERT_PATHS.alertmanager,
    { ...options, schema: { security: [], response: batonAnswers(AlertReceiptsSchema) } },
    async (req, reply) => {
      const admitted = await admission.admit(req, 'alertmanager', bearerOrToken(req));
      const { integration } = admitted;
      const body = inbound(req);
      const message = parseWith(AlertmanagerWebhookSchema, parseJson(body), 400);
      const events = normalizeAlertGroup(
        message,
        integration.grouping === 'fingerprint' ? 'fingerprint' : 'group',
        normalizeOptionsOf(integration),
      );
      const receipts = await receiver.receive(admitted, 'alertmanager', events, body);
      return reply.code(202).send(receiptsAnswer(receipts));
    },
  );

  app.post(
    ALERT_PATHS.grafana,
    { ...options, schema: { security: [], response: batonAnswers(AlertReceiptsSchema) } },
    async (req, reply) => {
      const body = inbound(req);
      const admitted = await admission.admit(
        req,
        'grafana',
        bearerOrToken(req),
        grafanaSignatureOf(deps, req, body?.text ?? ''),
      );
      const { integration } = admitted;
      const message = parseWith(GrafanaWebhookSchema, parseJson(body), 400);
      const events = normalizeAlertGroup(
        message,
        integration.grouping === 'fingerprint' ? 'fingerprint' : 'group',
        normalizeOptionsOf(integration),
      );
      const receipts = await receiver.receive(admitted, 'grafana', events, body);
      return reply.code(202).send(receiptsAnswer(receipts));
    },
  );
}

/** Generic: JSON or a form, for scripts and cron jobs. */
function genericRoute(app: FastifyInstance, { admission, receiver }: AlertRouteContext) {
  app.post(
    ALERT_PATHS.generic,
    { ...options, schema: { security: [], response: batonAnswers(AlertReceiptSchema) } },
    async (req, reply) => {
      const admitted = await admission.admit(req, 'generic', bearerOrToken(req));
      const { integration } = admitted;
      const body = inbound(req);
      const fields = body?.form ? formFields(body.text) : parseJson(body);
      const alert = parseWith(GenericAlertSchema, fields, 400);
      const event = normalizeGeneric(alert, generatedDedupKey(), normalizeOptionsOf(integration));
      const [receipt] = await receiver.receive(admitted, 'generic', [event], body);
      return reply.code(202).send({
        dedupKey: receipt.dedupKey,
        outcome: receipt.outcome,
        incidentId: receipt.incidentId,
      });
    },
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
