import { nextScheduleTransition, scheduleTransitions, windowAt } from '../../shared/domain/shifts';
import {
  insertKeyedHandoff,
  setHolder,
  updateRotationRow,
} from '../modules/rotations/rotation-repository';
import { type EngineNotice, sendNotices } from './engine-notify';
import {
  EffectAlreadyDone,
  eachDue,
  listDueScheduledRotations,
  listEngineMembers,
  listEntriesEndingFrom,
  listRunningCoverage,
  loadUsers,
  lockRotationOrSkip,
} from './engine-repository';
import { batonArrivedMessage, batonLeftMessage } from './handoff-messages';
import type { EngineDeps, EngineTask } from './tasks';

/**
 * Scheduled rotations (decision 054): the holder is whoever's schedule entry covers now. The
 * rotation's stored next handoff is the next instant an entry starts or ends; when it comes, the
 * engine moves the baton to whoever the schedule names from then (nobody in a gap), recording a
 * handoff of kind schedule per change, at the moment it was due. Between changes, a baton moved
 * by hand stays where it was put. A running coverage window holds the baton through any change.
 */
export const scheduledRotationsTask: EngineTask = async (deps, now) => {
  const due = await listDueScheduledRotations(deps.database.db, now);
  await eachDue(due, (rotationId) => followSchedule(deps, rotationId, now));
};

async function followSchedule(deps: EngineDeps, rotationId: number, now: Date): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const rotation = await lockRotationOrSkip(tx, rotationId);
    if (rotation?.type !== 'scheduled' || rotation.suspended) return;
    const from = rotation.nextHandoffAt;
    if (!from || from.getTime() > now.getTime()) return;
    const entries = await listEntriesEndingFrom(tx, rotationId, from);
    const running = await listRunningCoverage(tx, rotationId);
    const members = new Set(
      (await listEngineMembers(tx, rotationId)).filter((m) => m.canHold).map((m) => m.userId),
    );
    // The stored instant itself is applied (it may be a start of the clock: activation, a
    // change of type, a deleted entry), then every change up to now.
    const changes = [
      { at: from, userId: windowAt(entries, from)?.userId ?? null },
      ...scheduleTransitions(entries, from, now).filter((c) => c.at.getTime() > from.getTime()),
    ];
    let holder = rotation.holderUserId;
    let last: {
      handoffId: number;
      fromId: number | null;
      toId: number | null;
      until: Date | null;
    } | null = null;
    for (const change of changes) {
      if (windowAt(running, change.at)) continue;
      const named = change.userId !== null && members.has(change.userId) ? change.userId : null;
      if (named === holder) continue;
      const effectKey = `schedule:${rotationId}:${change.at.toISOString()}`;
      const handoff = await insertKeyedHandoff(tx, {
        rotationId,
        fromUserId: holder,
        toUserId: named,
        kind: 'schedule',
        occurredAt: change.at,
        effectKey,
      });
      if (!handoff) throw new EffectAlreadyDone(effectKey);
      await setHolder(tx, rotationId, named, change.at);
      last = {
        handoffId: handoff.id,
        fromId: holder,
        toId: named,
        until: windowAt(entries, change.at)?.end ?? null,
      };
      holder = named;
    }
    await updateRotationRow(
      tx,
      rotationId,
      { nextHandoffAt: nextScheduleTransition(entries, now) },
      now,
    );
    if (!last) return;
    // After downtime only the change that left the baton where it is now is announced.
    const { handoffId, fromId, toId, until } = last;
    const people = await loadUsers(tx, deps.cipher, [fromId, toId]);
    const notices: EngineNotice[] = [];
    if (toId !== null) {
      notices.push({
        eventKey: `handoff:${handoffId}`,
        kind: 'handoff.schedule',
        recipient: people.get(toId),
        message: (c) => batonArrivedMessage(c, { reason: 'schedule', until }),
      });
    }
    if (fromId !== null) {
      notices.push({
        eventKey: `handoff:${handoffId}`,
        kind: 'handoff.schedule',
        recipient: people.get(fromId),
        message: (c) =>
          batonLeftMessage(c, {
            reason: 'schedule',
            toName: toId === null ? null : (people.get(toId)?.name ?? null),
          }),
      });
    }
    await sendNotices(tx, deps, now, { id: rotationId, name: rotation.name }, notices);
  });
}
