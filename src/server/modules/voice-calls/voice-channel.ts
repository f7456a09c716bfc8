import type { Config } from '../../core/config';
import { type Channel, DeliveryError } from '../../core/delivery';
import type { FieldCipher } from '../../crypto/field-crypto';
import { publicBaseUrl } from '../notifications/messages';
import { postToTwilio } from '../notifications/twilio-api';
import { callToken, callUrls } from './voice-call-urls';
import { sayAndHangUp } from './voice-twiml';

/** Twilio's settings for calls: the same as for SMS (decision 252). */
export interface VoiceSettings {
  accountSid: string;
  authToken: string;
  /** the Twilio number calls come from (E.164) */
  from: string;
  /** TWILIO_API_BASE: tests use a loopback server */
  apiBase: string;
  /** Baton's public address, where Twilio calls back */
  publicBaseUrl: string;
  /** ask Twilio to detect answering machines (TWILIO_MACHINE_DETECTION) */
  machineDetection?: boolean;
}

/** The call progress Twilio reports to the status callback: the outcome is in `completed` & co. */
export const STATUS_CALLBACK_EVENTS = ['initiated', 'ringing', 'answered', 'completed'] as const;

/**
 * createVoiceChannel places phone calls through Twilio's Calls API (POST
 * /2010-04-01/Accounts/{Sid}/Calls.json): To, From, Url (Baton's TwiML of this call),
 * StatusCallback with its events, and MachineDetection when it is on. The provider's answer is the
 * call's sid; whether the call was answered comes later, to the status callback, which fails the
 * notification when nobody answered (`voice-call-service.ts`).
 */
export function createVoiceChannel(
  settings: VoiceSettings,
  cipher: FieldCipher,
  timeoutMs = 10_000,
): Channel {
  return {
    name: 'voice',
    async send(message, context) {
      if (context === undefined) {
        throw new DeliveryError('A call needs its notification to call back about', true);
      }
      const { notificationId } = context;
      const urls = callUrls(
        settings.publicBaseUrl,
        notificationId,
        callToken(cipher, notificationId),
      );
      const body = new URLSearchParams({
        To: message.to,
        From: settings.from,
        Url: urls.twiml,
        Method: 'POST',
        StatusCallback: urls.status,
        StatusCallbackMethod: 'POST',
      });
      for (const event of STATUS_CALLBACK_EVENTS) body.append('StatusCallbackEvent', event);
      if (settings.machineDetection) body.set('MachineDetection', 'Enable');
      return postCall(settings, body, message.idempotencyKey, timeoutMs);
    },
  };
}

/** postCall asks Twilio's Calls API to place a call; answers the call's sid. */
function postCall(
  settings: Pick<VoiceSettings, 'accountSid' | 'authToken' | 'apiBase'>,
  body: URLSearchParams,
  idempotencyKey: string | undefined,
  timeoutMs: number,
): Promise<string> {
  return postToTwilio(settings, 'Calls', body, { idempotencyKey, timeoutMs, what: 'Call' });
}

/** What a test call says: who asked for it, and that nothing needs doing. */
export const testCallWords = (name: string) =>
  `This is a test call from Baton for ${name}. Pages by phone will sound like this. Nothing needs doing. Goodbye.`;

/**
 * placeTestCall rings a phone once with a short message and no key to press (for "Send a test",
 * issue 33): the TwiML goes with the request (`Twiml`), so there is nothing to call back about.
 * Answers the call's sid; throws DeliveryError as the channel does.
 */
export function placeTestCall(
  settings: Pick<VoiceSettings, 'accountSid' | 'authToken' | 'from' | 'apiBase'>,
  to: string,
  name: string,
  timeoutMs = 10_000,
): Promise<string> {
  const body = new URLSearchParams({
    To: to,
    From: settings.from,
    Twiml: sayAndHangUp(testCallWords(name)),
  });
  return postCall(settings, body, undefined, timeoutMs);
}

/**
 * testCallerFromConfig: `placeTestCall` with this configuration's Twilio settings, for "Send a
 * test" (decision 254), or undefined when Twilio is not configured (as for the channel).
 */
export function testCallerFromConfig(
  config: Config,
): ((to: string, name: string) => Promise<string>) | undefined {
  const { accountSid, authToken, from, apiBase } = config.sms;
  if (!accountSid || !authToken || !from) return undefined;
  return (to, name) => placeTestCall({ accountSid, authToken, from, apiBase }, to, name);
}

/** voiceChannelFromConfig: the calls' channel when Twilio is configured (as for SMS), else none. */
export function voiceChannelFromConfig(config: Config, cipher: FieldCipher): Channel | undefined {
  const { accountSid, authToken, from, apiBase, machineDetection } = config.sms;
  if (!accountSid || !authToken || !from) return undefined;
  return createVoiceChannel(
    {
      accountSid,
      authToken,
      from,
      apiBase,
      publicBaseUrl: publicBaseUrl(config),
      machineDetection,
    },
    cipher,
  );
}
