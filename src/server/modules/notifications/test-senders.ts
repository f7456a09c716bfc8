import type {
  NotificationTestInput,
  NotificationTestResult,
} from '../../../shared/contracts/notification-test';
import { channelNotConfiguredReason } from '../../../shared/contracts/notifications';
import type { PushNotice } from '../../../shared/contracts/push';
import type { User } from '../../../shared/contracts/users';
import { normalizePhone } from '../../../shared/domain/notification-routing';
import {
  type NotificationMethod,
  RULE_UNREACHABLE,
  unreachableReason,
} from '../../../shared/domain/notification-rules';
import { type Channel, DeliveryError } from '../../core/delivery';
import type { AppDeps } from '../../core/deps';
import { notFound } from '../../http/errors';
import { type PushChannelDeps, sendTestPush } from '../push/push-channel';
import { pushRule } from '../push/push-sender';
import {
  findDeviceRow,
  openSubscription,
  type StoredSubscription,
  toDevice,
} from '../push/push-subscription-repository';
import { vapidKeysOf } from '../push/vapid-keys';
import { type Channels, channelsFromConfig } from './channels';
import { publicBaseUrl } from './messages';
import { scrubProviderAnswer } from './provider-answers';

/**
 * "Send a test" (issue 33, decision 254): one test sender per way a person is reached, keyed by
 * the rule's method: email, SMS, a call (one ring with a short message) and push (to one of the
 * person's devices). A sender sends a short test through the real channel, at once, and answers
 * what became of it, or "not set up" with the reason the rules give.
 */

/**
 * Places a test call to a number for a person (voice-calls' `placeTestCall` with Twilio's
 * settings) and answers the call's sid. The route is given it (voice-calls imports
 * notifications, so notifications does not import it).
 */
export type TestCaller = (to: string, name: string) => Promise<string>;

/** What a test sender is given: the person, the device for push, and this server's channels. */
export interface TestSendContext {
  person: User;
  /** push: which of the person's devices */
  deviceId?: number;
  channels: Channels;
  /** the public address of Baton, for a message that links back */
  baseUrl: string;
  /** calls: absent without Twilio, and a test call is then not set up */
  placeTestCall?: TestCaller;
  /** push: what the push channel sends with (decision 253) */
  push: PushChannelDeps;
}

export type TestSender = (context: TestSendContext) => Promise<NotificationTestResult>;

/**
 * testSendContextOf builds what the test senders send with from the app's deps, once per route
 * plugin: the configured channels, the public address and the push channel (its VAPID keys read
 * on first use). The person comes with each test.
 */
export function testSendContextOf(
  deps: AppDeps & { placeTestCall?: TestCaller },
): Omit<TestSendContext, 'person' | 'deviceId'> {
  const { db } = deps.database;
  return {
    channels: channelsFromConfig(deps.config),
    baseUrl: publicBaseUrl(deps.config),
    placeTestCall: deps.placeTestCall,
    push: {
      db,
      cipher: deps.cipher,
      clock: deps.clock,
      vapid: vapidKeysOf({ config: deps.config, db, cipher: deps.cipher }),
      rule: pushRule(deps.config),
      lookup: deps.resolveHost,
      ca: deps.pushCa,
    },
  };
}

export const TEST_TEXT =
  'This is a test from Baton: this is how a page reaches you. Nothing to do.';
export const TEST_SUBJECT = 'Baton test notification';

/** The test push: the test's words, opening the profile, where the test was sent from. */
export const TEST_PUSH: PushNotice = {
  title: TEST_SUBJECT,
  body: TEST_TEXT,
  tag: 'baton-test',
  actions: [{ action: 'open', title: 'Open' }],
  data: { open: '/profile' },
};

/** What a test push to a device the push service says is gone answers. */
export const PUSH_DEVICE_GONE = 'This device is no longer subscribed; it was removed';
/** A device id that is not one of the person's. */
export const DEVICE_NOT_FOUND = 'Device not found';

const notSetUp = (method: NotificationMethod, message: string): NotificationTestResult => ({
  method,
  outcome: 'not-set-up',
  message,
});

/**
 * sendThrough sends one test message by a channel and reads the outcome: delivered with what
 * was sent, or failed with the provider's reason (without the address or number).
 */
export async function sendThrough(
  method: NotificationMethod,
  channel: Channel,
  message: { to: string; subject: string; text: string; html?: string },
  delivered: string,
): Promise<NotificationTestResult> {
  try {
    await channel.send({ ...message, idempotencyKey: `test:${method}:${Date.now()}` });
    return { method, outcome: 'delivered', message: delivered };
  } catch (err) {
    return failed(method, err, message.to);
  }
}

/** failed: a test the provider refused, with its reason without the address or number. */
function failed(method: NotificationMethod, err: unknown, to: string): NotificationTestResult {
  const reason =
    err instanceof DeliveryError && err.providerResponse
      ? `${err.message} (${err.providerResponse})`
      : (err as Error).message;
  return { method, outcome: 'failed', message: scrubProviderAnswer(reason, to) };
}

/**
 * The person's device for a test push, opened to send to, with its name; a 404 when it is not
 * theirs. A device sealed under a key this server no longer has answers why it cannot be sent to.
 */
async function deviceFor(
  push: PushChannelDeps,
  userId: number,
  deviceId: number,
): Promise<{ name: string; target: StoredSubscription | string }> {
  const row = await findDeviceRow(push.db, userId, deviceId);
  if (!row) throw notFound(DEVICE_NOT_FOUND);
  const { name } = toDevice(row, push.cipher);
  try {
    return { name, target: openSubscription(row, push.cipher) };
  } catch {
    return {
      name,
      target: "This device cannot be read with this server's key; turn push on again",
    };
  }
}

export const testSenders: Record<NotificationMethod, TestSender> = {
  email: async ({ person, channels }) => {
    if (!channels.email) return notSetUp('email', channelNotConfiguredReason('email'));
    return sendThrough(
      'email',
      channels.email,
      { to: person.email, subject: TEST_SUBJECT, text: TEST_TEXT },
      'Test email sent',
    );
  },
  sms: async ({ person, channels }) => {
    const why = unreachableReason('sms', person.phone);
    if (why) return notSetUp('sms', why);
    if (!channels.sms) return notSetUp('sms', channelNotConfiguredReason('sms'));
    return sendThrough(
      'sms',
      channels.sms,
      { to: normalizePhone(person.phone) as string, subject: TEST_SUBJECT, text: TEST_TEXT },
      'Test SMS sent',
    );
  },
  voice: async ({ person, placeTestCall }) => {
    const why = unreachableReason('voice', person.phone, { voice: placeTestCall !== undefined });
    if (why || !placeTestCall) return notSetUp('voice', why ?? RULE_UNREACHABLE.voiceNotSetUp);
    const to = normalizePhone(person.phone) as string;
    try {
      await placeTestCall(to, person.name);
      return { method: 'voice', outcome: 'delivered', message: 'Test call placed' };
    } catch (err) {
      return failed('voice', err, to);
    }
  },
  push: async ({ person, deviceId, push }) => {
    // The contract refuses a push test without a device (400 naming deviceId).
    if (deviceId === undefined) throw notFound(DEVICE_NOT_FOUND);
    const { name, target } = await deviceFor(push, person.id, deviceId);
    if (typeof target === 'string') return { method: 'push', outcome: 'failed', message: target };
    const outcome = await sendTestPush(push, target, TEST_PUSH);
    if (outcome.kind === 'sent') {
      return { method: 'push', outcome: 'delivered', message: `Test push sent to ${name}` };
    }
    return {
      method: 'push',
      outcome: 'failed',
      message: outcome.kind === 'gone' ? PUSH_DEVICE_GONE : outcome.reason,
    };
  },
};

/** sendTest runs the method's test sender. */
export function sendTest(
  context: TestSendContext,
  input: NotificationTestInput,
): Promise<NotificationTestResult> {
  return testSenders[input.method]({ ...context, deviceId: input.deviceId });
}
