import type { ShiftNotice } from '../../../shared/contracts/shift-changes';
import type { User } from '../../../shared/contracts/users';
import {
  DEFAULT_HANDOFF_TIMINGS,
  type HandoffFlowTimings,
} from '../../../shared/domain/handoff-flow';
import {
  changedShifts,
  currentChanges,
  digestDueAt,
  mergeShiftChanges,
  type PersonShift,
  projectionSpan,
  SHIFT_CHANGE_DELAY_MS,
  type ShiftChange,
  shiftChangeSentences,
  withCover,
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
  moveBaselineDue,
  takeOpenNotices,
} from './shift-change-repository';

/**
 * "Your shift moved" (issue 18, decisions 219 and 262). A change that may move a rotation's
 * upcoming shifts calls noteShiftChange at the start of its transaction: the first one keeps the
 * rotation's projection for the coming 8 weeks as a baseline, due 2 minutes later, and each
 * further one moves that to 2 minutes after it (10 minutes after the first at most). When it is
 * due, the engine compares it with the projection then and tells each person whose shifts
 * changed, once, by their channels, and with a notice on their dashboard that replaces their
 * earlier one about the rotation.
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
 * rotation's projection as the baseline, due SHIFT_CHANGE_DELAY_SECONDS (2 minutes) later; while
 * one waits, a change locks it (so the engine cannot tell it until this change commits, and tells
 * this change with it) and moves it to a quiet window after this change (`digestDueAt`,
 * decision 262). If the engine is telling the baseline now, the change waits for it and then
 * starts a new one.
 */
export async function noteShiftChange(
  tx: Tx,
  deps: ShiftChangeDeps,
  rotationId: number,
  now: Date,
): Promise<void> {
  const delayMs = deps.config?.shiftChangeDelayMs ?? SHIFT_CHANGE_DELAY_MS;
  const waiting = await lockBaseline(tx, rotationId);
  if (waiting) {
    const dueAt = digestDueAt(waiting.takenAt, now, delayMs);
    if (dueAt.getTime() !== waiting.dueAt.getTime()) await moveBaselineDue(tx, waiting.id, dueAt);
    return;
  }
  const shifts = await projectShifts(tx, deps, rotationId, now);
  await keepBaseline(tx, {
    rotationId,
    takenAt: now,
    dueAt: digestDueAt(now, now, delayMs),
    shifts: shifts.map(toStored),
  });
}

const spanOf = (s: { start: Date; end: Date } | undefined) =>
  s ? { start: s.start.toISOString(), end: s.end.toISOString() } : null;
const toStoredChange = (c: ShiftChange): StoredShiftChange => ({
  kind: c.kind,
  before: spanOf(c.kind === 'added' ? undefined : c.before),
  after: spanOf(c.kind === 'removed' ? undefined : c.after),
  ...(c.kind === 'removed' && c.coveredBy ? { coveredBy: [...c.coveredBy] } : {}),
});
const spanFrom = (s: { start: string; end: string } | null) =>
  s ? { start: new Date(s.start), end: new Date(s.end) } : null;
const fromStoredChange = (c: StoredShiftChange): ShiftChange => {
  const before = spanFrom(c.before);
  const after = spanFrom(c.after);
  if (c.kind === 'moved' && before && after) return { kind: 'moved', before, after };
  if (c.kind === 'removed' && before) {
    return { kind: 'removed', before, ...(c.coveredBy ? { coveredBy: c.coveredBy } : {}) };
  }
  return { kind: 'added', after: after ?? (before as { start: Date; end: Date }) };
};

/**
 * tellShiftChanges tells a rotation's due baseline, if this transaction can claim it (`skip
 * locked`: a change or another engine holds it, and the next tick tries again): each person whose
 * shifts changed gets one message by their channels (the event key names the baseline) and a
 * notice that replaces their open one about the rotation, the two lists of changes merged
 * (decision 262); then the baseline goes. Returns how many people were told.
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
  const found = changedShifts(baseline.shifts.map(fromStored), baseline.takenAt, after, now);
  const changes = new Map([...found].map(([id, list]) => [id, withCover(list, after, id)]));
  const coverIds = [...changes.values()].flatMap((list) =>
    list.flatMap((c) => (c.kind === 'removed' ? (c.coveredBy ?? []) : [])),
  );
  const people = await findUsers(tx, deps.cipher, [...changes.keys(), ...coverIds]);
  const told = [...changes].filter(([userId]) => people.has(userId));
  const eventKey = `shift-changes:${baseline.id}`;
  const rotation = { id: rotationId, name: baseline.rotationName };
  if (changes.size > 0) {
    // Each person hears of their own changes; the rotation's chat and webhook destinations hear
    // of it once per baseline, as `shift-moved` (decision 221).
    await announce(tx, deps, now, {
      type: 'shifts.changed',
      key: eventKey,
      at: now,
      told: told.map(([userId, list]) => ({
        person: people.get(userId) as User,
        as: 'to' as const,
        changes: list,
      })),
      rotation,
      peopleNames: [...changes.keys()].flatMap((id) => people.get(id)?.name ?? []),
      coverNames: new Map([...people].map(([id, person]) => [id, person.name])),
    });
  }
  await replaceNotices(tx, { rotationId, eventKey, after, now }, told);
  await deleteBaseline(tx, baseline.id);
  return told.length;
}

/**
 * replaceNotices records each told person's notice about the rotation in place of their open
 * ones: the changes those told, merged with these (`mergeShiftChanges`), each removed shift's
 * cover taken from the projection now. A person whose changes cancel out has no notice left.
 */
async function replaceNotices(
  tx: Tx,
  at: { rotationId: number; eventKey: string; after: PersonShift[]; now: Date },
  told: [number, ShiftChange[]][],
): Promise<void> {
  const open = await takeOpenNotices(
    tx,
    at.rotationId,
    told.map(([userId]) => userId),
  );
  const rows = told.flatMap(([userId, list]) => {
    const merged = open
      .filter((row) => row.userId === userId)
      .map((row) => row.changes.map(fromStoredChange))
      .reduceRight((newer, older) => mergeShiftChanges(older, newer, at.now), list);
    const changes = withCover(currentChanges(merged, at.now), at.after, userId);
    if (changes.length === 0) return [];
    return [
      {
        userId,
        rotationId: at.rotationId,
        eventKey: at.eventKey,
        changes: changes.map(toStoredChange),
        createdAt: at.now,
      },
    ];
  });
  await insertShiftNotices(tx, rows);
}

// ---------------------------------------------------------------------------------------------
// The person's notices

/**
 * listMyShiftNotices returns the signed-in person's notices not dismissed, one per rotation, in
 * words in their zone: changes whose shifts have all ended are left out, and a notice with none
 * left is not shown (decision 262). Older open notices about the same rotation (kept from before
 * notices replaced each other) are folded into the newest.
 */
export async function listMyShiftNotices(
  deps: { database: { db: Db }; clock: { now(): Date }; cipher: FieldCipher },
  viewer: User,
): Promise<ShiftNotice[]> {
  const timeZone = zoneOrUtc(viewer.timezone);
  const now = deps.clock.now();
  const rows = await listOpenNotices(deps.database.db, viewer.id);
  const newest = new Map<number, { row: (typeof rows)[number]; changes: ShiftChange[] }>();
  // Newest first: the first row of a rotation is its notice; older ones fold into it.
  for (const row of rows) {
    const changes = row.changes.map(fromStoredChange);
    const seen = newest.get(row.rotationId);
    if (seen) seen.changes = mergeShiftChanges(changes, seen.changes, now);
    else newest.set(row.rotationId, { row, changes: currentChanges(changes, now) });
  }
  const shown = [...newest.values()].filter((n) => n.changes.length > 0);
  const coverIds = shown.flatMap((n) =>
    n.changes.flatMap((c) => (c.kind === 'removed' ? (c.coveredBy ?? []) : [])),
  );
  const people = await findUsers(deps.database.db, deps.cipher, coverIds);
  const names = new Map([...people].map(([id, person]) => [id, person.name]));
  return shown.map(({ row, changes }) => ({
    id: row.id,
    rotation: { id: row.rotationId, name: row.rotationName },
    createdAt: row.createdAt.toISOString(),
    changes: changes.map(toStoredChange),
    ...shiftChangeSentences(changes, row.rotationName, timeZone, now, names),
    timeZone,
  }));
}

export const SHIFT_NOTICE_NOT_FOUND = 'Notice not found';

/**
 * dismissShiftNotice dismisses one of the signed-in person's notices (and older open ones about
 * its rotation, which the list folded into it); 404 when they have no such notice.
 */
export async function dismissShiftNotice(
  deps: { database: { db: Db }; clock: { now(): Date } },
  viewer: User,
  id: number,
): Promise<void> {
  const now = deps.clock.now();
  const found = await deps.database.db.transaction((tx) => dismissNotice(tx, viewer.id, id, now));
  if (!found) throw notFound(SHIFT_NOTICE_NOT_FOUND);
}
