import type { AlertDetailRow } from '../../contracts/alerts';
import type { EMAIL_DEDUPS } from '../../contracts/integrations';
import {
  type AlertEvent,
  alertEvent,
  cutValue,
  dedupKeyOr,
  linksOf,
  type NormalizeOptions,
  realTime,
} from '.';

/** How email becomes incidents: one per subject, or every message its own. */
export type EmailDedup = (typeof EMAIL_DEDUPS)[number];

/**
 * What the SMTP listener reads of one message, decoded: the text body (an HTML-only message's
 * HTML already turned into text), the From header as written and its address.
 */
export interface InboundEmail {
  /** the From header as written (`Cron Daemon <root@db1.example.com>`), or the envelope sender */
  from: string;
  /** the sender's address alone (the alert's source); '' when there is none (a bounce) */
  fromAddress: string;
  subject: string;
  text: string;
  /** the Message-ID header, angle brackets included */
  messageId?: string;
  /** the Date header (ISO 8601), when it holds a valid date */
  date?: string;
}

/** The most links read out of an email's body. */
export const EMAIL_LINKS_MAX = 10;

// Mail may carry what PostgreSQL cannot store or no person types (NUL, other controls, a lone
// surrogate from a broken encoded word): they become U+FFFD, tabs and line breaks stay. HTML's
// &nbsp; (rendered as U+00A0) becomes a plain space, so the text copies and searches as it reads.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const MAIL_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
function mailText(value: string): string {
  return value
    .replace(MAIL_CONTROL, '\uFFFD')
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/\u00A0/g, ' ');
}

// http(s) URLs in running text; the punctuation that usually closes a sentence is not theirs.
const URL_IN_TEXT = /https?:\/\/[^\s<>"'[\]{}|\\^`]+/g;
function urlsIn(text: string): string[] {
  return (text.match(URL_IN_TEXT) ?? []).map((u) => u.replace(/[.,;:!?)]+$/, ''));
}

/**
 * normalizeEmail turns one email into a trigger: the subject is the summary, the From address the
 * source, and From, Subject and the body (cut at DETAIL_VALUE_MAX; the raw message keeps the rest)
 * the details, with the body's first http(s) links. Dedup `subject`: messages with the same
 * subject (white space folded) are one alert; `message`: each message its own, keyed by its
 * Message-ID (a retried delivery is still the same one) or, without one, `generatedDedupKey`.
 * Email carries no severity Baton can trust: P2.
 */
export function normalizeEmail(
  mail: InboundEmail,
  dedup: EmailDedup,
  generatedDedupKey: string,
  options: NormalizeOptions = {},
): AlertEvent {
  const subject = mailText(mail.subject).replace(/\s+/g, ' ').trim();
  const fromAddress = mailText(mail.fromAddress).trim();
  const from = mailText(mail.from).trim() || fromAddress;
  const body = mailText(mail.text).trim();
  const title = subject || `Email from ${fromAddress || 'an unknown sender'}`;
  const details: AlertDetailRow[] = [];
  if (from) details.push({ section: 'Email', label: 'From', value: cutValue(from) });
  details.push({ section: 'Email', label: 'Subject', value: cutValue(subject || '(no subject)') });
  if (body) details.push({ section: 'Email', label: 'Body', value: cutValue(body) });
  return alertEvent(
    {
      action: 'trigger',
      dedupKey: dedup === 'message' ? dedupKeyOr(mail.messageId, generatedDedupKey) : title,
      rawSummary: title,
      source: fromAddress || 'Email',
      severity: 'P2',
      details,
      links: linksOf(urlsIn(body).map((href) => ({ href, text: '' }))).slice(0, EMAIL_LINKS_MAX),
      occurredAt: mail.date === undefined ? undefined : realTime(mail.date),
    },
    options,
  );
}
