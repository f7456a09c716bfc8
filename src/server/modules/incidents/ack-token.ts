import { createHmac, timingSafeEqual } from 'node:crypto';
import { idText } from '../../../shared/contracts/primitives';
import { hashToken } from '../../crypto/bearer-secrets';
import type { FieldCipher } from '../../crypto/field-crypto';

/**
 * Acknowledgement links (decision 062). A token is `<page id>.<MAC>`, the MAC an HMAC-SHA256 of
 * the page, its current recipient and when they were paged, under a key derived from the
 * encryption key. Only the token's SHA-256 is stored (pages.ack_token_hash). The token can be
 * computed again for the reminder (same link as the first message) and changes with each
 * escalation, so an earlier recipient's link stops working.
 */

const KEY_LABEL = 'baton/page-ack-link/v1';
const TOKEN_PATTERN = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/;

export interface AckSubject {
  pageId: number;
  targetUserId: number;
  /** when the current recipient was paged (the page, or its latest escalation) */
  stepStart: Date;
}

// HMAC(index key, label) is a PRF output used as a key: one per known encryption key, current first.
const keysOf = (cipher: FieldCipher) =>
  cipher.blindIndexes(KEY_LABEL).map((k) => Buffer.from(k, 'base64url'));

function tokenWith(key: Buffer, subject: AckSubject): string {
  const mac = createHmac('sha256', key)
    .update(`${subject.pageId}:${subject.targetUserId}:${subject.stepStart.getTime()}`)
    .digest('base64url');
  return `${subject.pageId}.${mac}`;
}

/** hashAckToken returns what is stored for a token: its SHA-256, hex. */
export function hashAckToken(token: string): string {
  return hashToken(token);
}

/** ackToken returns the link token of a page's current recipient under the current key. */
export function ackToken(cipher: FieldCipher, subject: AckSubject): string {
  return tokenWith(keysOf(cipher)[0], subject);
}

/**
 * storedAckToken returns the token whose hash is stored, computed under any known key (a key
 * rotation between the page and its reminder keeps the first link), or null when none matches.
 */
export function storedAckToken(
  cipher: FieldCipher,
  subject: AckSubject,
  storedHash: string | null,
): string | null {
  if (!storedHash) return null;
  for (const key of keysOf(cipher)) {
    const token = tokenWith(key, subject);
    if (hashMatches(token, storedHash)) return token;
  }
  return null;
}

/** ackTokenMatches tells, in constant time, whether a token is the subject's under any known key. */
export function ackTokenMatches(cipher: FieldCipher, subject: AckSubject, token: string): boolean {
  const given = Buffer.from(token);
  return keysOf(cipher).some((key) => {
    const expected = Buffer.from(tokenWith(key, subject));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** parseAckToken reads the page id of a well-formed token, or null. */
export function parseAckToken(token: string): { pageId: number } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const pageId = idText().safeParse(match[1]);
  return pageId.success ? { pageId: pageId.data } : null;
}

/** hashMatches compares a token with a stored hash in constant time. */
export function hashMatches(token: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashAckToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
