import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { channelNotConfiguredReason } from '../../../shared/contracts/notifications';
import type { PushNotice } from '../../../shared/contracts/push';
import type { User } from '../../../shared/contracts/users';
import {
  type ChannelName,
  MAX_DELIVERY_ATTEMPTS,
  notificationRoute,
  retryDelayMs,
} from '../../../shared/domain/notification-routing';
import type { RuleChannel, RuleDelivery } from '../../../shared/domain/notification-rules';
import { isLimitedChannel } from '../../../shared/domain/person-limits';
import type { Clock } from '../../core/clock';
import { DeliveryError, type OutgoingMessage } from '../../core/delivery';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { notifications, users } from '../../db/schema';
import { toUser } from '../users/user-repository';
import type { Channels } from './channels';
import { applyPersonLimit, type LimitEmailContent } from './person-limit';
import { PERSON_CHANNELS } from './person-registry';
import { scrubProviderAnswer } from './provider-answers';

/**
 * The outbox: notifications are written in the same transaction as the event that causes them
 * (content encrypted), then delivered by a worker with bounded retries. One row per (event,
 * recipient, channel): the dedupe key makes enqueueing twice a no-op.
 */

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * The outbox's channels: a person's email, SMS and push (decision 253), destinations' chat
 * messages (decision 221), and the token sync's messages to the companion service (decision 228).
 */
export type OutboxChannel = RuleChannel | 'chat' | 'token-sync';

/** The channels a worker may lack: their messages wait for a worker that has them. */
const OPTIONAL_CHANNELS = ['chat', 'token-sync', 'push'] as const;

/** Who a notification goes to: a user, or an address with no account yet (an invitee, id null). */
export type Recipient = Pick<User, 'email' | 'phone' | 'notificationPreference'> & {
  id: number | null;
};

export interface NotificationInput {
  /** identifies the causing event, e.g. `handoff:42` or `page:7:reminder` */
  eventKey: string;
  kind: string;
  recipient: Recipient;
  subject: string;
  /** plain-text body (also the SMS text unless `sms` is given) */
  text: string;
  html?: string;
  /** a short SMS text; default: the subject and the plain text, cut to 600 characters */
  sms?: string;
  /** what a push of it shows (decision 253); written only when a rule sends it by push */
  push?: PushNotice;
  /** what a phone call says (decision 252); default: the subject */
  voice?: string;
  /** email only, whatever the recipient's preference (low-urgency pages, invitations) */
  emailOnly?: boolean;
  /** the page it is about: a failure shows in the page's history (decision 163) */
  pageId?: number;
  /**
   * the person's notification rules for this page (decision 251): each channel and how many
   * minutes after now its row is due, instead of the preference's channels at once
   */
  deliveries?: readonly RuleDelivery[];
  /** a low-urgency page held to the person's working hours: no row is due before (decision 254) */
  heldUntil?: Date;
}

/** What the other channel would carry when this one fails for good (decision 163). */
interface FallbackContent {
  subject: string;
  text: string;
  html?: string;
}

/** One entry of a follow-up, as sealed with it: the caller's data, keyed, and its channels. */
export interface FollowUpEntry<T> {
  key: string;
  emailOnly: boolean;
  data: T;
}

/**
 * A notification's sealed content: the message, what to send instead if it fails for good, and a
 * follow-up's items (decision 213), from which it is written again when an item joins.
 */
export type StoredContent = OutgoingMessage & {
  fallback?: FallbackContent;
  followUp?: { entries: FollowUpEntry<unknown>[] };
  /** a page's text or call: its words as an email, sent at once if the limit holds it (decision 265) */
  limitEmail?: LimitEmailContent;
};

/** claimed rows are leased this long; a worker that dies mid-send loses the lease and another retries */
const LEASE_MS = 120_000;
/** how many rows one claim takes */
export const BATCH_SIZE = 50;

export const contentCtx = (id: number) => ({
  table: 'notifications',
  column: 'content',
  rowId: id,
});

/** One row an input writes: its channel, its content, and how long after now it is due. */
interface PlannedMessage {
  channel: RuleChannel;
  message: StoredContent;
  delayMinutes: number;
}

/**
 * plannedMessages: the rows an input writes: by the person's rules when it has them (each
 * channel after its delay, decision 251), else by their preference at once, each with the
 * content sealed for its channel.
 */
export function plannedMessages(input: NotificationInput): PlannedMessage[] {
  const { recipient } = input;
  const route = notificationRoute(recipient.notificationPreference, recipient.phone);
  const deliveries: readonly RuleDelivery[] =
    input.deliveries ??
    (input.emailOnly ? ['email' as const] : route.channels).map((channel) => ({
      channel,
      delayMinutes: 0,
    }));
  const channels = deliveries.map((d) => d.channel);
  return deliveries.map(({ channel, delayMinutes }) => {
    // SMS and calls go to the phone on file (a usable one: the rules skip them without it); a
    // push goes to each of the person's devices, read when it is sent: `to` names the person.
    const to =
      channel === 'email'
        ? recipient.email
        : channel === 'push'
          ? String(recipient.id ?? '')
          : (route.smsTo ?? '');
    const message: StoredContent = { to, ...PERSON_CHANNELS[channel](input) };
    // A person's other channel, when the message does not already go there, carries it if this
    // one fails for good: its words are sealed with the message (decision 163).
    if (recipient.id !== null && channel === 'email' && !channels.includes('sms')) {
      if (!input.emailOnly && route.smsTo) {
        message.fallback = PERSON_CHANNELS.sms(input);
      }
    } else if (recipient.id !== null && channel === 'sms' && !channels.includes('email')) {
      message.fallback = PERSON_CHANNELS.email(input);
    }
    // A page's text or call the person's limit may hold: its words go by email meanwhile.
    if (recipient.id !== null && isLimitedChannel(channel) && isRuledKind(input.kind)) {
      message.limitEmail = PERSON_CHANNELS.email(input);
    }
    return { channel, message, delayMinutes };
  });
}

/**
 * dedupeKeyOf: one row per (event, recipient, channel); a rule's later row on the same channel
 * names its delay (decision 251), so "SMS at once, SMS after 5 minutes" are two rows.
 */
function dedupeKeyOf(input: NotificationInput, channel: RuleChannel, delayMinutes: number) {
  const base = `${input.eventKey}:${input.recipient.id ?? 'guest'}:${channel}`;
  return delayMinutes === 0 ? base : `${base}:+${delayMinutes}m`;
}

const MINUTE_MS = 60_000;

/** enqueueNotifications writes one outbox row per recipient channel; returns how many were new. */
export async function enqueueNotifications(
  tx: Db | Tx,
  cipher: FieldCipher,
  now: Date,
  inputs: NotificationInput[],
): Promise<number> {
  const planned = inputs.flatMap((input) => plannedMessages(input).map((p) => ({ ...p, input })));
  if (planned.length === 0) return 0;
  const ids = await allocateIds(tx, 'notifications', planned.length);
  const inserted = await tx
    .insert(notifications)
    .values(
      planned.map(({ channel, input, message, delayMinutes }, i) => {
        const due = new Date(now.getTime() + delayMinutes * MINUTE_MS);
        const held = input.heldUntil !== undefined && input.heldUntil.getTime() > due.getTime();
        return {
          id: ids[i],
          userId: input.recipient.id,
          channel,
          kind: input.kind,
          contentEnc: cipher.encrypt(JSON.stringify(message), contentCtx(ids[i])),
          dedupeKey: dedupeKeyOf(input, channel, delayMinutes),
          pageId: input.pageId ?? null,
          createdAt: now,
          nextAttemptAt: held ? (input.heldUntil as Date) : due,
          held: held ? 'working-hours' : null,
        };
      }),
    )
    .onConflictDoNothing({ target: notifications.dedupeKey })
    .returning({ id: notifications.id });
  return inserted.length;
}

/** The person events whose rows a person's rules delay (decision 251): the ones that page. */
export const RULED_KINDS = ['page', 'page.reminder', 'page.escalated'] as const;

const isRuledKind = (kind: string) => (RULED_KINDS as readonly string[]).includes(kind);

/** One message to a destination (decision 221): its JSON body, posted as it is when sent. */
export interface ChatMessageInput {
  /** identifies the causing event, e.g. `handoff:42`: one message per (event, destination) */
  eventKey: string;
  /** the event: handoff, incident.raised, … test, digest (the delivery log shows it) */
  kind: string;
  destinationId: number;
  /** one line saying what it is */
  title: string;
  body: unknown;
}

/**
 * enqueueChatMessages writes one outbox row (channel chat) per destination message, in the
 * caller's transaction; the same event for the same destination again is a no-op. Returns the
 * new rows' ids.
 */
export async function enqueueChatMessages(
  tx: Db | Tx,
  cipher: FieldCipher,
  now: Date,
  inputs: readonly ChatMessageInput[],
): Promise<number[]> {
  if (inputs.length === 0) return [];
  const ids = await allocateIds(tx, 'notifications', inputs.length);
  const inserted = await tx
    .insert(notifications)
    .values(
      inputs.map((input, i) => {
        const message: StoredContent = {
          to: String(input.destinationId),
          subject: input.title,
          text: input.title,
          body: input.body,
        };
        return {
          id: ids[i],
          userId: null,
          channel: 'chat',
          kind: input.kind,
          contentEnc: cipher.encrypt(JSON.stringify(message), contentCtx(ids[i])),
          dedupeKey: `${input.eventKey}:destination:${input.destinationId}:chat`,
          destinationId: input.destinationId,
          createdAt: now,
          nextAttemptAt: now,
        };
      }),
    )
    .onConflictDoNothing({ target: notifications.dedupeKey })
    .returning({ id: notifications.id });
  return inserted.map((r) => r.id);
}

/** One message to the companion service (decision 228): which synced session, which method. */
export interface TokenSyncMessageInput {
  syncId: number;
  method: 'POST' | 'DELETE';
  /** the signed-in person, named in the outbox view (the row itself belongs to no user) */
  userId: number | null;
  /** what makes this message one of its kind: a POST's token's iat, or nothing for the DELETE */
  key?: string;
}

/** tokenSyncKeyPrefix starts the dedupe keys of one synced session's messages of one method. */
export const tokenSyncKeyPrefix = (syncId: number, method: 'POST' | 'DELETE') =>
  `token-sync:${syncId}:${method.toLowerCase()}`;

/**
 * enqueueTokenSyncMessages writes one outbox row (channel token-sync) per message, in the
 * caller's transaction. The row holds no token: the channel reads the synced session's latest
 * one, sealed in token_syncs, when it sends. The rows name no user, so deleting the person
 * keeps the DELETE that says they left.
 */
export async function enqueueTokenSyncMessages(
  tx: Db | Tx,
  cipher: FieldCipher,
  now: Date,
  inputs: readonly TokenSyncMessageInput[],
): Promise<number> {
  if (inputs.length === 0) return 0;
  const ids = await allocateIds(tx, 'notifications', inputs.length);
  const inserted = await tx
    .insert(notifications)
    .values(
      inputs.map((input, i) => {
        const who = input.userId === null ? 'a deleted person' : `user ${input.userId}`;
        const message: StoredContent = {
          to: `token sync ${input.syncId}`,
          subject:
            input.method === 'POST'
              ? `Signed in: ${who}'s identity token (POST)`
              : `Signed out: ${who} (DELETE)`,
          text:
            input.method === 'POST'
              ? `POST with ${who}'s current ID token as a bearer token to the token sync URL.`
              : `DELETE with ${who}'s last ID token as a bearer token to the token sync URL.`,
          body: { syncId: input.syncId, method: input.method, userId: input.userId },
        };
        const prefix = tokenSyncKeyPrefix(input.syncId, input.method);
        return {
          id: ids[i],
          userId: null,
          channel: 'token-sync',
          kind: input.method === 'POST' ? 'token-sync.post' : 'token-sync.delete',
          contentEnc: cipher.encrypt(JSON.stringify(message), contentCtx(ids[i])),
          dedupeKey: input.key ? `${prefix}:${input.key}` : prefix,
          createdAt: now,
          nextAttemptAt: now,
        };
      }),
    )
    .onConflictDoNothing({ target: notifications.dedupeKey })
    .returning({ id: notifications.id });
  return inserted.length;
}

/** decryptContent opens a notification's content. */
export function decryptContent(
  row: Pick<NotificationRow, 'id' | 'contentEnc'>,
  cipher: FieldCipher,
): StoredContent {
  return JSON.parse(cipher.decrypt(row.contentEnc, contentCtx(row.id))) as StoredContent;
}

/**
 * claimDue leases up to `limit` due notifications (of one channel, when given) to this worker;
 * SKIP LOCKED: workers never share a row and never wait for each other. One statement: the
 * rows chosen and locked by the subquery are the rows the update leases (a subquery with LIMIT
 * and FOR UPDATE is run once, never merged into the update).
 */
export async function claimDue(
  db: Db,
  now: Date,
  limit: number,
  channel?: OutboxChannel,
  options: { skip?: readonly OutboxChannel[] } = {},
): Promise<NotificationRow[]> {
  const due = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.status, 'pending'),
        sql`${notifications.nextAttemptAt} <= ${now}`,
        channel ? eq(notifications.channel, channel) : undefined,
        // A worker without the chat or token-sync channel leaves their messages to one with it.
        ...(options.skip ?? []).map((skipped) => ne(notifications.channel, skipped)),
      ),
    )
    .orderBy(notifications.nextAttemptAt, notifications.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(notifications)
    .set({
      attempts: sql`${notifications.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + LEASE_MS),
    })
    .where(inArray(notifications.id, due))
    .returning();
  // An update answers in no set order: oldest first, as they were written (the limit per person
  // sends the first pages and bundles the rest in this order).
  return claimed.sort((a, b) => a.id - b.id);
}

/**
 * nextDueAt returns when the earliest pending notification of a channel falls due (a rule's delay,
 * a retry's backoff, a lease running out), or null with none pending: the worker sleeps until
 * then rather than a whole interval.
 */
export async function nextDueAt(db: Db, channel: OutboxChannel): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`min(${notifications.nextAttemptAt})` })
    .from(notifications)
    .where(and(eq(notifications.status, 'pending'), eq(notifications.channel, channel)));
  return row?.at ? new Date(row.at) : null;
}

export interface DeliveryDeps {
  db: Db;
  cipher: FieldCipher;
  channels: Channels;
  clock: Clock;
  random?: () => number;
  /** told of each notification's outcome as it is recorded (the metrics, decision 225) */
  onOutcome?: (channel: OutboxChannel, outcome: keyof DeliveryReport) => void;
}

export interface DeliveryReport {
  sent: number;
  failed: number;
  retrying: number;
}

/**
 * deliverDue claims what is due (of one channel, when given), sends each notification on its own,
 * and records the outcome: sent, a retry with backoff, or failed with the reason once retries are
 * exhausted or the failure is permanent. It returns when the whole batch is done, so the worker
 * calls it once per channel (startOutboxWorker): a hanging provider holds up only its own channel.
 */
export async function deliverDue(
  deps: DeliveryDeps,
  limit = BATCH_SIZE,
  channel?: OutboxChannel,
): Promise<DeliveryReport> {
  const claimed = await claimDue(deps.db, deps.clock.now(), limit, channel, {
    skip: OPTIONAL_CHANNELS.filter((optional) => !deps.channels[optional]),
  });
  // The limit per person on texts and calls holds or bundles pages before any is sent (decision 254).
  const rows = await applyPersonLimit(
    {
      db: deps.db,
      now: deps.clock.now(),
      pageKinds: RULED_KINDS,
      open: (row) => decryptContent(row, deps.cipher),
      seal: (id, message) => deps.cipher.encrypt(JSON.stringify(message), contentCtx(id)),
      emailOf: async (tx, userId) => {
        const [row] = await tx.select().from(users).where(eq(users.id, userId));
        return row ? toUser(row, deps.cipher).email : null;
      },
    },
    claimed,
  );
  const report: DeliveryReport = { sent: 0, failed: 0, retrying: 0 };
  await Promise.all(
    rows.map(async (row) => {
      const outcome = await deliverOne(deps, row);
      report[outcome] += 1;
      deps.onOutcome?.(row.channel as OutboxChannel, outcome);
    }),
  );
  return report;
}

async function deliverOne(deps: DeliveryDeps, row: NotificationRow): Promise<keyof DeliveryReport> {
  const channel = deps.channels[row.channel as OutboxChannel];
  const lease = { id: row.id, attempts: row.attempts };
  if (!channel) {
    await failForGood(deps, row, {
      lastError:
        row.channel === 'chat'
          ? 'Chat delivery is not running'
          : row.channel === 'token-sync'
            ? 'Token sync is not running (TOKEN_SYNC_URL)'
            : row.channel === 'push'
              ? 'Push delivery is not running'
              : channelNotConfiguredReason(row.channel as ChannelName),
    });
    return 'failed';
  }
  // Provider answers quote the recipient: they are stored without personal data (decision 101).
  let to: string | undefined;
  try {
    const {
      fallback: _fallback,
      followUp: _followUp,
      limitEmail: _limitEmail,
      ...message
    } = decryptContent(row, deps.cipher);
    to = message.to;
    const response = await channel.send(
      { ...message, idempotencyKey: row.dedupeKey },
      { notificationId: row.id },
    );
    await recordOutcome(deps.db, lease, {
      status: 'sent',
      sentAt: deps.clock.now(),
      providerResponse: scrubProviderAnswer(response, to).slice(0, 1000),
      lastError: null,
    });
    return 'sent';
  } catch (err) {
    const permanent = err instanceof DeliveryError ? err.permanent : false;
    const reason = scrubProviderAnswer((err as Error).message, to).slice(0, 1000);
    const providerResponse = scrubProviderAnswer(
      err instanceof DeliveryError ? (err.providerResponse ?? null) : null,
      to,
    );
    if (permanent || row.attempts >= MAX_DELIVERY_ATTEMPTS) {
      await failForGood(deps, row, { lastError: reason, providerResponse });
      return 'failed';
    }
    const delay = retryDelayMs(row.attempts, (deps.random ?? Math.random)());
    await recordOutcome(deps.db, lease, {
      nextAttemptAt: new Date(deps.clock.now().getTime() + delay),
      lastError: reason,
      providerResponse,
    });
    return 'retrying';
  }
}

/** FALLBACK_KEY_PREFIX starts the dedupe key of a notification sent instead of a failed one. */
const FALLBACK_KEY_PREFIX = 'fallback:';

/** fallbackKeyOf is the dedupe key of the one notification that may replace notification `id`. */
export const fallbackKeyOf = (id: number, userId: number, channel: ChannelName) =>
  `${FALLBACK_KEY_PREFIX}${id}:${userId}:${channel}`;

/**
 * failForGood marks a notification failed (after its last attempt, or refused for good) and, in
 * the same transaction, while the lease is still this worker's, sends it once by the person's
 * other channel when they have one the message did not already use (decision 163). A
 * replacement that fails in turn is not replaced again.
 */
async function failForGood(
  deps: DeliveryDeps,
  row: NotificationRow,
  values: { lastError: string; providerResponse?: string | null },
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const recorded = await recordOutcome(
      tx,
      { id: row.id, attempts: row.attempts },
      { ...values, status: 'failed', failedAt: now },
    );
    if (!recorded || row.userId === null || row.dedupeKey.startsWith(FALLBACK_KEY_PREFIX)) return;
    let content: StoredContent;
    try {
      content = decryptContent(row, deps.cipher);
    } catch {
      return; // sealed under a key this server no longer has: nothing to send instead
    }
    if (!content.fallback) return;
    const [userRow] = await tx.select().from(users).where(eq(users.id, row.userId));
    if (!userRow) return;
    const user = toUser(userRow, deps.cipher);
    const other: ChannelName = row.channel === 'email' ? 'sms' : 'email';
    const route = notificationRoute(user.notificationPreference, user.phone);
    // Their preference now includes the other channel: the message went there already.
    if (route.channels.includes(other)) return;
    const to = other === 'email' ? user.email : route.smsTo;
    if (!to) return;
    const [id] = await allocateIds(tx, 'notifications');
    const message: OutgoingMessage = { to, ...content.fallback };
    await tx
      .insert(notifications)
      .values({
        id,
        userId: row.userId,
        channel: other,
        kind: row.kind,
        contentEnc: deps.cipher.encrypt(JSON.stringify(message), contentCtx(id)),
        dedupeKey: fallbackKeyOf(row.id, row.userId, other),
        pageId: row.pageId,
        createdAt: now,
        nextAttemptAt: now,
      })
      .onConflictDoNothing({ target: notifications.dedupeKey });
  });
}

/**
 * recordOutcome records an outcome, only if this worker still holds the lease (same attempt
 * count); it tells whether it did.
 */
export async function recordOutcome(
  db: Db | Tx,
  lease: { id: number; attempts: number },
  values: Partial<typeof notifications.$inferInsert>,
): Promise<boolean> {
  const updated = await db
    .update(notifications)
    .set(values)
    .where(
      and(
        eq(notifications.id, lease.id),
        eq(notifications.status, 'pending'),
        eq(notifications.attempts, lease.attempts),
      ),
    )
    .returning({ id: notifications.id });
  return updated.length > 0;
}
