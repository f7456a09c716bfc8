import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { hitRateLimit, rateLimitHitsOf } from '../../http/rate-limit-store';

/**
 * Limits for clients that guess at SMS replies (issue 30, decision 236), kept in the shared
 * rate-limit table (decision 161) so every instance on one database counts together: wrong reply
 * codes per phone number, and the Twilio MessageSids already acted on. Numbers and ids are stored
 * only as keyed hashes.
 */

/** Wrong codes one number may reply within WRONG_CODE_WINDOW_MS before its codes are not tried. */
export const WRONG_CODE_LIMIT = 10;
export const WRONG_CODE_WINDOW_MS = 60 * 60 * 1000;
/** How long a MessageSid is remembered: a replay within it is refused. */
export const SEEN_MESSAGE_MS = 7 * 24 * 60 * 60 * 1000;

interface GuardDeps {
  database: { db: Db };
  cipher: FieldCipher;
}

const wrongCodeKey = (cipher: FieldCipher, phone: string) =>
  cipher.blindIndex(`sms-reply wrong-code ${cipher.phoneIndex(phone)}`);

/** wrongCodesFrom answers how many wrong codes an E.164 number replied in its current window. */
export async function wrongCodesFrom(deps: GuardDeps, phone: string, now: Date): Promise<number> {
  return rateLimitHitsOf(deps.database.db, wrongCodeKey(deps.cipher, phone), now);
}

/** countWrongCode counts one wrong code from a number and answers its count in the window. */
export async function countWrongCode(deps: GuardDeps, phone: string, now: Date): Promise<number> {
  const count = await hitRateLimit(
    deps.database.db,
    wrongCodeKey(deps.cipher, phone),
    now,
    WRONG_CODE_WINDOW_MS,
  );
  return count.current;
}

/**
 * isReplayedMessage records a signed request's MessageSid and tells whether it was seen before:
 * Twilio's signature has no timestamp, so a captured request would otherwise act again whenever
 * it is sent. One statement, so two instances given the same request at once agree on which
 * came first.
 */
export async function isReplayedMessage(
  deps: GuardDeps,
  messageSid: string,
  now: Date,
): Promise<boolean> {
  const key = deps.cipher.blindIndex(`twilio message-sid ${messageSid}`);
  const count = await hitRateLimit(deps.database.db, key, now, SEEN_MESSAGE_MS);
  return count.current > 1;
}
