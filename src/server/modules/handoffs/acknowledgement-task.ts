import { and, eq, isNull } from 'drizzle-orm';
import { isMissedNoticeStale } from '../../../shared/domain/handoff-flow';
import { handoffs } from '../../db/schema';
import { eachDue } from '../../engine/due-rows';
import type { EngineTask } from '../../engine/engine-task';
import { announce } from '../notifications/announce';
import { nameOf, toldAs } from '../notifications/person-events';
import { findUsers } from '../users/user-repository';
import { listOverdueAcknowledgements, lockRotationOrSkip } from './handoff-flow-repository';

/**
 * acknowledgementsTask marks missed every handoff whose receiver still holds the baton and has
 * not acknowledged it within the acknowledgement time ('B missed handoff acknowledgment'), and
 * tells the previous holder (decision 052). A miss found long after it happened (the engine was
 * down) is recorded without a notice. An automatic (escalated) handoff keeps its status.
 */
export const acknowledgementsTask: EngineTask = async (deps, now) => {
  const t = deps.config.handoffTimings;
  const occurredBy = new Date(now.getTime() - t.acknowledgeWithinMs);
  const overdue = await listOverdueAcknowledgements(deps.database.db, occurredBy);
  await eachDue(overdue, (candidate) =>
    deps.database.db.transaction(async (tx) => {
      if (!(await lockRotationOrSkip(tx, candidate.rotationId))) return;
      const [handoff] = await listOverdueAcknowledgements(tx, occurredBy, candidate.rotationId);
      if (!handoff || handoff.id !== candidate.id) return;
      const [missed] = await tx
        .update(handoffs)
        .set({ status: 'missed' })
        .where(
          and(
            eq(handoffs.id, handoff.id),
            eq(handoffs.status, 'success'),
            isNull(handoffs.acknowledgedAt),
          ),
        )
        .returning({ id: handoffs.id });
      if (!missed || handoff.fromUserId === null) return;
      if (isMissedNoticeStale(handoff.occurredAt, now, t)) return;
      const people = await findUsers(tx, deps.cipher, [handoff.fromUserId, handoff.toUserId]);
      await announce(tx, deps, now, {
        type: 'handoff.missed',
        key: `handoff:${handoff.id}:missed`,
        at: now,
        told: toldAs('to', [people.get(handoff.fromUserId)]),
        rotation: { id: handoff.rotationId, name: handoff.rotationName },
        toName: nameOf(people, handoff.toUserId),
        urgent: handoff.urgent,
      });
    }),
  );
};
