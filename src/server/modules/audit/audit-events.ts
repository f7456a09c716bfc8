import type { Tx } from '../../db/client';
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
 * event (decision 172), so every writer goes through here and nothing else touches the table.
 */
export async function recordAuditEvent(tx: Tx, event: AuditEventInput): Promise<number> {
  const [inserted] = await tx
    .insert(auditEvents)
    .values({
      ...(event.id === undefined ? {} : { id: event.id }),
      actorUserId: event.actorUserId,
      action: event.action,
      targetType: event.targetType,
      targetId: String(event.targetId),
      details: event.details ?? {},
      createdAt: event.at,
    })
    .returning({ id: auditEvents.id });
  return inserted.id;
}
