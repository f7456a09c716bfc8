import { and, eq, sql } from 'drizzle-orm';
import { type ChannelName, notificationRoute } from '../../../shared/domain/notification-routing';
import { digestDueAt } from '../../../shared/domain/shift-changes';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { notifications } from '../../db/schema';
import type { MessageContent } from './message-layout';
import {
  contentCtx,
  decryptContent,
  type FollowUpEntry,
  plannedMessages,
  type Recipient,
  type StoredContent,
} from './outbox';

/*
 * A person's follow-ups (decision 213): one pending outbox row per topic, person and channel
 * gathers items until it is due, its sealed content written again as each item joins.
 */

/** How long a follow-up gathers items after its first before it is sent (decision 213). */
export const FOLLOW_UP_DELAY_MS = 60_000;

/**
 * One item for a person's follow-up (decision 213): a pending notification that gathers items
 * of one topic (an integration's incidents) until it is due, instead of one message each.
 */
export interface FollowUpInput<T> {
  /** what gathers the items, such as `integration:7`: one follow-up per topic, person, channel */
  topic: string;
  kind: string;
  recipient: Recipient & { id: number };
  /** the item's key: the same key again replaces the item instead of adding it */
  key: string;
  item: T;
  emailOnly?: boolean;
  /** the page the follow-up is about (its first item's): a failure shows in its history */
  pageId?: number;
  /** when a new follow-up is sent: this long after its first item */
  delayMs: number;
  /**
   * a digest (decision 262): each item that joins moves the sending to `delayMs` after it, but
   * no later than DIGEST_MAX_WAITS times `delayMs` after the first (`digestDueAt`); otherwise
   * items that join do not move it (decision 213)
   */
  quiet?: boolean;
  /** writes the follow-up's message for all its items */
  render: (items: T[]) => MessageContent;
}

const followUpKeyPrefix = (topic: string, userId: number, channel: ChannelName) =>
  `followup:${topic}:${userId}:${channel}:`;

/**
 * addToFollowUps adds each item to its person's pending follow-up of its topic on each of their
 * channels, re-writing the follow-up's sealed content in the caller's transaction, or starts one
 * due `delayMs` from now. A follow-up a worker has claimed (attempts > 0) is not touched: its
 * items went out; the next item starts a new one. Returns how many follow-ups were started.
 */
export async function addToFollowUps<T>(
  tx: Db | Tx,
  cipher: FieldCipher,
  now: Date,
  inputs: readonly FollowUpInput<T>[],
): Promise<number> {
  let started = 0;
  for (const input of inputs) {
    const { recipient } = input;
    const entry: FollowUpEntry<T> = {
      key: input.key,
      emailOnly: input.emailOnly ?? false,
      data: input.item,
    };
    const route = notificationRoute(recipient.notificationPreference, recipient.phone);
    const channels: ChannelName[] = entry.emailOnly ? ['email'] : route.channels;
    for (const channel of channels) {
      const prefix = followUpKeyPrefix(input.topic, recipient.id, channel);
      // Locked: a worker's claim (SKIP LOCKED) passes it by until this commits; a claim that
      // came first has raised attempts, and the row is re-checked and left out.
      const [pending] = await tx
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, recipient.id),
            eq(notifications.kind, input.kind),
            eq(notifications.status, 'pending'),
            eq(notifications.attempts, 0),
            sql`starts_with(${notifications.dedupeKey}, ${prefix})`,
          ),
        )
        .orderBy(notifications.id)
        .limit(1)
        .for('update');
      const earlier = pending ? (decryptContent(pending, cipher).followUp?.entries ?? []) : [];
      const entries = [
        ...(earlier as FollowUpEntry<T>[]).filter((e) => e.key !== entry.key),
        entry,
      ];
      const content = input.render(entries.map((e) => e.data));
      const planned = plannedMessages({
        eventKey: prefix,
        kind: input.kind,
        recipient,
        ...content,
        emailOnly: entries.every((e) => e.emailOnly),
      }).find((p) => p.channel === channel);
      if (!planned) continue;
      const message: StoredContent = {
        ...planned.message,
        followUp: { entries: entries as FollowUpEntry<unknown>[] },
      };
      if (pending) {
        await tx
          .update(notifications)
          .set({
            contentEnc: cipher.encrypt(JSON.stringify(message), contentCtx(pending.id)),
            ...(input.quiet
              ? { nextAttemptAt: digestDueAt(pending.createdAt, now, input.delayMs) }
              : {}),
          })
          .where(eq(notifications.id, pending.id));
        continue;
      }
      const [id] = await allocateIds(tx, 'notifications');
      await tx.insert(notifications).values({
        id,
        userId: recipient.id,
        channel,
        kind: input.kind,
        contentEnc: cipher.encrypt(JSON.stringify(message), contentCtx(id)),
        // The id makes the key unique: one topic has many follow-ups over time.
        dedupeKey: `${prefix}${id}`,
        pageId: input.pageId ?? null,
        createdAt: now,
        nextAttemptAt: new Date(now.getTime() + input.delayMs),
      });
      started += 1;
    }
  }
  return started;
}
