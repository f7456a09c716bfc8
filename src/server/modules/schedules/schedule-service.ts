import type { ScheduleEntry, ScheduleEntryInput } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { notFound } from '../../http/errors';
import {
  findRotationRow,
  insertAuditEvent,
  lockRotationRow,
  type RotationRow,
  updateRotationRow,
} from '../rotations/rotation-repository';
import { ROTATION_NOT_FOUND, type RotationDeps } from '../rotations/rotation-service';
import { noteShiftChange } from '../shift-changes/shift-changes';
import { personReader } from '../users/person-reader';
import { placeEntry, toScheduleEntry } from './schedule-placement';
import {
  deleteEntryRow,
  findCurrentEntry,
  findEntryRow,
  insertScheduleEntry,
  listEntriesWithUsers,
  nextTransitionAfter,
} from './schedule-repository';

export const SCHEDULE_ENTRY_NOT_FOUND = 'Schedule entry not found';

async function requireRotation(deps: RotationDeps, rotationId: number): Promise<RotationRow> {
  const row = await findRotationRow(deps.database.db, rotationId);
  if (!row) throw notFound(ROTATION_NOT_FOUND);
  return row;
}

/** listSchedule returns a rotation's schedule entries, earliest first (404 for no rotation). */
export async function listSchedule(
  deps: RotationDeps,
  viewer: User,
  rotationId: number,
): Promise<ScheduleEntry[]> {
  const rotation = await requireRotation(deps, rotationId);
  const readPerson = personReader(deps.cipher, [viewer]);
  const rows = await listEntriesWithUsers(deps.database.db, rotationId);
  const now = deps.clock.now();
  return rows.map((r) => toScheduleEntry(r, readPerson, rotation.timeZone, now));
}

/** currentScheduleEntry returns the entry whose occurrence covers now (with its times), or null. */
export async function currentScheduleEntry(
  deps: RotationDeps,
  viewer: User,
  rotationId: number,
): Promise<ScheduleEntry | null> {
  const rotation = await requireRotation(deps, rotationId);
  const now = deps.clock.now();
  const row = await findCurrentEntry(deps.database.db, rotationId, rotation.timeZone, now);
  if (!row) return null;
  const answer = toScheduleEntry(row, personReader(deps.cipher, [viewer]), rotation.timeZone, now);
  // The occurrence's own times, not the series' first.
  return {
    ...answer,
    startTime: row.entry.startAt.toISOString(),
    endTime: row.entry.endAt.toISOString(),
  };
}

/** readEntry answers one stored entry as the API shows it. */
export async function readEntry(
  deps: RotationDeps,
  viewer: User,
  rotation: RotationRow,
  id: number,
): Promise<ScheduleEntry> {
  const rows = await listEntriesWithUsers(deps.database.db, rotation.id);
  const row = rows.find((r) => r.entry.id === id);
  if (!row) throw notFound(SCHEDULE_ENTRY_NOT_FOUND);
  return toScheduleEntry(
    row,
    personReader(deps.cipher, [viewer]),
    rotation.timeZone,
    deps.clock.now(),
  );
}

/**
 * addScheduleEntry adds a window for a member, or a series of them (decision 250): it starts now
 * or later, ends after it starts and overlaps no other entry of the rotation. The rotation row is
 * locked so two overlapping entries cannot both pass the check.
 */
export async function addScheduleEntry(
  deps: RotationDeps,
  actor: User,
  rotationId: number,
  input: ScheduleEntryInput,
): Promise<ScheduleEntry> {
  const { rotation, created } = await deps.database.db.transaction(async (tx) => {
    const rotation = await lockRotationRow(tx, rotationId);
    if (!rotation) throw notFound(ROTATION_NOT_FOUND);
    const now = deps.clock.now();
    const placed = await placeEntry(
      tx,
      rotation,
      {
        userId: input.userId,
        startAt: new Date(input.startTime),
        endAt: new Date(input.endTime),
        recurrence: input.recurrence ?? null,
        takenOut: [],
      },
      now,
    );
    await noteShiftChange(tx, deps, rotationId, now);
    const entry = await insertScheduleEntry(tx, {
      rotationId,
      ...placed,
      createdById: actor.id,
      createdAt: now,
    });
    const { startAt, endAt } = placed;
    // The engine hands a scheduled rotation's baton over at each entry's start and end, from
    // its stored next handoff on: bring that forward to this entry's start if it is earlier.
    if (rotation.type === 'scheduled' && !rotation.suspended) {
      const pending = rotation.nextHandoffAt;
      if (!pending || startAt.getTime() < pending.getTime()) {
        await updateRotationRow(tx, rotationId, { nextHandoffAt: startAt }, now);
      }
    }
    await insertAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'rotation.schedule_added',
      rotationId,
      details: {
        scheduleEntryId: entry.id,
        userId: entry.userId,
        startTime: startAt.toISOString(),
        endTime: endAt.toISOString(),
        ...(placed.recurrence ? { recurrence: placed.recurrence } : {}),
      },
      at: now,
    });
    return { rotation, created: entry };
  });
  return readEntry(deps, actor, rotation, created.id);
}

/** deleteScheduleEntry deletes one schedule entry, every occurrence of a series (404 when there is none). */
export async function deleteScheduleEntry(
  deps: RotationDeps,
  actor: User,
  scheduleId: number,
): Promise<void> {
  const entry = await findEntryRow(deps.database.db, scheduleId);
  if (!entry) throw notFound(SCHEDULE_ENTRY_NOT_FOUND);
  await deps.database.db.transaction(async (tx) => {
    const rotation = await lockRotationRow(tx, entry.rotationId);
    if (!rotation) throw notFound(SCHEDULE_ENTRY_NOT_FOUND);
    await noteShiftChange(tx, deps, entry.rotationId, deps.clock.now());
    const now = deps.clock.now();
    // Whether one of its occurrences covers now, read before it goes.
    const covering = (await findCurrentEntry(tx, rotation.id, rotation.timeZone, now))?.entry;
    if (!(await deleteEntryRow(tx, entry.rotationId, scheduleId))) {
      throw notFound(SCHEDULE_ENTRY_NOT_FOUND);
    }
    if (rotation.type === 'scheduled' && !rotation.suspended) {
      // Deleting the entry that covers now ends it now (the engine applies the gap or the next
      // entry at its next tick); otherwise the next handoff is the next remaining change.
      const pending = rotation.nextHandoffAt;
      const next = covering?.id === scheduleId ? now : await nextTransitionAfter(tx, rotation, now);
      const kept = pending && pending.getTime() <= now.getTime() ? pending : null;
      await updateRotationRow(tx, entry.rotationId, { nextHandoffAt: kept ?? next }, now);
    }
    await insertAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'rotation.schedule_deleted',
      rotationId: entry.rotationId,
      details: {
        scheduleEntryId: entry.id,
        userId: entry.userId,
        startTime: entry.startAt.toISOString(),
        endTime: entry.endAt.toISOString(),
      },
      at: deps.clock.now(),
    });
  });
}
