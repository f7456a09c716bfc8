import type {
  NotificationTestInput,
  NotificationTestResult,
} from '../../../shared/contracts/notification-test';
import { channelNotConfiguredReason } from '../../../shared/contracts/notifications';
import type { User } from '../../../shared/contracts/users';
import { normalizePhone } from '../../../shared/domain/notification-routing';
import {
  METHOD_LABELS,
  type NotificationMethod,
  unreachableReason,
} from '../../../shared/domain/notification-rules';
import { type Channel, DeliveryError } from '../../core/delivery';
import type { Channels } from './channels';
import { scrubProviderAnswer } from './provider-answers';

/**
 * "Send a test" (issue 33, decision 254): one test sender per way a person is reached, keyed by
 * the rule's method. A sender sends a short test through the real channel, at once, and answers
 * what became of it. Calls and push join by adding their entry here (`voice`, `push`); a method
 * without one answers "not set up" with the reason the rules give.
 */

/** What a test sender is given: the person, the device for push, and this server's channels. */
export interface TestSendContext {
  person: User;
  deviceId?: number;
  channels: Channels;
  /** the public address of Baton, for a message that links back */
  baseUrl: string;
}

export type TestSender = (context: TestSendContext) => Promise<NotificationTestResult>;

export const TEST_TEXT =
  'This is a test from Baton: this is how a page reaches you. Nothing to do.';
export const TEST_SUBJECT = 'Baton test notification';

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
    const reason =
      err instanceof DeliveryError && err.providerResponse
        ? `${err.message} (${err.providerResponse})`
        : (err as Error).message;
    return { method, outcome: 'failed', message: scrubProviderAnswer(reason, message.to) };
  }
}

export const testSenders: Partial<Record<NotificationMethod, TestSender>> = {
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
};

/** sendTest runs the method's test sender, or answers why the method is not set up. */
export async function sendTest(
  context: TestSendContext,
  input: NotificationTestInput,
): Promise<NotificationTestResult> {
  const sender = testSenders[input.method];
  if (sender) return sender({ ...context, deviceId: input.deviceId });
  const why =
    unreachableReason(input.method, context.person.phone) ??
    `${METHOD_LABELS[input.method]} has no test yet`;
  return notSetUp(input.method, why);
}
