import { timingSafeEqual } from 'node:crypto';
import type { FieldCipher } from '../../crypto/field-crypto';

/**
 * Where Twilio calls back about a call (decision 252): the call's TwiML, its key and its status,
 * each under the notification's id and a token that is a keyed hash of it (the blind-index key,
 * so nobody without Baton's key can name another notification's call). Twilio's signature covers
 * the whole URL, so the pair is Twilio's to send; the person and incident are read from the
 * notification, never from the request.
 */

export const TWILIO_VOICE_PATH = '/api/twilio/voice';

/** callToken: the token in a call's URLs, for its notification. */
export function callToken(cipher: FieldCipher, notificationId: number): string {
  return cipher.blindIndex(`voice-call ${notificationId}`);
}

/** isCallToken: whether `token` is the notification's (under any key still known), in constant time. */
export function isCallToken(cipher: FieldCipher, notificationId: number, token: string): boolean {
  const given = Buffer.from(token, 'utf8');
  return cipher.blindIndexes(`voice-call ${notificationId}`).some((expected) => {
    const want = Buffer.from(expected, 'utf8');
    return want.length === given.length && timingSafeEqual(want, given);
  });
}

/** callUrls: a call's three callback addresses, under Baton's public address. */
export function callUrls(baseUrl: string, notificationId: number, token: string) {
  const base = `${baseUrl}${TWILIO_VOICE_PATH}/${notificationId}/${token}`;
  return { twiml: base, gather: `${base}/gather`, status: `${base}/status` };
}
