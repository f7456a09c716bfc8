import type { ShiftNotice } from '../../../shared/contracts/shift-changes';
import type { User } from '../../../shared/contracts/users';
import {
  DEFAULT_HANDOFF_TIMINGS,
  type HandoffFlowTimings,
} from '../../../shared/domain/handoff-flow';
import {
  changedShifts,
  type PersonShift,
  projectionSpan,
  SHIFT_CHANGE_DELAY_MS,
  type ShiftChange,
  shiftChangeSentences,
} from '../../../shared/domain/shift-changes';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import type { StoredShift, StoredShiftChange } from '../../db/schema';
import { notFound } from '../../http/errors';
import { layOut } from '../calendar/calendar-service';
import { announce } from '../notifications/announce';
import type { NotifyDeps } from '../notifications/notify';
import { findUsers } from '../users/user-repository';
import {
  claimDueBaseline,
  deleteBaseline,
  dismissNotice,
  insertShiftNotices,
  keepBaseline,
  listOpenNotices,
  lockBaseline,
} from './shift-change-repository';

/**
 * "Your shift moved" (issue 18, decision 219). A change that may move a rotation's upcoming
 * shifts calls noteShiftChange at the start of its transaction: the first one keeps the
 * rotation's projection for the coming 8 weeks as a baseline, due 2 minutes later. When it is
 * due, the engine compares it with the projection then and tells each person whose shifts
 * changed, once, by their channels and with a notice on their dashboard.
 */

/** What noting and telling shift changes need: the cipher and, for the projection, the timings. */
export interface ShiftChangeDeps {
  cipher: FieldCipher;
  /** the app's configuration: the handoff timings, and SHIFT_CHANGE_DELAY_SECONDS */
  config?: { handoffTimings?: HandoffFlowTimings; shiftChangeDelayMs?: number };
}

const toStored = (s: PersonShift): StoredShift => ({
  userId: s.userId,
  start: s.start.toISOString(),
  end: s.end.toISOString(),
});
const fromStored = (s: StoredShift): PersonShift => ({
  userId: s.userId,
  start: new Date(s.start),
  end: new Date(s.end),
});

/**
 * projectShifts returns a rotation's shifts over projectionSpan(now) as the calendar lays them
 * out (the same reads and the same shared projection), read in the transaction.
 */
async function projectShifts(
  tx: Tx,
  deps: ShiftChangeDeps,
  rotationId: number,
  now: Date,
): Promise<PersonShift[]> {
  const span = projectionSpan(now);
  const { laid } = await layOut(
    {
      database: { db: tx },
      cipher: deps.cipher,
      clock: { now: () => now },
      config: { handoffTimings: deps.config?.handoffTimings ?? DEFAULT_HANDOFF_TIMINGS },
    },
    span.from,
    span.to,
    null,
    rotationId,
  );
  return (laid[0]?.shifts ?? []).map((s) => ({ userId: s.userId, start: s.start, end: s.end }));
}

/**
 * noteShiftChange is called at the start of a change's transaction, before the change is
 * applied, by every change that may move a rotation's upcoming shifts. The first change keeps the
 * rotation's projection as the baseline, due SHIFT_CHANGE_DELAY_SECONDS (2 minutes) later; while one waits, a
 * change only locks it (so the engine cannot tell it until this change commits, and tells this
 * change with it). If the engine is telling the baseline now, the change waits for it and then
 * starts a new one.
 */
export async function noteShiftChange(
  tx: Tx,
  deps: ShiftChangeDeps,
  rotationId: number,
  now: Date,
): Promise<void> {
  if (await lockBaseline(tx, rotationId)) return;
  const shifts = await projectShifts(tx, deps, rotationId, now);
  await keepBaseline(tx, {
    rotationId,
    takenAt: now,
    dueAt: new Date(now.getTime() + (deps.config?.shiftChangeDelayMs ?? SHIFT_CHANGE_DELAY_MS)),
    shifts: shifts.map(toStored),
  });
}

const spanOf = (s: { start: Date; end: Date } | undefined) =>
  s ? { start: s.start.toISOString(), end: s.end.toISOString() } : null;
const toStoredChange = (c: ShiftChange): StoredShiftChange => ({
  kind: c.kind,
  before: spanOf(c.kind === 'added' ? undefined : c.before),
  after: spanOf(c.kind === 'removed' ? undefined : c.after),
});
const spanFrom = (s: { start: string; end: string } | null) =>
  s ? { start: new Date(s.start), end: new Date(s.end) } : null;
const fromStoredChange = (c: StoredShiftChange): ShiftChange => {
  const before = spanFrom(c.before);
  const after = spanFrom(c.after);
  if (c.kind === 'moved' && before && after) return { kind: 'moved', before, after };
  if (c.kind === 'removed' && before) return { kind: 'removed', before };
  return { kind: 'added', after: after ?? (before as { start: Date; end: Date }) };
};

/**
 * tellShiftChanges tells a rotation's due baseline, if this transaction can claim it (`skip
 * locked`: a change or another engine holds it, and the next tick tries again): each person whose
 * shifts changed gets one message by their channels (the event key names the baseline) and a
 * notice; then the baseline goes. Returns how many people were told.
 */
export async function tellShiftChanges(
  tx: Tx,
  deps: ShiftChangeDeps & NotifyDeps,
  rotationId: number,
  now: Date,
): Promise<number> {
  const baseline = await claimDueBaseline(tx, rotationId, now);
  if (!baseline) return 0;
  const after = await projectShifts(tx, deps, rotationId, now);
  const changes = changedShifts(baseline.shifts.map(fromStored), baseline.takenAt, after, now);
  const eventKey = `shift-changes:${baseline.id}`;
  const rotation = { id: rotationId, name: baseline.rotationName };
  const people = await findUsers(tx, deps.cipher, [...changes.keys()]);
  if (changes.size > 0) {
    // Each person hears of their own changes; the rotation's chat and webhook destinations hear
    // of it once per baseline, as `shift-moved` (decision 221).
    await announce(tx, deps, now, {
      type: 'shifts.changed',
      key: eventKey,
      at: now,
      told: [...changes].flatMap(([userId, list]) => {
        const person = people.get(userId);
        return person ? [{ person, as: 'to' as const, changes: list }] : [];
      }),
      rotation,
      peopleNames: [...changes.keys()].flatMap((id) => people.get(id)?.name ?? []),
    });
  }
  await insertShiftNotices(
    tx,
    [...changes]
      .filter(([userId]) => people.has(userId))
      .map(([userId, list]) => ({
        userId,
        rotationId,
        eventKey,
        changes: list.map(toStoredChange),
        createdAt: now,
      })),
  );
  await deleteBaseline(tx, baseline.id);
  return [...changes.keys()].filter((id) => people.has(id)).length;
}

// ---------------------------------------------------------------------------------------------
// The person's notices

/** listMyShiftNotices returns the signed-in person's notices not dismissed, in words in their zone. */
export async function listMyShiftNotices(
  deps: { database: { db: Db }; clock: { now(): Date } },
  viewer: User,
): Promise<ShiftNotice[]> {
  const timeZone = zoneOrUtc(viewer.timezone);
  const now = deps.clock.now();
  const rows = await listOpenNotices(deps.database.db, viewer.id);
  return rows.map((row) => {
    const changes = row.changes.map(fromStoredChange);
    return {
      id: row.id,
      rotation: { id: row.rotationId, name: row.rotationName },
      createdAt: row.createdAt.toISOString(),
      changes: row.changes,
      ...shiftChangeSentences(changes, row.rotationName, timeZone, now),
      timeZone,
    };
  });
}

export const SHIFT_NOTICE_NOT_FOUND = 'Notice not found';

/** dismissShiftNotice dismisses one of the signed-in person's notices; 404 when they have no such notice. */
export async function dismissShiftNotice(
  deps: { database: { db: Db }; clock: { now(): Date } },
  viewer: User,
  id: number,
): Promise<void> {
  if (!(await dismissNotice(deps.database.db, viewer.id, id, deps.clock.now()))) {
    throw notFound(SHIFT_NOTICE_NOT_FOUND);
  }
}
