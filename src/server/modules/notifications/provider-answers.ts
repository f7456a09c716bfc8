/**
 * What a provider answers (an SMTP reply, a Twilio error body) is kept for administrators in
 * `notifications.last_error` and `provider_response`, in clear so it stays searchable and
 * readable. Providers quote the recipient ("550 5.1.1 <ada@example.com>: user unknown", "The 'To'
 * number +15551234567 is not valid"), so personal data is taken out first (decision 101); the
 * recipient is in the encrypted content, and the outbox view shows it from there.
 */

export const HIDDEN_ADDRESS = '(address hidden)';
export const HIDDEN_NUMBER = '(number hidden)';

const EMAIL = /[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
/** `+` (or its URL encoding) and 7 to 15 digits, with the spaces, dots, dashes and brackets people write */
const PHONE = /(?:\+|%2B)[1-9](?:[\s().-]{0,2}\d){6,14}/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * scrubProviderAnswer returns a provider's answer without the recipient's address or number, nor
 * anything that looks like an email address or an E.164 number; null stays null.
 */
export function scrubProviderAnswer(text: string, recipient?: string): string;
export function scrubProviderAnswer(text: string | null, recipient?: string): string | null;
export function scrubProviderAnswer(text: string | null, recipient?: string): string | null {
  if (text == null) return null;
  let out = text;
  const to = recipient?.trim();
  if (to) {
    const isAddress = to.includes('@');
    const replacement = isAddress ? HIDDEN_ADDRESS : HIDDEN_NUMBER;
    // The recipient as sent, and a number's digits without the plus (some answers drop it).
    const forms = isAddress ? [to] : [to, to.replace(/^\+/, '')].filter((f) => f.length >= 7);
    for (const form of forms) {
      out = out.replace(new RegExp(escapeRegExp(form), 'gi'), replacement);
    }
  }
  return out.replace(EMAIL, HIDDEN_ADDRESS).replace(PHONE, HIDDEN_NUMBER);
}

/**
 * failureReason returns why a notification failed as people read it: the recorded reason, with
 * the provider's own words when its answer is a JSON error with a message (Twilio's "Attempt to
 * send to unsubscribed recipient"). Both are stored already scrubbed.
 */
export function failureReason(lastError: string | null, providerResponse: string | null): string {
  const reason = lastError ?? 'Not delivered';
  if (!providerResponse || providerResponse === lastError) return reason;
  try {
    const answer = JSON.parse(providerResponse) as { message?: unknown };
    if (typeof answer.message === 'string' && answer.message.trim() !== '') {
      return `${reason} (${answer.message.trim()})`;
    }
  } catch {
    // Not JSON (an SMTP reply is already the reason): the reason alone.
  }
  return reason;
}
