import type { DestinationEvent, DestinationKind } from '../../../shared/contracts/destinations';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { publicBaseUrl } from '../notifications/messages';
import { enqueueChatMessages } from '../notifications/outbox';
import { bodyFor, type ChatMessage } from './destination-messages';
import { listSubscribedDestinations } from './destination-repository';

/**
 * Posting an event to the destinations that want it (decision 221), in the event's own
 * transaction: one outbox row per (event, destination), so the message commits or rolls back
 * with the change, and the same event twice is sent once.
 */

export interface PostDeps {
  cipher: FieldCipher;
  config?: { publicUrl?: string; port?: number };
}

/** Which destinations an event is for: its rotation's, its policy's and its integration's. */
export interface EventScope {
  rotationId?: number | null;
  policyIds?: readonly number[];
  integrationId?: number | null;
  /** only this destination (of those above): the digest, posted at each one's own time */
  destinationId?: number;
  /** the zone times are written in when the destination names none (the rotation's) */
  timeZone?: string | null;
}

/**
 * postToDestinations writes `event` to every destination of the scope that posts it, each in
 * its kind's body; `eventKey` names the event once and for all (e.g. `handoff:42`). Returns how
 * many messages were new.
 */
export async function postToDestinations(
  tx: Db | Tx,
  deps: PostDeps,
  now: Date,
  scope: EventScope,
  event: DestinationEvent,
  eventKey: string,
  build: (context: { baseUrl: string; timeZone: string }) => ChatMessage,
): Promise<number> {
  const targets = await listSubscribedDestinations(tx, scope, event);
  if (targets.length === 0) return 0;
  const baseUrl = publicBaseUrl(deps.config);
  const ids = await enqueueChatMessages(
    tx,
    deps.cipher,
    now,
    targets.map((destination) => {
      const message = build({
        baseUrl,
        timeZone: zoneOrUtc(destination.digestTimeZone ?? scope.timeZone),
      });
      return {
        eventKey,
        kind: message.type,
        destinationId: destination.id,
        title: message.title,
        body: bodyFor(destination.kind as DestinationKind, message),
      };
    }),
  );
  return ids.length;
}
