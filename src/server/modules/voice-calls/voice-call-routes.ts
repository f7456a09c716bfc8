import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type TwilioCall,
  TwilioCallParams,
  TwilioCallSchema,
} from '../../../shared/contracts/voice-calls';
import type { AppDeps } from '../../core/deps';
import { forbidden, notFound } from '../../http/errors';
import { answers, content } from '../../http/openapi';
import { readyMethods } from '../notifications/channels';
import { publicBaseUrl } from '../notifications/messages';
import { acceptTwilioForms, isSignedByTwilio } from '../sms-replies/twilio-webhook';
import { answerCall, type CallCallback, callStatus, pressKey } from './voice-call-service';
import { isCallToken, TWILIO_VOICE_PATH } from './voice-call-urls';

/** The call's TwiML, its key and its status: under the notification's id and its token. */
export const VOICE_CALL_ROUTES = {
  twiml: `${TWILIO_VOICE_PATH}/:id/:token`,
  gather: `${TWILIO_VOICE_PATH}/:id/:token/gather`,
  status: `${TWILIO_VOICE_PATH}/:id/:token/status`,
} as const;

export const CALLS_OFF =
  'Phone calls are off: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are not all set.';
export const CALL_SIGNATURE_INVALID =
  'Request refused: the Twilio signature is missing or wrong for this address.';
export const CALL_TOKEN_WRONG = 'No such call.';

// Public (the signature is the credential), so rate limited like the SMS replies; Twilio posts a
// few callbacks per call.
const CALL_RATE_LIMIT = { rateLimit: { max: 120, timeWindow: '1 minute' } };

/**
 * voiceCallRoutes: Twilio's callbacks about the phone calls Baton places (decision 252). Off
 * (404) until Twilio is configured; each refuses a request whose `X-Twilio-Signature` is not
 * Twilio's for this exact URL and form (403, nothing changed), then a token that is not the
 * notification's (404). They answer TwiML.
 */
export async function voiceCallRoutes(app: FastifyInstance, deps: AppDeps) {
  acceptTwilioForms(app);

  /** Refuses the request unless Twilio signed it for this call: 404 while calls are off, else 403. */
  async function signedForThisCall(req: FastifyRequest) {
    const authToken = deps.config.sms.authToken;
    if (!authToken || !readyMethods(deps.config).voice) throw notFound(CALLS_OFF);
    if (!isSignedByTwilio(req, authToken, publicBaseUrl(deps.config))) {
      throw forbidden(CALL_SIGNATURE_INVALID);
    }
    const { id, token } = req.params as { id?: string; token?: string };
    if (!/^\d+$/.test(id ?? '') || !isCallToken(deps.cipher, Number(id), token ?? '')) {
      throw notFound(CALL_TOKEN_WRONG);
    }
  }

  const callbackOf = (params: { id: number; token: string }, body: TwilioCall): CallCallback => ({
    notificationId: params.id,
    token: params.token,
    callSid: body.CallSid,
    callStatus: body.CallStatus,
    answeredBy: body.AnsweredBy,
    digits: body.Digits,
  });

  const route = (description: string) => ({
    config: CALL_RATE_LIMIT,
    preValidation: signedForThisCall,
    schema: {
      security: [],
      params: TwilioCallParams,
      body: TwilioCallSchema,
      response: answers({ 200: content('text/xml', description) }, 400, 401, 403, 404, 429),
    },
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    VOICE_CALL_ROUTES.twiml,
    route('TwiML: the page spoken, listening for one key.'),
    async (req, reply) =>
      reply
        .type('text/xml; charset=utf-8')
        .send(await answerCall(deps, callbackOf(req.params, req.body))),
  );
  api.post(VOICE_CALL_ROUTES.gather, route('TwiML: what the key did.'), async (req, reply) =>
    reply
      .type('text/xml; charset=utf-8')
      .send(await pressKey(deps, callbackOf(req.params, req.body))),
  );
  api.post(
    VOICE_CALL_ROUTES.status,
    route('TwiML: nothing (the call’s progress is recorded).'),
    async (req, reply) =>
      reply
        .type('text/xml; charset=utf-8')
        .send(await callStatus(deps, callbackOf(req.params, req.body))),
  );
}
