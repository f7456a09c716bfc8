import { and, eq, gt, inArray, lte, notInArray, sql } from 'drizzle-orm';
import {
  bundleText,
  isLimitedChannel,
  type LimitCandidate,
  limitWords,
  PERSON_LIMIT,
  planLimits,
} from '../../../shared/domain/person-limits';
import type { OutgoingMessage } from '../../core/delivery';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { notifications, personLimitSends } from '../../db/schema';

type NotificationRow = typeof notifications.$inferSelect;

/** What the limit seals beside a text or a call of a page: its words as an email (decision 265). */
export interface LimitEmailContent {
  subject: string;
  text: string;
  html?: string;
}

/**
 * What the limit needs of the outbox, handed in by `deliverDue` (so this file does not import the
 * outbox, which calls it): the page kinds, how to open a row's content and seal a new one, and a
 * person's email address.
 */
export interface LimitDeps {
  db: Db;
  now: Date;
  pageKinds: readonly string[];
  open: (row: NotificationRow) => OutgoingMessage & { limitEmail?: LimitEmailContent };
  seal: (id: number, message: OutgoingMessage) => string;
  emailOf: (tx: Tx, userId: number) => Promise<string | null>;
}

/**
 * The limit per person in the outbox worker (issue 33, decisions 254 and 265), in one place:
 * before a claimed batch is sent, its texts and calls are decided in one transaction, under a
 * lock of each person they go to (`pg_advisory_xact_lock`), against the places the limit gave
 * in the window (`person_limit_sends`, every instance's), so two instances never both send past
 * it. Pages over the limit wait (`held` 'limit', not tried, due when there is
 * room, so an acknowledgement stops them as it stops a delayed rule) and their words go by email
 * at once (`held` 'limit-email' on the email), unless the page already went to the person by
 * email at once; when their time comes every page held for the person on that channel goes as
 * one message, "3 more pages: …", and the others are marked `bundled`, naming the message they
 * went in. Nothing is dropped.
 */

export const HELD_BY_LIMIT = `Held by the limit: ${limitWords()}`;
/** How a held row's record says its words went by email at once (the timeline reads it). */
export const EMAILED_AT_ONCE = 'sent by email at once';
export const HELD_AND_EMAILED = `${HELD_BY_LIMIT}; ${EMAILED_AT_ONCE}`;
export const bundledInto = (id: number) => `Held by the limit and bundled into notification ${id}`;
/** The dedupe key of the email the limit sends in place of a held text or call. */
export const limitEmailKeyOf = (id: number) => `limit-email:${id}`;

/** The lock of one person's limit: this number and the person's id (pg_advisory_xact_lock). */
const PERSON_LIMIT_LOCK = 7411003;

type PersonRow = NotificationRow & { userId: number };

/** settle: a claimed row's new state, only while this worker still holds its lease. */
async function settle(
  tx: Tx,
  row: NotificationRow,
  values: Partial<typeof notifications.$inferInsert>,
): Promise<boolean> {
  const done = await tx
    .update(notifications)
    .set(values)
    .where(
      and(
        eq(notifications.id, row.id),
        eq(notifications.status, 'pending'),
        eq(notifications.attempts, row.attempts),
      ),
    )
    .returning({ id: notifications.id });
  return done.length > 0;
}

/**
 * applyPersonLimit decides the texts and calls of a claimed batch in one transaction, under a lock
 * of each person they go to, and returns the rows to send now: each lead of a bundle with its
 * content rewritten as the bundle. Rows on other channels pass untouched. The places given in the
 * window are read from `person_limit_sends`; each row that goes takes one (a retry keeps the one
 * it had), pages over the limit are held and emailed, held ones are bundled.
 */
export async function applyPersonLimit<R extends NotificationRow>(
  deps: LimitDeps,
  rows: R[],
): Promise<R[]> {
  const limited = rows.filter(
    (row): row is R & PersonRow => row.userId !== null && isLimitedChannel(row.channel),
  );
  if (limited.length === 0) return rows;
  // A bundle's lead comes back with its content rewritten as the bundle.
  const going = new Map((await decideLimited(deps, limited)).map((row) => [row.id, row]));
  return rows.flatMap((row) => {
    if (row.userId === null || !isLimitedChannel(row.channel)) return [row];
    return going.get(row.id) ?? [];
  });
}

async function decideLimited<R extends PersonRow>(deps: LimitDeps, limited: R[]): Promise<R[]> {
  const { now } = deps;
  const userIds = [...new Set(limited.map((r) => r.userId))].sort((a, b) => a - b);
  return deps.db.transaction(async (tx) => {
    // Two instances deciding for one person at once: the second waits and counts the first's
    // places. One statement takes the locks in ascending order (the sorted subquery, as
    // PostgreSQL's manual has it), so two batches never wait for each other in a circle.
    const ids = sql.join(
      userIds.map((id) => sql`(${id}::int)`),
      sql`, `,
    );
    await tx.execute(
      sql`select pg_advisory_xact_lock(${PERSON_LIMIT_LOCK}, q.id) from (select id from (values ${ids}) as v(id) order by id) as q`,
    );
    const windowStart = new Date(now.getTime() - PERSON_LIMIT.windowMs);
    const places = await tx
      .select()
      .from(personLimitSends)
      .where(
        and(inArray(personLimitSends.userId, userIds), gt(personLimitSends.sentAt, windowStart)),
      );
    // Places older than the window are let go by the next decision for their person.
    await tx
      .delete(personLimitSends)
      .where(
        and(inArray(personLimitSends.userId, userIds), lte(personLimitSends.sentAt, windowStart)),
      );
    const placed = new Set(places.map((p) => p.notificationId));
    const sent = new Map<number, Date[]>();
    const count = (userId: number, at: Date) => sent.set(userId, [...(sent.get(userId) ?? []), at]);
    for (const p of places) count(p.userId, p.sentAt);

    const going: R[] = [];
    const candidates: LimitCandidate[] = [];
    for (const row of limited) {
      // A retry keeps its place; a text or call that is not a page is never held, but counts.
      if (placed.has(row.id)) going.push(row);
      else if (!deps.pageKinds.includes(row.kind)) {
        going.push(row);
        count(row.userId, now);
      } else {
        candidates.push({
          id: row.id,
          userId: row.userId,
          channel: row.channel,
          heldByLimit: row.held === 'limit',
        });
      }
    }
    const decisions = planLimits(candidates, sent, now);
    const byId = new Map(limited.map((r) => [r.id, r]));
    for (const row of limited) {
      const decision = decisions.get(row.id);
      if (!decision) continue;
      if (decision.kind === 'hold') {
        const first = row.held !== 'limit';
        const emailed = first ? await emailHeld(deps, tx, row) : false;
        // Not tried: the claim's attempt is given back, so it reads as waiting, not as a retry.
        await settle(tx, row, {
          attempts: row.attempts - 1,
          nextAttemptAt: decision.until,
          held: 'limit',
          ...(first ? { lastError: emailed ? HELD_AND_EMAILED : HELD_BY_LIMIT } : {}),
        });
      } else if (decision.kind === 'bundle') {
        await settle(tx, row, {
          status: 'bundled',
          lastError: bundledWords(row, decision.leadId),
        });
      } else if (row.held === 'limit') {
        const members = [...decisions]
          .filter(([, d]) => d.kind === 'bundle' && d.leadId === row.id)
          .flatMap(([id]) => byId.get(id) ?? []);
        going.push(await bundleHeld(deps, tx, row, members));
      } else {
        going.push(row);
      }
    }
    const taken = going.filter((row) => !placed.has(row.id));
    if (taken.length > 0) {
      await tx
        .insert(personLimitSends)
        .values(taken.map((row) => ({ notificationId: row.id, userId: row.userId, sentAt: now })))
        .onConflictDoNothing({ target: personLimitSends.notificationId });
    }
    return going;
  });
}

/** bundledWords: why a held row was not sent itself, and that its words went by email if so. */
function bundledWords(row: NotificationRow, leadId: number): string {
  return row.lastError === HELD_AND_EMAILED
    ? `${bundledInto(leadId)}; ${EMAILED_AT_ONCE}`
    : bundledInto(leadId);
}

/**
 * emailHeld writes, in the hold's transaction, the email that carries a held page's words at once
 * (decision 265), due now, marked `held` 'limit-email'; it tells whether one was written. None
 * when the page already goes to the person by email at once (their rules or preference), or
 * when the row's words cannot be opened.
 */
async function emailHeld(deps: LimitDeps, tx: Tx, row: PersonRow): Promise<boolean> {
  const at = row.dedupeKey.lastIndexOf(`:${row.userId}:${row.channel}`);
  if (at >= 0) {
    const atOnce = `${row.dedupeKey.slice(0, at)}:${row.userId}:email`;
    const [already] = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.dedupeKey, atOnce),
          inArray(notifications.status, ['pending', 'sent']),
        ),
      );
    if (already) return false;
  }
  let words: LimitEmailContent;
  try {
    const content = deps.open(row);
    words = content.limitEmail ?? { subject: content.subject, text: content.text };
  } catch {
    return false; // sealed under a key this server no longer has: the bundle still goes later
  }
  const to = await deps.emailOf(tx, row.userId);
  if (!to) return false;
  const [id] = await allocateIds(tx, 'notifications');
  const inserted = await tx
    .insert(notifications)
    .values({
      id,
      userId: row.userId,
      channel: 'email',
      kind: row.kind,
      contentEnc: deps.seal(id, { to, ...words }),
      dedupeKey: limitEmailKeyOf(row.id),
      pageId: row.pageId,
      createdAt: deps.now,
      nextAttemptAt: deps.now,
      held: 'limit-email',
    })
    .onConflictDoNothing({ target: notifications.dedupeKey })
    .returning({ id: notifications.id });
  return inserted.length > 0;
}

/**
 * bundleHeld writes the lead of a person's held pages on one channel as the bundle of them all:
 * those claimed with it and those still waiting (marked bundled here), in the decision's
 * transaction.
 */
async function bundleHeld<R extends PersonRow>(
  deps: LimitDeps,
  tx: Tx,
  lead: R,
  claimed: NotificationRow[],
): Promise<R> {
  const emailedToo = `${bundledInto(lead.id)}; ${EMAILED_AT_ONCE}`;
  const waiting = await tx
    .update(notifications)
    .set({
      status: 'bundled',
      lastError: sql`case when ${notifications.lastError} = ${HELD_AND_EMAILED} then ${emailedToo} else ${bundledInto(lead.id)} end`,
    })
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
}
