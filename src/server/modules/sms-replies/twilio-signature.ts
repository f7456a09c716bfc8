import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's request signature (decision 201): `X-Twilio-Signature` is the base64 HMAC-SHA1, keyed
 * by the account's auth token, of the full URL Twilio requested followed by every POST parameter's
 * name and value, sorted by name (a repeated name: each of its values, in the order sent).
 */

/** The header Twilio signs its webhooks with. */
export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';

/** A form body's parameters in the order they came, names repeated as sent. */
export type FormParams = readonly (readonly [string, string])[];

/** twilioSignature computes the signature Twilio sends for a URL and its POST parameters. */
export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  const names = [...new Set(params.map(([name]) => name))].sort();
  let data = url;
  for (const name of names) {
    for (const [n, value] of params) if (n === name) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * isValidTwilioSignature tells whether `signature` is Twilio's for this URL and body, compared in
 * constant time (a signature of another length is refused without comparing).
 */
export function isValidTwilioSignature(
  authToken: string,
  url: string,
  params: FormParams,
  signature: string | undefined,
): boolean {
  if (typeof signature !== 'string' || signature.length === 0) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
