import type { PushNotice } from '../../../shared/contracts/push';
import type { Clock } from '../../core/clock';
import { type Channel, DeliveryError } from '../../core/delivery';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import type { HostLookup, OutboundRule } from '../../http/outbound-address';
import { type PushOutcome, type PushTarget, pushTopic, sendPush } from './push-sender';
import {
  deleteSubscriptionById,
  markSent,
  type StoredSubscription,
  subscriptionsToSend,
} from './push-subscription-repository';
import type { VapidKeys } from './vapid-keys';

/**
 * The push channel (issue 33, decision 253): the outbox's sender of a person's pushes. A row
 * names the person (`to`, their id) and carries the notice (`body`); the channel reads their
 * devices when it sends, so a device added or removed meanwhile counts, and sends the notice to
 * each. A device the push service says is gone (404, 410) is removed. The row is sent when one
 * device accepted; when none did it is retried if a push service may accept later, else failed.
 */

/** Why a push found nobody to go to: the person has no device (any more). */
export const NO_PUSH_DEVICE = 'No device is set up for push';

export interface PushChannelDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
  vapid: () => Promise<VapidKeys>;
  rule: OutboundRule;
  lookup?: HostLookup;
  /** tests: the loopback push service's certificate authority */
  ca?: string;
  timeoutMs?: number;
}

/** sendToDevice sends a notice to one stored device and keeps what the push service answered. */
async function sendToDevice(
  deps: PushChannelDeps,
  device: StoredSubscription,
  notice: PushNotice,
  topic?: string,
): Promise<PushOutcome> {
  const outcome = await sendPush(device, notice, {
    vapid: await deps.vapid(),
    rule: deps.rule,
    lookup: deps.lookup,
    ca: deps.ca,
    timeoutMs: deps.timeoutMs,
    topic,
  });
  if (outcome.kind === 'sent') await markSent(deps.db, device.id, deps.clock.now());
  if (outcome.kind === 'gone') await deleteSubscriptionById(deps.db, device.id);
  return outcome;
}

/** answerOf: the channel's answer in Baton's words: how many devices took it, how many were gone. */
function answerOf(outcomes: readonly PushOutcome[]): string {
  const sent = outcomes.filter((o) => o.kind === 'sent').length;
  const gone = outcomes.filter((o) => o.kind === 'gone').length;
  const devices = (n: number) => `${n} device${n === 1 ? '' : 's'}`;
  return `Pushed to ${devices(sent)} of ${outcomes.length}${gone ? `; ${devices(gone)} gone, removed` : ''}`;
}

/**
 * onceOnDevice makes a notification's repeats harmless (issue 36). A push whose answer was lost
 * is sent again and may arrive twice: the repeat carries the first's Topic, so a push service
 * still holding the first for an offline device replaces it, and the first's tag and id, so a
 * device that already shows the first replaces it without a second alert. A notice with its own
 * tag (an incident's, which its reminders replace, alerting again) keeps it.
 */
export function onceOnDevice(
  notice: PushNotice,
  notificationKey: string | undefined,
): { topic: string | undefined; shown: PushNotice } {
  if (!notificationKey) return { topic: undefined, shown: notice };
  const topic = pushTopic(notificationKey);
  return {
    topic,
    shown: { ...notice, tag: notice.tag ?? topic, data: { ...notice.data, id: topic } },
  };
}

/** createPushChannel makes the outbox's push channel. */
export function createPushChannel(deps: PushChannelDeps): Channel {
  return {
    name: 'push',
    async send(message) {
      const userId = Number(message.to);
      const notice = message.body as PushNotice | undefined;
      if (!Number.isInteger(userId) || !notice) {
        throw new DeliveryError('The push has no person or no notice', true);
      }
      const devices = await subscriptionsToSend(deps.db, deps.cipher, userId);
      if (devices.length === 0) throw new DeliveryError(NO_PUSH_DEVICE, true);
      const { topic, shown } = onceOnDevice(notice, message.idempotencyKey);
      const outcomes = await Promise.all(devices.map((d) => sendToDevice(deps, d, shown, topic)));
      if (outcomes.some((o) => o.kind === 'sent')) return answerOf(outcomes);
      const failures = outcomes.filter((o) => o.kind === 'failed');
      if (failures.length === 0)
        throw new DeliveryError(`${NO_PUSH_DEVICE} (${answerOf(outcomes)})`, true);
      const retry = failures.some((f) => f.retry);
      throw new DeliveryError(failures.map((f) => f.reason).join('; '), !retry);
    },
  };
}

/**
 * sendTestPush sends one notice to one device now, outside the outbox ("Send a test", a later
 * step of issue 33): what the push service answered, the device removed if it is gone.
 */
export async function sendTestPush(
  deps: PushChannelDeps,
  device: StoredSubscription,
  notice: PushNotice,
): Promise<PushOutcome> {
  return sendToDevice(deps, device, notice);
}

export type { PushTarget };
