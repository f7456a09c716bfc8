import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SlackBlockActionsSchema,
  SlackCommandFormSchema,
  SlackInteractionFormSchema,
  SlackMessageSchema,
} from '../../../shared/contracts/slack';
import type { AppDeps } from '../../core/deps';
import { badRequest, notFound, unauthenticated } from '../../http/errors';
import { answers, noContent } from '../../http/openapi';
import { outboundRule } from '../../http/outbound-address';
import { isSlackResponseUrl, postToResponseUrl } from './slack-api';
import { answerSlackCommand } from './slack-commands';
import { answerSlackClick } from './slack-interactions';
import { SlackPeople } from './slack-people';
import {
  isValidSlackSignature,
  SLACK_SIGNATURE_HEADER,
  SLACK_TIMESTAMP_HEADER,
} from './slack-signature';

/** Where Slack posts a click on a button (the app's Interactivity request URL). */
export const SLACK_INTERACTIONS_PATH = '/api/slack/interactions';
/** Where Slack posts `/baton …` (the slash command's request URL). */
export const SLACK_COMMANDS_PATH = '/api/slack/commands';

export const SLACK_OFF = 'The Slack app is off: SLACK_SIGNING_SECRET is not set.';
export const SLACK_SIGNATURE_INVALID =
  'Request refused: the Slack signature is missing, wrong or more than five minutes old.';
export const SLACK_PAYLOAD_INVALID = 'payload: not a click on a Baton button';

// Public (the signature is the credential), so rate limited; Slack posts from many addresses.
const SLACK_RATE_LIMIT = { rateLimit: { max: 300, timeWindow: '1 minute' } };

/** The largest form Slack posts: a click carries the whole message's blocks (50 at most). */
const FORM_BODY_LIMIT = 256 * 1024;

/** What the log says when Slack's users.info gives no answer Baton can use (the reason only). */
const usersInfoWarning = (req: FastifyRequest) => (reason: string) =>
  req.log.warn({ reason }, 'slack: users.info gave no answer; the request was refused');

/** The form bodies as they came, for the signature (it covers the raw bytes, not the fields). */
const rawBodies = new WeakMap<object, string>();

/**
 * slackRoutes: the Slack app (issue 19, decision 222). `POST /api/slack/interactions` takes a
 * click on an incident's or a handoff's button, `POST /api/slack/commands` the `/baton` command;
 * both only signed by Slack (X-Slack-Signature over the raw body, a timestamp within five minutes
 * of Baton's clock), else 401 and nothing read. Off (404) until SLACK_SIGNING_SECRET is set. The
 * form parser is this plugin's alone: every other route takes JSON.
 */
export async function slackRoutes(app: FastifyInstance, deps: AppDeps) {
  const people = new SlackPeople(deps);

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_req, body, done) => {
      const fields = Object.fromEntries(new URLSearchParams(body as string));
      rawBodies.set(fields, body as string);
      done(null, fields);
    },
  );

  /** Refuses the request unless Slack signed it: 404 while the app is off, else 401. */
  async function signedBySlack(req: FastifyRequest) {
    const secret = deps.config.slack.signingSecret;
    if (!secret) throw notFound(SLACK_OFF);
    const rawBody =
      typeof req.body === 'object' && req.body !== null ? rawBodies.get(req.body) : undefined;
    const valid = isValidSlackSignature(
      secret,
      {
        timestamp: req.headers[SLACK_TIMESTAMP_HEADER],
        signature: req.headers[SLACK_SIGNATURE_HEADER],
        rawBody,
      },
      deps.clock.now(),
    );
    if (!valid) throw unauthenticated(SLACK_SIGNATURE_INVALID);
  }

  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    SLACK_INTERACTIONS_PATH,
    {
      config: SLACK_RATE_LIMIT,
      preValidation: signedBySlack,
      schema: {
        security: [],
        body: SlackInteractionFormSchema,
        response: answers(
          { 200: noContent('Received; the message changes after.') },
          400,
          401,
          404,
          429,
        ),
      },
    },
    async (req, reply) => {
      let json: unknown;
      try {
        json = JSON.parse(req.body.payload);
      } catch {
        throw badRequest(SLACK_PAYLOAD_INVALID);
      }
      const parsed = SlackBlockActionsSchema.safeParse(json);
      if (!parsed.success) throw badRequest(SLACK_PAYLOAD_INVALID);
      const payload = parsed.data;
      // The change is committed here; Slack hears 200 at once, the message changes after.
      const answer = await answerSlackClick(deps, people, payload, usersInfoWarning(req));
      const responseUrl = payload.response_url;
      if (responseUrl && isSlackResponseUrl(responseUrl, deps.config.isProduction)) {
        postToResponseUrl(responseUrl, answer.message, {
          rule: outboundRule({
            isProduction: deps.config.isProduction,
            allowedCidrs: deps.config.destinationAllowedCidrs,
          }),
          lookup: deps.resolveHost,
        }).catch((err: unknown) => {
          req.log.warn({ err }, 'slack: the message update failed');
        });
      } else if (responseUrl) {
        req.log.warn('slack: a response_url that is not Slack’s was ignored');
      }
      return reply.code(200).send();
    },
  );

  api.post(
    SLACK_COMMANDS_PATH,
    {
      config: SLACK_RATE_LIMIT,
      preValidation: signedBySlack,
      schema: {
        security: [],
        body: SlackCommandFormSchema,
        response: answers({ 200: SlackMessageSchema }, 400, 401, 404, 429),
      },
    },
    async (req) => answerSlackCommand(deps, people, req.body, usersInfoWarning(req)),
  );
}
