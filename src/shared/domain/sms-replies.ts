/**
 * SMS replies (decision 201): a person acts on a page from their phone by replying its code,
 * "4821" to acknowledge, "4821R" to resolve. Pure: what a reply's text asks for.
 */

/** What a reply asks: the code, and whether to acknowledge or resolve; null when it is no code. */
export interface SmsReplyRequest {
  code: string;
  action: 'acknowledge' | 'resolve';
}

/** A reply code: four digits. */
export const REPLY_CODE_PATTERN = /^[0-9]{4}$/;

/**
 * parseSmsReply reads a reply: four digits, optionally followed by R (either case, a space
 * between allowed), with surrounding spaces ignored. Anything else is not a code (null).
 */
export function parseSmsReply(body: string): SmsReplyRequest | null {
  const match = /^([0-9]{4})(?:\s*([rR]))?$/.exec(body.trim());
  if (!match) return null;
  return { code: match[1], action: match[2] ? 'resolve' : 'acknowledge' };
}

/** replyInstruction is what an SMS that asks a person to act on a page says about replying. */
export function replyInstruction(code: string): string {
  return `Reply ${code} to acknowledge, ${code}R to resolve.`;
}
