import { and, eq, gt, inArray, isNotNull, notInArray } from 'drizzle-orm';
import {
  bundleText,
  isLimitedChannel,
  LIMITED_CHANNELS,
  type LimitCandidate,
  limitWords,
  PERSON_LIMIT,
  planLimits,
} from '../../../shared/domain/person-limits';
import type { OutgoingMessage } from '../../core/delivery';
import type { Db, Tx } from '../../db/client';
import { notifications } from '../../db/schema';

type NotificationRow = typeof notifications.$inferSelect;

/**
 * What the limit needs of the outbox, handed in by `deliverDue` (so this file does not import the
 * outbox, which calls it): the page kinds, how to open a row's content and seal a new one.
 */
export interface LimitDeps {
  db: Db;
  now: Date;
  pageKinds: readonly string[];
  open: (row: NotificationRow) => OutgoingMessage;
  seal: (id: number, message: OutgoingMessage) => string;
}

/** hold: a claimed row's new state, only while this worker still holds its lease. */
async function settle(
  db: Db | Tx,
  row: NotificationRow,
  values: Partial<typeof notifications.$inferInsert>,
): Promise<void> {
  await db
    .update(notifications)
    .set(values)
    .where(
      and(
        eq(notifications.id, row.id),
        eq(notifications.status, 'pending'),
        eq(notifications.attempts, row.attempts),
      ),
    );
}

/**
 * The limit per person in the outbox worker (issue 33, decision 254), in one place: before a
 * claimed batch is sent, the pages on limited channels (`LIMITED_CHANNELS`, by channel name, so
 * calls count as soon as their channel exists) are planned against what each person was sent in
 * the window (`planLimits`). What is over the limit waits (`held` 'limit', not tried, due when
 * there is room, so an acknowledgement stops it as it stops a delayed rule); when its time comes
 * every page held for the person on that channel goes as one message, "3 more pages: …", and the
 * others are marked `bundled`, naming the message they went in. Nothing is dropped.
 */

export const HELD_BY_LIMIT = `Held by the limit: ${limitWords()}`;
export const bundledInto = (id: number) => `Held by the limit and bundled into notification ${id}`;

type PersonRow = NotificationRow & { userId: number };

/** sentInWindow: when each person was sent something on a limited channel within the window. */
async function sentInWindow(db: Db, userIds: number[], now: Date): Promise<Map<number, Date[]>> {
  const rows = await db
    .select({ userId: notifications.userId, sentAt: notifications.sentAt })
    .from(notifications)
    .where(
      and(
        inArray(notifications.userId, userIds),
        inArray(notifications.channel, [...LIMITED_CHANNELS]),
        eq(notifications.status, 'sent'),
        isNotNull(notifications.sentAt),
        gt(notifications.sentAt, new Date(now.getTime() - PERSON_LIMIT.windowMs)),
      ),
    );
  const sent = new Map<number, Date[]>();
  for (const r of rows) {
    if (r.userId === null || r.sentAt === null) continue;
    sent.set(r.userId, [...(sent.get(r.userId) ?? []), r.sentAt]);
  }
  return sent;
}

/**
 * applyPersonLimit holds or bundles what the limit says of a claimed batch and returns the rows
 * to send now: each lead of a bundle with its content rewritten as the bundle.
 */
export async function applyPersonLimit<R extends NotificationRow>(
  deps: LimitDeps,
  rows: R[],
): Promise<R[]> {
  const { db, now } = deps;
  // The limit looks at pages to a person on a limited channel.
  const limited = rows.filter(
    (row): row is R & PersonRow =>
      row.userId !== null && isLimitedChannel(row.channel) && deps.pageKinds.includes(row.kind),
  );
  if (limited.length === 0) return rows;
  const userIds = [...new Set(limited.map((r) => r.userId))];
  const sent = await sentInWindow(db, userIds, now);
  const candidates: LimitCandidate[] = limited.map((r) => ({
    id: r.id,
    userId: r.userId,
    channel: r.channel,
    heldByLimit: r.held === 'limit',
  }));
  const decisions = planLimits(candidates, sent, now);
  const toSend: R[] = [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const row of rows) {
    const decision = decisions.get(row.id);
    if (!decision) {
      toSend.push(row);
      continue;
    }
    if (decision.kind === 'hold') {
      // Not tried: the claim's attempt is given back, so it reads as waiting, not as a retry.
      await settle(db, row, {
        attempts: row.attempts - 1,
        nextAttemptAt: decision.until,
        held: 'limit',
        lastError: HELD_BY_LIMIT,
      });
    } else if (decision.kind === 'bundle') {
      await settle(db, row, { status: 'bundled', lastError: bundledInto(decision.leadId) });
    } else if (row.held === 'limit' && row.userId !== null) {
      const members = [...decisions]
        .filter(([, d]) => d.kind === 'bundle' && d.leadId === row.id)
        .flatMap(([id]) => byId.get(id) ?? []);
      toSend.push(await bundleHeld(deps, row as R & PersonRow, members));
    } else {
      toSend.push(row);
    }
  }
  return toSend;
}

/**
 * bundleHeld writes the lead of a person's held pages on one channel as the bundle of them all:
 * those claimed with it and those still waiting (marked bundled here, in one transaction).
 */
async function bundleHeld<R extends NotificationRow>(
  deps: LimitDeps,
  lead: R & PersonRow,
  claimed: NotificationRow[],
): Promise<R> {
  return deps.db.transaction(async (tx) => {
    const waiting = await tx
      .update(notifications)
      .set({ status: 'bundled', lastError: bundledInto(lead.id) })
      .where(
        and(
          eq(notifications.userId, lead.userId),
          eq(notifications.channel, lead.channel),
          eq(notifications.held, 'limit'),
          eq(notifications.status, 'pending'),
          eq(notifications.attempts, 0),
          inArray(notifications.kind, [...deps.pageKinds]),
          notInArray(notifications.id, [lead.id, ...claimed.map((c) => c.id)]),
        ),
      )
      .returning();
    const members = [...claimed, ...waiting];
    if (members.length === 0) return lead;
    const subjectOf = (r: NotificationRow) => {
      try {
        return deps.open(r).subject;
      } catch {
        return `notification ${r.id}`;
      }
    };
    const own = deps.open(lead);
    const subjects = [lead, ...members].map(subjectOf);
    const bundle: OutgoingMessage = {
      to: own.to,
      subject: bundleText(subjects).split(':')[0],
      text: bundleText(subjects),
    };
    const contentEnc = deps.seal(lead.id, bundle);
    await tx.update(notifications).set({ contentEnc }).where(eq(notifications.id, lead.id));
    return { ...lead, contentEnc };
  });
}
