import {
  type FlowEffect,
  type HandoffFlowTimings,
  planHandoffFlow,
  stepTime,
} from '../../shared/domain/handoff-flow';
import type { Database, Tx } from '../db/client';
import { insertKeyedHandoff, updateRotationRow } from '../modules/rotations/rotation-repository';
import { type EngineNotice, sendNotices } from './engine-notify';
import {
  EffectAlreadyDone,
  type EngineMember,
  eachDue,
  type FixedFlowRow,
  listFixedFlowRows,
  loadUsers,
} from './engine-repository';
import {
  autoTransferAwayMessage,
  autoTransferToYouMessage,
  handoffDueMessage,
  handoffEscalationMessage,
  handoffNoticeMessage,
} from './handoff-messages';
import type { EngineDeps, EngineTask } from './tasks';

/**
 * The documented handoff flow for fixed rotations (decisions 050 and 051): notices before each
 * shift boundary, the request to pass at it, an escalation when late and the automatic transfer
 * when very late, planned by `planHandoffFlow` and applied in one transaction per rotation.
 */

const MINUTE = 60_000;
/** The handoff reminder every user starts with (Settings); only a different choice is personal. */
export const DEFAULT_REMINDER_MINUTES = 30;
/** The longest handoff reminder a user can choose (Settings: 1 day). */
export const LONGEST_REMINDER_MS = 1440 * MINUTE;

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
export function flowPlanOf(row: FixedFlowRow, now: Date, t: HandoffFlowTimings): FlowEffect[] {
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

function noticeKeysOf(rotationId: number, plan: FlowEffect[]): string[] {
  return plan.flatMap((e) =>
    e.kind === 'notify'
      ? e.recipientIds.map((id) => `${noticeEventKey(rotationId, e.boundary, e.step)}:${id}`)
      : [],
  );
}

/** fixedRotationsTask runs the handoff flow of every active fixed rotation with work due. */
export const fixedRotationsTask: EngineTask = async (deps, now) => {
  const t = deps.config.handoffTimings;
  const horizon = new Date(now.getTime() + Math.max(t.noticeBeforeMs, LONGEST_REMINDER_MS));
  const memo = memoOf(deps.database);
  for (const [key, expires] of memo) if (expires < now.getTime()) memo.delete(key);
  const rows = await listFixedFlowRows(deps.database.db, horizon);
  const due = rows.filter((row) => {
    if (row.coverageActive) return false;
    const plan = flowPlanOf(row, now, t);
    const keys = noticeKeysOf(row.id, plan);
    const onlyKnownNotices =
      plan.every((e) => e.kind === 'notify') && keys.every((k) => memo.has(k));
    return plan.length > 0 && !onlyKnownNotices;
  });
  await eachDue(due, async (row) => {
    const sent = await runFlow(deps, row.id, horizon, now);
    const expires = row.nextHandoffAt.getTime() + t.autoTransferAfterMs + 2 * 86_400_000;
    for (const key of sent) memo.set(key, expires);
  });
};

/** runFlow applies one rotation's flow under its row lock; answers the notice keys it wrote. */
async function runFlow(
  deps: EngineDeps,
  rotationId: number,
  horizon: Date,
  now: Date,
): Promise<string[]> {
  try {
    return await deps.database.db.transaction(async (tx) => {
      // Read again under the row lock (a pass, a reassign or another engine may have changed it);
      // nothing when another engine holds the lock or the rotation is no longer due.
      const [row] = await listFixedFlowRows(tx, horizon, rotationId);
      if (!row || row.coverageActive) return [];
      return applyFlow(tx, deps, row, flowPlanOf(row, now, deps.config.handoffTimings), now);
    });
  } catch (err) {
    if (err instanceof EffectAlreadyDone) return [];
    throw err;
  }
}

async function applyFlow(
  tx: Tx,
  deps: EngineDeps,
  row: FixedFlowRow,
  plan: FlowEffect[],
  now: Date,
): Promise<string[]> {
  const t = deps.config.handoffTimings;
  const ids = plan.flatMap((e) =>
    e.kind === 'notify' ? [e.holderId, e.nextId] : e.kind === 'transfer' ? [e.fromId, e.toId] : [],
  );
  const people = await loadUsers(tx, deps.cipher, ids);
  const nameOf = (id: number | null) => (id === null ? null : (people.get(id)?.name ?? null));
  const notices: EngineNotice[] = [];
  let nextBoundary: Date | null = null;
  let holder: { holderUserId: number; holderSince: Date } | null = null;
  let lastTransfer: { handoffId: number; fromId: number | null; toId: number } | null = null;

  for (const effect of plan) {
    if (effect.kind === 'notify') {
      const eventKey = noticeEventKey(row.id, effect.boundary, effect.step);
      const autoAt = stepTime('auto_transfer', effect.boundary, t);
      for (const recipientId of effect.recipientIds) {
        const role = recipientId === effect.holderId ? 'holder' : 'next';
        const otherName = nameOf(role === 'holder' ? effect.nextId : effect.holderId);
        notices.push({
          eventKey,
          kind: `handoff.${effect.step}`,
          recipient: people.get(recipientId),
          message: (c) =>
            effect.step === 'notice'
              ? handoffNoticeMessage(c, { boundary: effect.boundary, role, otherName })
              : effect.step === 'due'
                ? handoffDueMessage(c, { boundary: effect.boundary, role, otherName, autoAt })
                : handoffEscalationMessage(c, {
                    boundary: effect.boundary,
                    autoAt,
                    holderName: nameOf(effect.holderId),
                    nextName: nameOf(effect.nextId),
                  }),
        });
      }
    } else if (effect.kind === 'transfer') {
      // Recorded at the moment it was due, so a catch-up after downtime writes the same history.
      const occurredAt = stepTime('auto_transfer', effect.boundary, t);
      const effectKey = `auto:${row.id}:${effect.boundary.toISOString()}`;
      const handoff = await insertKeyedHandoff(tx, {
        rotationId: row.id,
        fromUserId: effect.fromId,
        toUserId: effect.toId,
        kind: 'auto',
        status: 'escalated',
        occurredAt,
        effectKey,
      });
      if (!handoff) throw new EffectAlreadyDone(effectKey);
      holder = { holderUserId: effect.toId, holderSince: occurredAt };
      lastTransfer = { handoffId: handoff.id, fromId: effect.fromId, toId: effect.toId };
    } else {
      nextBoundary = effect.nextBoundary;
    }
  }
  // The new holder and the next boundary in one update of the locked row.
  if (nextBoundary || holder) {
    const values = { ...holder, ...(nextBoundary ? { nextHandoffAt: nextBoundary } : {}) };
    await updateRotationRow(tx, row.id, values, now);
  }
  // After downtime only the transfer that left the baton where it is now is announced.
  if (lastTransfer) {
    const { handoffId, fromId, toId } = lastTransfer;
    notices.push({
      eventKey: `handoff:${handoffId}`,
      kind: 'handoff.auto',
      recipient: people.get(toId),
      message: (c) => autoTransferToYouMessage(c, { fromName: nameOf(fromId) }),
    });
    if (fromId !== null) {
      notices.push({
        eventKey: `handoff:${handoffId}`,
        kind: 'handoff.auto',
        recipient: people.get(fromId),
        message: (c) => autoTransferAwayMessage(c, { toName: nameOf(toId) }),
      });
    }
  }
  await sendNotices(tx, deps, now, { id: row.id, name: row.name }, notices);
  return noticeKeysOf(row.id, plan);
}
