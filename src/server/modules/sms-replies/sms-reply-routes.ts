import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { TwilioIncomingSmsSchema } from '../../../shared/contracts/sms-replies';
import type { AppDeps } from '../../core/deps';
import { notFound, unauthenticated } from '../../http/errors';
import { answers, content } from '../../http/openapi';
import { publicBaseUrl } from '../notifications/messages';
import { smsRepliesEnabled } from './reply-codes';
import { answerSmsReply } from './sms-reply';
import { isReplayedMessage } from './sms-reply-guards';
import { acceptTwilioForms, isSignedByTwilio } from './twilio-webhook';

/** Where Twilio posts a message that comes in ("A message comes in" on the Baton number). */
export const TWILIO_SMS_PATH = '/api/twilio/sms';

export const SMS_REPLIES_OFF = 'SMS replies are off: TWILIO_AUTH_TOKEN is not set.';
export const SIGNATURE_INVALID = 'Request refused: the Twilio signature is missing or wrong.';
export const MESSAGE_REPLAYED =
  'Request refused: this Twilio message (MessageSid) was already received.';

// Public (the signature is the credential), so rate limited like the acknowledgement link; Twilio
// posts from many addresses, so one person's replies never come near it.
const SMS_RATE_LIMIT = { rateLimit: { max: 60, timeWindow: '1 minute' } };

/**
 * smsReplyRoutes: `POST /api/twilio/sms`, the SMS replies to pages (decision 201). Twilio posts
 * the reply form-encoded and signed; Baton answers TwiML with what happened. Off (404) until
 * TWILIO_AUTH_TOKEN is set; a signed request whose MessageSid was already received is refused
 * (401) like an unsigned one. The form parser is this plugin's alone: every other route takes JSON.
 */
export async function smsReplyRoutes(app: FastifyInstance, deps: AppDeps) {
  acceptTwilioForms(app);

  /** Refuses the request unless Twilio signed it: 404 while replies are off, else 401. */
  async function signedByTwilio(req: FastifyRequest) {
    const authToken = deps.config.sms.authToken;
    if (!authToken || !smsRepliesEnabled(deps)) throw notFound(SMS_REPLIES_OFF);
    if (!isSignedByTwilio(req, authToken, publicBaseUrl(deps.config))) {
      throw unauthenticated(SIGNATURE_INVALID);
    }
    // A signed request sent again (captured, or replayed by a proxy) acts once: the signature
    // has no timestamp, the MessageSid is Twilio's id for one message (decision 236).
    const sid = (req.body as Record<string, unknown>).MessageSid;
    if (typeof sid === 'string' && sid.trim() !== '') {
      if (await isReplayedMessage(deps, sid.trim(), deps.clock.now())) {
        throw unauthenticated(MESSAGE_REPLAYED);
      }
    }
  }

  app.withTypeProvider<ZodTypeProvider>().post(
    TWILIO_SMS_PATH,
    {
      config: SMS_RATE_LIMIT,
      preValidation: signedByTwilio,
      schema: {
        security: [],
        body: TwilioIncomingSmsSchema,
        response: answers(
          { 200: content('text/xml', 'TwiML: the message that answers the sender.') },
          400,
          401,
          404,
          429,
        ),
      },
    },
    async (req, reply) => {
      const answer = await answerSmsReply(deps, { from: req.body.From, body: req.body.Body });
      return reply.type('text/xml; charset=utf-8').send(twiml(answer));
    },
  );
}

/** twiml is Twilio's answer document: one message back to the sender. */
export function twiml(message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${escapeXml(message)}</Message></Response>`;
}

function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );
}
