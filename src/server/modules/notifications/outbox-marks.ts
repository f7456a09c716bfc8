import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { notifications } from '../../db/schema';
import { RULED_KINDS } from './outbox';

/*
 * Changes to outbox rows already written, made in the caller's transaction: rules stopped by an
 * acknowledgement (decision 251), and a call its provider took but nobody answered (decision 252).
 */

/**
 * stopDelayedRules stops, in the acknowledging (or resolving) transaction, every row of an
 * incident a rule delayed and no worker has tried yet: status `stopped`, with why. One
 * statement on the one database, so it holds for every instance. Returns how many it stopped.
 */
export async function stopDelayedRules(tx: Db | Tx, pageId: number, why: string): Promise<number> {
  const stopped = await tx
    .update(notifications)
    .set({ status: 'stopped', lastError: why })
    .where(
      and(
        eq(notifications.pageId, pageId),
        eq(notifications.status, 'pending'),
        eq(notifications.attempts, 0),
        inArray(notifications.kind, [...RULED_KINDS]),
        sql`${notifications.nextAttemptAt} > ${notifications.createdAt}`,
      ),
    )
    .returning({ id: notifications.id });
  return stopped.length;
}

/**
 * markNotDelivered records, in the caller's transaction, that a notification its provider took
 * was not delivered after all: a call nobody answered, busy, failed, canceled or taken by a
 * machine (decision 252). The row is failed with why, so it never counts as a success. Answers
 * whether it changed the row (a row already failed or stopped is left as it is).
 */
export async function markNotDelivered(
  tx: Db | Tx,
  id: number,
  why: string,
  now: Date,
): Promise<boolean> {
  const updated = await tx
    .update(notifications)
    .set({ status: 'failed', failedAt: now, lastError: why })
    .where(and(eq(notifications.id, id), inArray(notifications.status, ['sent', 'pending'])))
    .returning({ id: notifications.id });
  return updated.length > 0;
}
