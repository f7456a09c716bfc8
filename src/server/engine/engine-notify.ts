import type { User } from '../../shared/contracts/users';
import { zoneOrUtc } from '../../shared/domain/time-zones';
import type { Config } from '../config';
import type { FieldCipher } from '../crypto/field-crypto';
import type { Tx } from '../db/client';
import { publicBaseUrl } from '../modules/notifications/messages';
import { enqueueNotifications, type NotificationInput } from '../modules/notifications/outbox';
import type { EngineMessage, MessageContext } from './handoff-messages';

/** One notification the engine sends: to whom, what, and the key that makes it once-only. */
export interface EngineNotice {
  eventKey: string;
  kind: string;
  recipient: User | undefined;
  message: (context: MessageContext) => EngineMessage;
}

/**
 * sendNotices writes the notices to the outbox in the caller's transaction, each in its reader's
 * time zone; a notice whose event key was sent to that person before is not sent again.
 */
export async function sendNotices(
  tx: Tx,
  deps: { cipher: FieldCipher; config: Pick<Config, 'publicUrl' | 'port'> },
  now: Date,
  rotation: { id: number; name: string },
  notices: EngineNotice[],
): Promise<number> {
  const inputs = noticeInputs(deps, rotation, notices);
  if (inputs.length === 0) return 0;
  return enqueueNotifications(tx, deps.cipher, now, inputs);
}

/** noticeInputs writes each notice out for the outbox, in its reader's time zone. */
export function noticeInputs(
  deps: { config: Pick<Config, 'publicUrl' | 'port'> },
  rotation: { id: number; name: string },
  notices: EngineNotice[],
): NotificationInput[] {
  const baseUrl = publicBaseUrl(deps.config);
  return notices
    .filter((n): n is EngineNotice & { recipient: User } => n.recipient !== undefined)
    .map((n) => {
      const content = n.message({ baseUrl, rotation, timeZone: zoneOrUtc(n.recipient.timezone) });
      return {
        eventKey: n.eventKey,
        kind: n.kind,
        recipient: n.recipient,
        subject: content.subject,
        text: content.text,
        html: content.html,
        sms: content.sms,
      };
    });
}
