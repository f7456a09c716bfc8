import {
  DEFAULT_HANDOFF_REMINDER_MINUTES,
  HANDOFF_REMINDER_MINUTES,
} from '../../../shared/contracts/settings';
import type { User } from '../../../shared/contracts/users';
import {
  type FlowEffect,
  type HandoffFlowTimings,
  planHandoffFlow,
  stepTime,
} from '../../../shared/domain/handoff-flow';
import type { Database } from '../../db/client';
import { EffectAlreadyDone, eachDue } from '../../engine/due-rows';
import type { EngineDeps, EngineTask, NextDueAt } from '../../engine/engine-task';
import { announce } from '../notifications/announce';
import {
  type AutoHandoffEvent,
  nameOf,
  type PersonEvent,
  toldAs,
} from '../notifications/person-events';
import { findUsers } from '../users/user-repository';
import {
  type EngineMember,
  type FixedFlowRow,
  listFixedFlowRows,
  nextFixedFlowAt,
  updateFlowRows,
} from './handoff-flow-repository';
import { insertKeyedHandoffs, type NewHandoff } from './handoff-repository';

/**
 * The documented handoff flow for fixed rotations (decisions 050 and 051): notices before each
 * shift boundary, the request to pass at it, an escalation when late and the automatic transfer
 * when very late, planned by `planHandoffFlow` and applied in one transaction per rotation.
 */

const MINUTE = 60_000;
/** The handoff reminder every user starts with (Settings); only a different choice is personal. */
const DEFAULT_REMINDER_MINUTES = DEFAULT_HANDOFF_REMINDER_MINUTES;
/** The longest handoff reminder a user can choose (Settings: 1 day). */
export const LONGEST_REMINDER_MS = Math.max(...HANDOFF_REMINDER_MINUTES) * MINUTE;

/**
 * noticeLeadsOf returns the personal notice leads of the members who can hold the baton: only a
 * reminder other than the default is personal (decision 051).
 */
export function noticeLeadsOf(members: readonly EngineMember[]): Record<number, number> {
  const noticeLeadMs: Record<number, number> = {};
  for (const m of members) {
    if (m.canHold && m.reminderMinutes !== DEFAULT_REMINDER_MINUTES) {
      noticeLeadMs[m.userId] = m.reminderMinutes * MINUTE;
    }
  }
  return noticeLeadMs;
}

/** flowPlanOf plans one rotation's flow at `now` from what the engine read. */
function flowPlanOf(row: FixedFlowRow, now: Date, t: HandoffFlowTimings): FlowEffect[] {
  const eligible = row.members.filter((m) => m.canHold);
  const noticeLeadMs = noticeLeadsOf(eligible);
  return planHandoffFlow(
    {
      pattern: {
        cadence: row.cadence,
        timeZone: row.timeZone,
        handoffTime: row.handoffTime,
        handoffWeekday: row.handoffWeekday,
      },
      boundary: row.nextHandoffAt,
      lastHandoffAt: row.lastHandoffAt,
      memberIds: eligible.map((m) => m.userId),
      holderId: row.holderUserId,
      turnUserId: row.turnUserId,
      timeOff: row.timeOff,
      noticeLeadMs,
    },
    now,
    t,
  );
}

const noticeEventKey = (rotationId: number, boundary: Date, step: string) =>
  `handoff-flow:${rotationId}:${boundary.toISOString()}:${step}`;

/**
 * Notices this process has already written, by database: a rotation inside its notice window is
 * due on every tick, and this memo spares a transaction per tick that would only find the notice
 * already in the outbox. It is an optimisation only: the outbox's dedupe key makes a repeat a
 * no-op, so another instance, or this one after a restart, does the work once more and sends
 * nothing twice.
 */
const sentByDatabase = new WeakMap<Database, Map<string, number>>();

/** memoOf returns the process's memo of notices already written to this database (key → expiry). */
export function memoOf(database: Database): Map<string, number> {
  let memo = sentByDatabase.get(database);
  if (!memo) {
    memo = new Map();
    sentByDatabase.set(database, memo);
  }
  return memo;
}

/** A notice written, and until when the memo remembers it. */
interface WrittenNotice {
  key: string;
  expires: number;
}

/**
 * noticesWrittenBy names the notices a plan writes, by the memo's key, each remembered until two
 * days after its boundary's automatic transfer.
 */
function noticesWrittenBy(
  rotationId: number,
  plan: FlowEffect[],
  t: HandoffFlowTimings,
): WrittenNotice[] {
  return plan.flatMap((e) => {
    if (e.kind !== 'notify') return [];
    const expires = e.boundary.getTime() + t.autoTransferAfterMs + 2 * 86_400_000;
    const eventKey = noticeEventKey(rotationId, e.boundary, e.step);
    return e.recipientIds.map((id) => ({ key: `${eventKey}:${id}`, expires }));
  });
}

/** peopleOf answers the ids of the people a plan names: holders, next members, both ends of a transfer. */
function peopleOf(plan: FlowEffect[]): number[] {
  return plan
    .flatMap((e) =>
      e.kind === 'notify'
        ? [e.holderId, e.nextId]
        : e.kind === 'transfer'
          ? [e.fromId, e.toId]
          : [],
    )
    .filter((id): id is number => typeof id === 'number');
}

/** How many due rotations one transaction of the flow works on (decision 143). */
export const FLOW_BATCH = 25;

/**
 * fixedRotationsTask runs the handoff flow of every active fixed rotation with work due, in
 * batches: one transaction applies the flow of up to FLOW_BATCH rotations with a handful of
 * statements. A batch that fails is done again one rotation per transaction, so one rotation's
 * trouble holds back no other (decision 143). The people the plans name are read (and
 * decrypted) once for the whole tick, before the transactions; a transaction reads only someone
 * its plan under the lock names and the tick did not read (a member added in between).
 */
export const fixedRotationsTask: EngineTask = async (deps, now) => {
  const t = deps.config.handoffTimings;
  const horizon = new Date(now.getTime() + Math.max(t.noticeBeforeMs, LONGEST_REMINDER_MS));
  const memo = memoOf(deps.database);
  for (const [key, expires] of memo) if (expires < now.getTime()) memo.delete(key);
  const rows = await listFixedFlowRows(deps.database.db, horizon);
  const due: { id: number; plan: FlowEffect[] }[] = [];
  for (const row of rows) {
    if (row.coverageActive) continue;
    const plan = flowPlanOf(row, now, t);
    const onlyKnownNotices =
      plan.every((e) => e.kind === 'notify') &&
      noticesWrittenBy(row.id, plan, t).every(({ key }) => memo.has(key));
    if (plan.length > 0 && !onlyKnownNotices) due.push({ id: row.id, plan });
  }
  if (due.length === 0) return;
  const people = await findUsers(
    deps.database.db,
    deps.cipher,
    due.flatMap(({ plan }) => peopleOf(plan)),
  );
  const batches: number[][] = [];
  for (let i = 0; i < due.length; i += FLOW_BATCH) {
    batches.push(due.slice(i, i + FLOW_BATCH).map((d) => d.id));
  }
  await eachDue(batches, async (ids) => {
    for (const { key, expires } of await runBatch(deps, ids, horizon, now, people)) {
      memo.set(key, expires);
    }
  });
};

/**
 * runBatch applies the flow of the rotations in one transaction; when that fails, each rotation
 * in its own. A rotation whose automatic transfer another engine already recorded is skipped.
 */
async function runBatch(
  deps: EngineDeps,
  ids: number[],
  horizon: Date,
  now: Date,
  known: ReadonlyMap<number, User>,
): Promise<WrittenNotice[]> {
  try {
    return await runFlows(deps, ids, horizon, now, known);
  } catch (err) {
    if (ids.length === 1) {
      if (err instanceof EffectAlreadyDone) return [];
      throw err;
    }
    const written: WrittenNotice[] = [];
    await eachDue(
      ids,
      async (id) => {
        written.push(...(await runBatch(deps, [id], horizon, now, known)));
      },
      1,
    );
    return written;
  }
}

/** An automatic transfer as recorded: keyed by its rotation and boundary. */
type AutoTransfer = NewHandoff & { fromUserId: number | null; toUserId: number; effectKey: string };

/** What one rotation's plan writes, gathered so a batch writes each kind in one statement. */
interface FlowWrites {
  row: FixedFlowRow;
  transfers: AutoTransfer[];
  update: {
    holderUserId?: number;
    holderSince?: Date;
    nextHandoffAt?: Date;
    turnUserId?: number;
  } | null;
  events: PersonEvent[];
}

/**
 * runFlows applies the flow of the rotations in one transaction, under their row locks (read
 * again: a pass, a reassign or another engine may have changed them; a rotation another engine
 * holds is left to it). Throws EffectAlreadyDone, undoing the whole batch, when a transfer was
 * already recorded.
 */
async function runFlows(
  deps: EngineDeps,
  ids: number[],
  horizon: Date,
  now: Date,
  known: ReadonlyMap<number, User>,
): Promise<WrittenNotice[]> {
  const t = deps.config.handoffTimings;
  return deps.database.db.transaction(async (tx) => {
    const rows = (await listFixedFlowRows(tx, horizon, ids)).filter((r) => !r.coverageActive);
    const plans = rows.map((row) => ({ row, plan: flowPlanOf(row, now, t) }));
    const unknown = plans.flatMap(({ plan }) => peopleOf(plan)).filter((id) => !known.has(id));
    const people =
      unknown.length === 0
        ? known
        : new Map([...known, ...(await findUsers(tx, deps.cipher, unknown))]);
    const writes = plans.map(({ row, plan }) => flowWritesOf(row, plan, people, t, now));

    const transfers = writes.flatMap((w) => w.transfers);
    const recorded = await insertKeyedHandoffs(tx, transfers);
    if (recorded.size < transfers.length) {
      const done = transfers.find((x) => !recorded.has(x.effectKey));
      throw new EffectAlreadyDone(done?.effectKey ?? 'an automatic transfer');
    }
    await updateFlowRows(
      tx,
      writes.flatMap((w) => (w.update ? [{ id: w.row.id, ...w.update }] : [])),
      now,
    );
    // One statement for the batch's people; an automatic transfer is a handoff for the rotation's
    // chat and webhook destinations too (decision 221).
    await announce(
      tx,
      deps,
      now,
      writes.flatMap((w) => {
        // After downtime only the transfer that left the baton where it is now is announced.
        const last = w.transfers.at(-1);
        const handoffId = last ? recorded.get(last.effectKey) : undefined;
        return last && handoffId !== undefined
          ? [...w.events, autoTransferEvent(handoffId, w.row, last, people, now)]
          : w.events;
      }),
    );
    return plans.flatMap(({ row, plan }) => noticesWrittenBy(row.id, plan, t));
  });
}

/** flowWritesOf turns one rotation's plan into what it writes: transfers, the row, notices. */
function flowWritesOf(
  row: FixedFlowRow,
  plan: FlowEffect[],
  people: ReadonlyMap<number, User>,
  t: HandoffFlowTimings,
  now: Date,
): FlowWrites {
  const writes: FlowWrites = { row, transfers: [], update: null, events: [] };
  let update: NonNullable<FlowWrites['update']> = {};
  for (const effect of plan) {
    if (effect.kind === 'notify') {
      writes.events.push({
        type: `handoff.${effect.step}`,
        key: noticeEventKey(row.id, effect.boundary, effect.step),
        at: now,
        told: effect.recipientIds.flatMap((recipientId) =>
          toldAs(recipientId === effect.holderId ? 'holder' : 'next', [people.get(recipientId)]),
        ),
        rotation: { id: row.id, name: row.name },
        boundary: effect.boundary,
        autoAt: stepTime('auto_transfer', effect.boundary, t),
        holderName: nameOf(people, effect.holderId),
        nextName: nameOf(people, effect.nextId),
      });
    } else if (effect.kind === 'transfer') {
      // Recorded at the moment it was due, so a catch-up after downtime writes the same history.
      const occurredAt = stepTime('auto_transfer', effect.boundary, t);
      writes.transfers.push({
        rotationId: row.id,
        fromUserId: effect.fromId,
        toUserId: effect.toId,
        kind: 'auto',
        status: 'escalated',
        occurredAt,
        effectKey: `auto:${row.id}:${effect.boundary.toISOString()}`,
      });
      update = { ...update, holderUserId: effect.toId, holderSince: occurredAt };
    } else {
      update = { ...update, nextHandoffAt: effect.nextBoundary };
      // The turn owner moves on with each boundary the engine hands out (decision 256).
      if (effect.turnUserId != null) update = { ...update, turnUserId: effect.turnUserId };
    }
  }
  // The new holder, turn owner and next boundary in one update of the locked row.
  if (Object.keys(update).length > 0) writes.update = update;
  return writes;
}

/** autoTransferEvent tells the receiver and the previous holder of an automatic transfer. */
function autoTransferEvent(
  handoffId: number,
  row: FixedFlowRow,
  transfer: AutoTransfer,
  people: ReadonlyMap<number, User>,
  now: Date,
): AutoHandoffEvent {
  const { fromUserId: fromId, toUserId: toId } = transfer;
  return {
    type: 'handoff.auto',
    key: `handoff:${handoffId}`,
    at: now,
    handoffId,
    told: [
      ...toldAs('to', [people.get(toId)]),
      ...toldAs('from', [fromId === null ? undefined : people.get(fromId)]),
    ],
    rotation: { id: row.id, name: row.name },
    fromName: nameOf(people, fromId),
    toName: nameOf(people, toId),
  };
}

/**
 * fixedFlowDueAt: when a fixed rotation's flow next has a step (its notice, boundary, escalation
 * or automatic transfer, by the server's timings; decision 278).
 */
export const fixedFlowDueAt: NextDueAt = (deps, now) =>
  nextFixedFlowAt(deps.database.db, now, deps.config.handoffTimings);
