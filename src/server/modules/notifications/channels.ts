import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import { DEMO_INBOX_NOTE } from '../../../shared/contracts/inbox';
import {
  channelNotConfiguredReason,
  type NotificationStatus,
} from '../../../shared/contracts/notifications';
import type { ReadyMethods } from '../../../shared/domain/notification-rules';
import { type Config, isDemoMode } from '../../core/config';
import { type Channel, DeliveryError } from '../../core/delivery';
import { postToTwilio, type TwilioAccount } from './twilio-api';

/** messageIdOf: the Message-ID of a notification's email, from its dedupe key (decision 006). */
export const messageIdOf = (dedupeKey: string) =>
  `<${createHash('sha256').update(dedupeKey).digest('hex').slice(0, 32)}@baton>`;

/** createEmailChannel sends email over SMTP (nodemailer) to SMTP_URL. */
export function createEmailChannel(smtpUrl: string, from: string, timeoutMs = 15_000): Channel {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    name: 'email',
    async send(message) {
      try {
        const { idempotencyKey, ...mail } = message;
        // A Message-ID derived from the notification: mail stores and clients that collapse
        // duplicates show a repeat once. SMTP servers accept it again (decision 006).
        const messageId = idempotencyKey ? messageIdOf(idempotencyKey) : undefined;
        const info = await transport.sendMail({ from, ...mail, messageId });
        return `${info.messageId} ${info.response ?? ''}`.trim();
      } catch (err) {
        const e = err as { responseCode?: number; response?: string; message: string };
        // SMTP 5xx replies are permanent (bad address, refused); 4xx and network errors are not.
        const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
        throw new DeliveryError(e.response ?? e.message, permanent, e.response);
      }
    },
  };
}

/** createSmsChannel sends SMS through Twilio's Messages API (TWILIO_API_BASE lets tests use a loopback server). */
export function createSmsChannel(
  settings: TwilioAccount & { from: string },
  timeoutMs = 10_000,
): Channel {
  return {
    name: 'sms',
    send: (message) =>
      postToTwilio(
        settings,
        'Messages',
        new URLSearchParams({ To: message.to, From: settings.from, Body: message.text }),
        { idempotencyKey: message.idempotencyKey, timeoutMs, what: 'SMS' },
      ),
  };
}

export interface Channels {
  email?: Channel;
  sms?: Channel;
  /** phone calls (modules/voice-calls/voice-channel.ts, decision 252); absent: they fail, saying why */
  voice?: Channel;
  /** destinations' messages (modules/destinations/chat-channel.ts); absent: they wait */
  chat?: Channel;
  /** the token sync's messages (modules/token-sync/token-sync-channel.ts); absent: they wait */
  'token-sync'?: Channel;
  /** a person's pushes (modules/push/push-channel.ts, decision 253); absent: they wait */
  push?: Channel;
}

/**
 * createDemoInboxChannel keeps a message in the demo inbox (decision 186): it sends nothing, and
 * its answer marks the notification as kept. The content stays where it is, sealed in the outbox
 * row, and the inbox reads it from there.
 */
export function createDemoInboxChannel(name: Channel['name']): Channel {
  return { name, send: async () => DEMO_INBOX_NOTE };
}

/**
 * channelsFromConfig builds the channels that are configured. A missing one stays undefined, so
 * its notifications fail visibly with the setting it needs; in demo mode only, it is the demo
 * inbox instead (decision 186).
 */
export function channelsFromConfig(config: Config): Channels {
  const { accountSid, authToken, from, apiBase } = config.sms;
  const missing = (name: Channel['name']) =>
    isDemoMode(config) ? createDemoInboxChannel(name) : undefined;
  return {
    email: config.mail.smtpUrl
      ? createEmailChannel(config.mail.smtpUrl, config.mail.from)
      : missing('email'),
    sms:
      accountSid && authToken && from
        ? createSmsChannel({ accountSid, authToken, from, apiBase })
        : missing('sms'),
  };
}

/**
 * readyMethods: the notification rules' methods beyond email and SMS this configuration can send
 * (decision 252): calls once Twilio is configured (account, token and number, as for SMS).
 */
export function readyMethods(config?: {
  sms?: { accountSid?: string; authToken?: string; from?: string };
}): ReadyMethods {
  const sms = config?.sms;
  return { voice: Boolean(sms?.accountSid && sms.authToken && sms.from) };
}

/** What a configuration allows for delivery: which channels, and what is missing. */
export type ChannelSetup = Pick<NotificationStatus, 'channels' | 'missing' | 'noChannel'>;

/** channelSetup tells which channels the configuration can deliver by, and names what is missing. */
export function channelSetup(config: Pick<Config, 'mail' | 'sms'>): ChannelSetup {
  const channels = {
    email: Boolean(config.mail.smtpUrl),
    sms: Boolean(config.sms.accountSid && config.sms.authToken && config.sms.from),
  };
  const missing = (['email', 'sms'] as const)
    .filter((channel) => !channels[channel])
    .map(channelNotConfiguredReason);
  return { channels, missing, noChannel: !channels.email && !channels.sms };
}

/** NO_CHANNEL_MESSAGE is why readiness fails in production without a channel (decision 163). */
export const NO_CHANNEL_MESSAGE =
  'No notification channel is configured: pages and handoff notices cannot be delivered. Set SMTP_URL, or TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.';

/**
 * channelSetupWarning returns the warning start-up logs in every mode when a channel is missing
 * (naming its settings), or null when both are configured.
 */
export function channelSetupWarning(config: Pick<Config, 'mail' | 'sms'>): string | null {
  const setup = channelSetup(config);
  if (setup.missing.length === 0) return null;
  if (setup.noChannel) return `${NO_CHANNEL_MESSAGE} ${setup.missing.join(' ')}`;
  const fallback = setup.channels.email
    ? 'People who chose SMS get email instead.'
    : 'Notifications go by SMS only, to people with a phone number; the others get none.';
  return `${setup.missing.join(' ')} ${fallback}`;
}
