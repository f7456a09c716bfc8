import type { PushNotice } from '../../../shared/contracts/push';
import type { RuleChannel } from '../../../shared/domain/notification-rules';

/**
 * The person channels' registry (decision 241): for each channel a person hears by, what it sends
 * of a message. Every person event is rendered once as a neutral message (subject, email text and
 * HTML, SMS text: `PERSON_MESSAGES`), then written for the channel here; the senders are
 * `channels.ts`' `Channel`s. A channel missing here does not compile, and
 * `person-registry.test.ts` renders every person event through every channel.
 */

/** A message as a person channel receives it: the outbox's input, or a fallback's words. */
export interface PersonMessage {
  subject: string;
  /** the email's plain text */
  text: string;
  html?: string;
  /** a short SMS text; default: the subject and the plain text */
  sms?: string;
  /** what a push shows (decision 253); default: the subject and the SMS text, opening Baton */
  push?: PushNotice;
  /** what a phone call says (`VOICE_MESSAGES`, decision 252); default: the subject */
  voice?: string;
}

/** What a channel sends to a person: the outbox row's sealed content, less the address. */
export interface PersonChannelContent {
  subject: string;
  text: string;
  html?: string;
  /** a push's notice (decision 253), encrypted for each of the person's devices when sent */
  body?: PushNotice;
}

/** A person channel's writer: the channel's words for a message. */
export type PersonChannelBody = (message: PersonMessage) => PersonChannelContent;

/** smsText is the SMS of a message: its `sms`, or subject and text, on one line, cut to 600. */
function smsText(message: PersonMessage): string {
  const text = (message.sms ?? `${message.subject}: ${message.text}`).replace(/\s+/g, ' ').trim();
  return text.length > 600 ? `${text.slice(0, 597)}...` : text;
}

/** pushNoticeOf is the push of a message: its own, or its subject and SMS text, opening Baton. */
function pushNoticeOf(message: PersonMessage): PushNotice {
  return (
    message.push ?? {
      title: message.subject,
      body: smsText(message),
      actions: [{ action: 'open', title: 'Open' }],
      data: { open: '/' },
    }
  );
}

/** spokenText is what a call says of a message: its `voice`, or its subject, cut to 800. */
function spokenText(message: PersonMessage): string {
  const text = (message.voice ?? message.subject).replace(/\s+/g, ' ').trim();
  return text.length > 800 ? `${text.slice(0, 797)}...` : text;
}

export const PERSON_CHANNELS: Record<RuleChannel, PersonChannelBody> = {
  email: (message) => ({ subject: message.subject, text: message.text, html: message.html }),
  sms: (message) => ({ subject: message.subject, text: smsText(message) }),
  // The call's words, sealed in the row; Baton speaks them when Twilio fetches the call's TwiML.
  voice: (message) => ({ subject: message.subject, text: spokenText(message) }),
  push: (message) => {
    const body = pushNoticeOf(message);
    return { subject: message.subject, text: `${body.title}: ${body.body}`, body };
  },
};
