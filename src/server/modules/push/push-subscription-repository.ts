import { and, count, eq, inArray } from 'drizzle-orm';
import type { PushDevice } from '../../../shared/contracts/push';
import { hashToken } from '../../crypto/bearer-secrets';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { pushSubscriptions } from '../../db/schema';

/**
 * Push subscriptions at rest (decision 253): the endpoint, the keys and the device's name are
 * sealed, each bound to its row; the endpoint's SHA-256 keeps one row per device.
 */

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

const ctx = (column: 'endpoint' | 'keys' | 'name', rowId: number) => ({
  table: 'push_subscriptions',
  column,
  rowId,
});

/** A subscription as web-push sends to it. */
export interface StoredSubscription {
  id: number;
  userId: number;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** endpointHash: what makes a device one row. */
export const endpointHash = (endpoint: string) => hashToken(endpoint);

/** countPushDevices: how many devices each person turned push on for (one query). */
export async function countPushDevices(
  db: Db | Tx,
  userIds: readonly number[],
): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: pushSubscriptions.userId, devices: count() })
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, [...new Set(userIds)]))
    .groupBy(pushSubscriptions.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.devices)]));
}

/** toDevice: a row as its person sees it, without its keys or endpoint. */
export function toDevice(row: PushSubscriptionRow, cipher: FieldCipher): PushDevice {
  let service = '';
  try {
    service = new URL(cipher.decrypt(row.endpointEnc, ctx('endpoint', row.id))).host;
  } catch {
    service = '';
  }
  return {
    id: row.id,
    name: cipher.decrypt(row.nameEnc, ctx('name', row.id)),
    service,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastSentAt: row.lastSentAt?.toISOString() ?? null,
  };
}

/** listDeviceRows: a person's devices, oldest first. */
export function listDeviceRows(db: Db | Tx, userId: number): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(pushSubscriptions.id);
}

/** findDeviceRow: one of a person's devices, or undefined. */
export async function findDeviceRow(
  db: Db | Tx,
  userId: number,
  id: number,
): Promise<PushSubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.id, id)));
  return row;
}

export interface NewSubscription {
  userId: number;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  name: string;
  expiresAt: Date | null;
  now: Date;
}

/**
 * saveSubscription keeps a device's subscription: a device subscribed again (the same endpoint)
 * replaces its row, for whoever subscribed it last (a shared browser follows its last person).
 */
export async function saveSubscription(
  tx: Tx,
  cipher: FieldCipher,
  input: NewSubscription,
): Promise<PushSubscriptionRow> {
  const hash = endpointHash(input.endpoint);
  await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.endpointHash, hash));
  const [id] = await allocateIds(tx, 'push_subscriptions');
  const [row] = await tx
    .insert(pushSubscriptions)
    .values({
      id,
      userId: input.userId,
      endpointEnc: cipher.encrypt(input.endpoint, ctx('endpoint', id)),
      endpointHash: hash,
      keysEnc: cipher.encrypt(JSON.stringify(input.keys), ctx('keys', id)),
      nameEnc: cipher.encrypt(input.name, ctx('name', id)),
      expiresAt: input.expiresAt,
      createdAt: input.now,
    })
    .returning();
  return row;
}

/** renameDevice seals a device's new name; answers the row, or undefined when it is gone. */
export async function renameDevice(
  tx: Tx,
  cipher: FieldCipher,
  userId: number,
  id: number,
  name: string,
): Promise<PushSubscriptionRow | undefined> {
  const [row] = await tx
    .update(pushSubscriptions)
    .set({ nameEnc: cipher.encrypt(name, ctx('name', id)) })
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.id, id)))
    .returning();
  return row;
}

/** deleteDevice removes one of a person's devices; tells whether it was there. */
export async function deleteDevice(db: Db | Tx, userId: number, id: number): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.id, id)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}

/** deleteSubscriptionById removes a subscription the push service says is gone (404, 410). */
export async function deleteSubscriptionById(db: Db | Tx, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/** markSent records the push service's acceptance of a push to a device. */
export async function markSent(db: Db | Tx, id: number, at: Date): Promise<void> {
  await db.update(pushSubscriptions).set({ lastSentAt: at }).where(eq(pushSubscriptions.id, id));
}

/**
 * subscriptionsToSend: a person's subscriptions opened for sending; one sealed under a key this
 * server no longer has is left out (it cannot be sent to).
 */
export async function subscriptionsToSend(
  db: Db | Tx,
  cipher: FieldCipher,
  userId: number,
): Promise<StoredSubscription[]> {
  const rows = await listDeviceRows(db, userId);
  return rows.flatMap((row) => {
    try {
      return [openSubscription(row, cipher)];
    } catch {
      return [];
    }
  });
}

/** openSubscription opens one row's endpoint and keys. */
export function openSubscription(
  row: PushSubscriptionRow,
  cipher: FieldCipher,
): StoredSubscription {
  return {
    id: row.id,
    userId: row.userId,
    endpoint: cipher.decrypt(row.endpointEnc, ctx('endpoint', row.id)),
    keys: JSON.parse(
      cipher.decrypt(row.keysEnc, ctx('keys', row.id)),
    ) as StoredSubscription['keys'],
  };
}
