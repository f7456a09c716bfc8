import {
  type HandoffFlowTimings,
  planScheduleNotices,
  type ScheduleNotice,
} from '../../../shared/domain/handoff-flow';
import { nextChangeAfter } from '../../../shared/domain/layers';
import {
  followsWindows,
  isLayered,
  layerWindowsOf,
  projectionLayersOf,
} from '../../../shared/domain/rotation-layers';
import { scheduleTransitions, type TimeWindow, windowAt } from '../../../shared/domain/shifts';
import type { Tx } from '../../db/client';
import { EffectAlreadyDone, eachDue, eachDueInBatches } from '../../engine/due-rows';
import type { EngineDeps, EngineTask, NextDueAt } from '../../engine/engine-task';
import {
  type EngineMember,
  type EngineWindow,
  listDueScheduledRotations,
  listEngineMembers,
  listEngineMembersOf,
  listNamedWindowsFrom,
  listRunningCoverage,
  listRunningCoverageOf,
  listScheduleNoticeRows,
  lockRotationsOrSkip,
  nextScheduledChangeAt,
  type ScheduleNoticeRow,
} from '../handoffs/handoff-flow-repository';
import { LONGEST_REMINDER_MS, memoOf, noticeLeadsOf } from '../handoffs/handoff-flow-task';
import { insertKeyedHandoff } from '../handoffs/handoff-repository';
import { type AnnounceDeps, announce } from '../notifications/announce';
import { type HandoffStepEvent, nameOf, toldAs } from '../notifications/person-events';
import { type RotationRow, updateRotationRow } from '../rotations/rotation-repository';
import { findUsers } from '../users/user-repository';
import { nextTransitionAfter } from './schedule-repository';

/**
 * Scheduled rotations (decision 054) and layered ones (decision 247): the holder is whoever the
 * schedule's entries, or the layers' turns, name at each instant. The rotation's stored next
 * handoff is the next instant that changes; when it comes, the engine moves the baton to whoever
 * is named from then (nobody in a gap), recording a handoff of kind schedule per change, at the
 * moment it was due. Between changes, a baton moved by hand stays where it was put. A running
 * coverage window holds the baton through any change.
 */
export const scheduledRotationsTask: EngineTask = async (deps, now) => {
  const due = await listDueScheduledRotations(deps.database.db, now);
  await eachDueInBatches(
    deps.database.db,
    due,
    ROTATIONS_PER_TRANSACTION,
    async (tx, ids) => {
      // The batch's rows locked (one another engine holds is skipped), then what names their
      // holders read for all of them at once, under the locks.
      const locked = (await lockRotationsOrSkip(tx, ids)).filter(
        (rotation) => followsWindows(rotation) && !rotation.suspended,
      );
      const lockedIds = locked.map((rotation) => rotation.id);
      const running = await listRunningCoverageOf(tx, lockedIds);
      const members = await listEngineMembersOf(tx, lockedIds);
      for (const rotation of locked) {
        await followWindows(tx, deps, rotation, now, {
          running: running.get(rotation.id) ?? [],
          members: members.get(rotation.id) ?? [],
        });
      }
    },
    BATCHES_AT_ONCE,
  );
};

/**
 * ROTATIONS_PER_TRANSACTION: how many due rotations one transaction of the task follows
 * (decision 280). Teams' windows change at the same hours (a company's follow-the-sun pairs all
 * hand over at 07:00 and 19:00): one transaction each made 1,000 rotations due at one minute
 * wait up to 7.4 s for their turn; batched, they share their commits and the reads they have in
 * common. Each rotation's row is still locked and its windows read again in the transaction.
 */
export const ROTATIONS_PER_TRANSACTION = 32;

/**
 * BATCHES_AT_ONCE: how many of those transactions run at once (decision 280). A batch waits on
 * its statements one after another, so a burst is bound by round trips, not by the processor (the
 * server and PostgreSQL used half of the two cores over it): four at once took 1,000 rotations
 * 6.1 s, six 4.2 s, eight 4.1 s. Six leave four of the pool's ten connections to the API and the
 * other tasks while a burst runs.
 */
export const BATCHES_AT_ONCE = 6;

const DAY = 86_400_000;

/**
 * namedWindowsOf returns what names the holder of a rotation from `from` to past `now`: its
 * schedule entries, or its layers' stretches, and the instant after `now` that next changes it.
 */
async function namedWindowsOf(
  tx: Tx,
  rotation: RotationRow,
  eligible: ReadonlySet<number>,
  from: Date,
  now: Date,
): Promise<{ windows: TimeWindow[]; next: Date | null }> {
  // A day past now, so the stretch holding `now` is whole and no cut falls in [from, now].
  const to = new Date(now.getTime() + DAY);
  const windows = await listNamedWindowsFrom(tx, rotation, eligible, from, to);
  // A series' next occurrence may lie past the day read: its next change is found by the rule.
  const next = isLayered(rotation)
    ? nextChangeAfter(projectionLayersOf(rotation, eligible), rotation.timeZone, now)
    : await nextTransitionAfter(tx, rotation, now);
  return { windows, next };
}

/**
 * followWindows applies a scheduled or layered rotation's changes from its stored next handoff up
 * to `now`, under the row lock the caller holds, and stores the next one: the engine's tick, and a
 * layered rotation's creation or new layers (its first holder from that instant). `read`: its
 * running coverage and members, when the caller read them under the lock (a batch of the tick).
 */
export async function followWindows(
  tx: Tx,
  deps: AnnounceDeps & Pick<EngineDeps, 'cipher'>,
  rotation: RotationRow,
  now: Date,
  read?: { running: EngineWindow[]; members: EngineMember[] },
): Promise<void> {
  const rotationId = rotation.id;
  const from = rotation.nextHandoffAt;
  if (!from || from.getTime() > now.getTime()) return;
  const running = read?.running ?? (await listRunningCoverage(tx, rotationId));
  const members = new Set(
    (read?.members ?? (await listEngineMembers(tx, rotationId)))
      .filter((m) => m.canHold)
      .map((m) => m.userId),
  );
  const { windows, next } = await namedWindowsOf(tx, rotation, members, from, now);
  // The stored instant itself is applied (it may be a start of the clock: activation, a
  // change of type, a deleted entry, new layers), then every change up to now.
  const changes = [
    { at: from, userId: windowAt(windows, from)?.userId ?? null },
    ...scheduleTransitions(windows, from, now).filter((c) => c.at.getTime() > from.getTime()),
  ];
  let holder = rotation.holderUserId;
  let last: {
    handoffId: number;
    fromId: number | null;
    toId: number | null;
    until: Date | null;
    at: Date;
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
    last = {
      handoffId: handoff.id,
      fromId: holder,
      toId: named,
      until: windowAt(windows, change.at)?.end ?? null,
      at: change.at,
    };
    holder = named;
  }
  // The holder the last change left, and the next change, in one statement.
  const held = last && {
    holderUserId: holder,
    holderSince: holder === null ? null : last.at,
    turnUserId: holder,
  };
  await updateRotationRow(tx, rotationId, { nextHandoffAt: next, ...held }, now);
  if (!last) return;
  // After downtime only the change that left the baton where it is now is announced.
  const { handoffId, fromId, toId, until } = last;
  const people = await findUsers(tx, deps.cipher, [fromId, toId]);
  // The rotation's chat and webhook destinations hear of it too, when someone holds it now.
  await announce(tx, deps, now, {
    type: 'handoff.schedule',
    key: `handoff:${handoffId}`,
    at: now,
    handoffId,
    told: [
      ...toldAs('to', [toId === null ? undefined : people.get(toId)]),
      ...toldAs('from', [fromId === null ? undefined : people.get(fromId)]),
    ],
    rotation: { id: rotationId, name: rotation.name },
    fromName: nameOf(people, fromId),
    toUserId: toId,
    toName: nameOf(people, toId),
    until,
  });
}

// ---------------------------------------------------------------------------------------------
// Handoff notices before the schedule moves the baton (decision 131).

/** scheduleNoticePlanOf plans one scheduled rotation's notices at `now` from what the engine read. */
function scheduleNoticePlanOf(
  row: ScheduleNoticeRow,
  now: Date,
  t: HandoffFlowTimings,
): ScheduleNotice[] {
  const memberIds = row.members.filter((m) => m.canHold).map((m) => m.userId);
  // A layered rotation's changes come from its layers, a day past the horizon so none is cut.
  const entries = row.layers
    ? layerWindowsOf(
        projectionLayersOf(row, new Set(memberIds)),
        row.timeZone,
        now,
        new Date(now.getTime() + Math.max(t.noticeBeforeMs, LONGEST_REMINDER_MS) + DAY),
      )
    : row.entries;
  return planScheduleNotices(
    {
      entries,
      running: row.running,
      holderId: row.holderUserId,
      memberIds,
      noticeLeadMs: noticeLeadsOf(row.members),
    },
    now,
    t,
  );
}

const scheduleNoticeKey = (rotationId: number, at: Date) =>
  `schedule-notice:${rotationId}:${at.toISOString()}`;

function scheduleNoticeKeys(rotationId: number, plan: ScheduleNotice[]): string[] {
  return plan.flatMap((n) =>
    n.recipientIds.map((id) => `${scheduleNoticeKey(rotationId, n.at)}:${id}`),
  );
}

/**
 * scheduleNoticesTask tells the outgoing and the incoming holder of each coming schedule change,
 * each at their own handoff reminder, in active scheduled rotations. Every notice's event key
 * names the rotation and the instant, so the outbox's dedupe key sends it once; the process's
 * memo only spares a transaction per tick for notices already written.
 */
export const scheduleNoticesTask: EngineTask = async (deps, now) => {
  const t = deps.config.handoffTimings;
  const horizon = new Date(now.getTime() + Math.max(t.noticeBeforeMs, LONGEST_REMINDER_MS));
  const memo = memoOf(deps.database);
  const rows = await listScheduleNoticeRows(deps.database.db, now, horizon);
  const due = rows.filter((row) =>
    scheduleNoticeKeys(row.id, scheduleNoticePlanOf(row, now, t)).some((k) => !memo.has(k)),
  );
  await eachDue(due, async (row) => {
    const sent = await writeScheduleNotices(deps, row.id, horizon, now);
    for (const key of sent) memo.set(key, now.getTime() + 2 * DAY);
  });
};

/** writeScheduleNotices re-plans one rotation under its row lock and writes its notices. */
async function writeScheduleNotices(
  deps: EngineDeps,
  rotationId: number,
  horizon: Date,
  now: Date,
): Promise<string[]> {
  return deps.database.db.transaction(async (tx) => {
    // Read again under the row lock: suspended, passed by hand or re-scheduled since.
    const [row] = await listScheduleNoticeRows(tx, now, horizon, rotationId);
    if (!row) return [];
    const plan = scheduleNoticePlanOf(row, now, deps.config.handoffTimings);
    const people = await findUsers(
      tx,
      deps.cipher,
      plan.flatMap((n) => [n.fromId, n.toId]),
    );
    const events: HandoffStepEvent[] = plan.map((n) => ({
      type: 'handoff.notice',
      key: scheduleNoticeKey(row.id, n.at),
      at: now,
      told: n.recipientIds.flatMap((recipientId) =>
        toldAs(recipientId === n.fromId ? 'holder' : 'next', [people.get(recipientId)]),
      ),
      rotation: { id: row.id, name: row.name },
      boundary: n.at,
      autoAt: null,
      holderName: nameOf(people, n.fromId),
      nextName: nameOf(people, n.toId),
      scheduled: true,
    }));
    await announce(tx, deps, now, events);
    return scheduleNoticeKeys(row.id, plan);
  });
}

/** scheduledChangeDueAt: when a scheduled or layered rotation next changes hands (decision 278). */
export const scheduledChangeDueAt: NextDueAt = (deps, now) =>
  nextScheduledChangeAt(deps.database.db, now);
