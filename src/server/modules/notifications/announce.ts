import type { DestinationKind } from '../../../shared/contracts/destinations';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import {
  type DestinationRow,
  findDestinationRow,
  listSubscribedDestinations,
} from '../destinations/destination-repository';
import { renderChat } from './chat-registry';
import type { NotificationEvent } from './events';
import { publicBaseUrl } from './messages';
import { enqueueChatMessages } from './outbox';

/**
 * One way out (decision 241): an event site calls `announce` once, inside the transaction that
 * caused the event. It works out who should hear of it and writes each their rendered message to
 * the outbox, so the messages commit or roll back with the change, and the same event (its `key`)
 * twice is sent once. Today its audience is the chat and webhook destinations subscribed to the
 * event (decision 221): one outbox row per (event, destination).
 */

/** What announcing needs: the cipher that seals the rows and, for links, the configuration. */
export interface AnnounceDeps {
  cipher: FieldCipher;
  config?: { publicUrl?: string; port?: number };
}

/** destinationsOf reads the destinations that hear of an event: one statement. */
async function destinationsOf(tx: Db | Tx, event: NotificationEvent): Promise<DestinationRow[]> {
  switch (event.type) {
    case 'handoff':
    case 'cover':
    case 'time-off':
    case 'shift-moved':
      return listSubscribedDestinations(tx, { rotationId: event.rotation.id }, event.type);
    case 'incident.raised':
    case 'incident.acknowledged':
    case 'incident.escalated':
    case 'incident.resolved':
      return listSubscribedDestinations(
        tx,
        {
          rotationId: event.rotationId,
          policyIds: event.escalationPolicyId ? [event.escalationPolicyId] : [],
          integrationId: event.integrationId,
        },
        event.type,
      );
    case 'digest': {
      const { destination } = event;
      return listSubscribedDestinations(
        tx,
        {
          rotationId: destination.rotationId,
          policyIds: destination.escalationPolicyId ? [destination.escalationPolicyId] : [],
          integrationId: destination.integrationId,
          destinationId: destination.id,
        },
        'digest',
      );
    }
    case 'test': {
      const row = await findDestinationRow(tx, event.destinationId);
      return row ? [row.destination] : [];
    }
  }
}

/**
 * announce writes `event` to the outbox for everyone and everything that should hear of it, each
 * in its channel's words. Returns how many messages were new, with their outbox ids.
 */
export async function announce(
  tx: Db | Tx,
  deps: AnnounceDeps,
  now: Date,
  event: NotificationEvent,
): Promise<number[]> {
  const targets = await destinationsOf(tx, event);
  if (targets.length === 0) return [];
  const baseUrl = publicBaseUrl(deps.config);
  return enqueueChatMessages(
    tx,
    deps.cipher,
    now,
    targets.map((destination) => {
      const rendered = renderChat(destination.kind as DestinationKind, event, {
        baseUrl,
        timeZone: zoneOrUtc(destination.digestTimeZone),
      });
      return {
        eventKey: event.key,
        kind: rendered.type,
        destinationId: destination.id,
        title: rendered.title,
        body: rendered.body,
      };
    }),
  );
}
