import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type FormParams,
  isValidTwilioSignature,
  TWILIO_SIGNATURE_HEADER,
} from './twilio-signature';

/**
 * Twilio's webhooks (decisions 201 and 252): the form Twilio posts, kept with its parameters in
 * the order sent, and the one check of its `X-Twilio-Signature` for the exact public URL it
 * requested. The SMS replies and the phone calls' callbacks both use these two, so there is one
 * way Baton believes Twilio.
 */

/** The largest form Twilio posts (an SMS of 1,600 characters, a call's few dozen fields). */
const FORM_BODY_LIMIT = 64 * 1024;

/** The form bodies' parameters in the order sent (repeated names kept), for the signature. */
const formParams = new WeakMap<object, FormParams>();

/**
 * acceptTwilioForms lets a plugin's routes take Twilio's form-encoded posts (the parser is the
 * plugin's alone: every other route takes JSON), keeping each body's parameters for the signature.
 */
export function acceptTwilioForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_req, body, done) => {
      const pairs = [...new URLSearchParams(body as string)];
      const fields = Object.fromEntries(pairs);
      formParams.set(fields, pairs);
      done(null, fields);
    },
  );
}

/**
 * isSignedByTwilio tells whether Twilio signed this request: its signature is Twilio's for the URL
 * it requested (Baton's public address `baseUrl`, the path and the query string, as sent) and the
 * form it posted, under the account's auth token.
 */
export function isSignedByTwilio(req: FastifyRequest, authToken: string, baseUrl: string): boolean {
  const pairs = typeof req.body === 'object' && req.body !== null && formParams.get(req.body);
  const signature = req.headers[TWILIO_SIGNATURE_HEADER];
  return (
    Boolean(pairs) &&
    typeof signature === 'string' &&
    isValidTwilioSignature(authToken, `${baseUrl}${req.url}`, pairs as FormParams, signature)
  );
}
