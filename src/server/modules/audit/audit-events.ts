import { atCommit, batchState } from '../../db/batch-transaction';
import type { Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { auditEvents } from '../../db/schema';

/** One event of the audit trail: who did what to which target, and when. */
export interface AuditEventInput {
  /** null: the system (the engine, an alert) */
  actorUserId: number | null;
  action: string;
  targetType: string;
  targetId: number | string;
  details?: Record<string, unknown>;
  at: Date;
  /** the id, when taken from the sequence first because the details are sealed with it */
  id?: number;
}

/**
 * recordAuditEvent appends one event to the audit trail in the caller's transaction and returns
 * its id. It is the only insert into `audit_events` (decision 243): the insert trigger chains the
 * event (decision 172), so every writer goes through here and nothing else touches the table. In
 * a batch transaction (decision 277) the event gets its id at once and is inserted, with the
 * batch's others in the order they were recorded, just before the commit: the chain's head is
 * locked for that one statement, not for the whole batch.
 */
export async function recordAuditEvent(tx: Tx, event: AuditEventInput): Promise<number> {
  const queued = batchState(tx, 'audit_events', () => {
    const rows: AuditRow[] = [];
    atCommit(tx, 'audit_events', async () => {
      await tx.insert(auditEvents).values(rows);
    });
    return rows;
  });
  if (queued) {
    const id = event.id ?? (await allocateIds(tx, 'audit_events'))[0];
    queued.push(rowOf({ ...event, id }));
    return id;
  }
  const [inserted] = await tx
    .insert(auditEvents)
    .values(rowOf(event))
    .returning({ id: auditEvents.id });
  return inserted.id;
}

type AuditRow = typeof auditEvents.$inferInsert;

const rowOf = (event: AuditEventInput): AuditRow => ({
  ...(event.id === undefined ? {} : { id: event.id }),
  actorUserId: event.actorUserId,
  action: event.action,
  targetType: event.targetType,
  targetId: String(event.targetId),
  details: event.details ?? {},
  createdAt: event.at,
});
