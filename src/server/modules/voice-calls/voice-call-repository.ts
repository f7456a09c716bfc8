import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { notifications, voiceCalls } from '../../db/schema';

/** The phone calls' rows (decision 252): queries only. */

export type VoiceCallRow = typeof voiceCalls.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;

/**
 * findCallNotification reads a call's notification: a `voice` row about an incident, to a person;
 * undefined for any other.
 */
export async function findCallNotification(
  db: Db | Tx,
  id: number,
): Promise<(NotificationRow & { pageId: number; userId: number }) | undefined> {
  const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
  if (row?.channel !== 'voice' || row.pageId === null || row.userId === null) return;
  return row as NotificationRow & { pageId: number; userId: number };
}

/**
 * bindCall records a call the first time Twilio names it (its CallSid) for a notification, and
 * answers its row; undefined when that CallSid is another notification's call.
 */
export async function bindCall(
  db: Db | Tx,
  call: { notificationId: number; pageId: number; userId: number; callSid: string; status: string },
): Promise<VoiceCallRow | undefined> {
  await db.insert(voiceCalls).values(call).onConflictDoNothing({ target: voiceCalls.callSid });
  const [row] = await db.select().from(voiceCalls).where(eq(voiceCalls.callSid, call.callSid));
  return row?.notificationId === call.notificationId ? row : undefined;
}

/** updateCall records what Twilio said of a call (status, who answered, the step, the key). */
export async function updateCall(
  db: Db | Tx,
  id: number,
  values: Partial<Pick<VoiceCallRow, 'status' | 'answeredBy' | 'stepIndex' | 'key'>>,
): Promise<void> {
  await db.update(voiceCalls).set(values).where(eq(voiceCalls.id, id));
}

/**
 * endCall records what a call came to, once: answers the row when this request ended it,
 * undefined when it had ended already (a status callback sent twice).
 */
export async function endCall(
  tx: Tx,
  id: number,
  values: Pick<VoiceCallRow, 'status' | 'answeredBy' | 'outcome'> & { endedAt: Date },
): Promise<VoiceCallRow | undefined> {
  const [row] = await tx
    .update(voiceCalls)
    .set(values)
    .where(and(eq(voiceCalls.id, id), isNull(voiceCalls.outcome)))
    .returning();
  return row;
}
