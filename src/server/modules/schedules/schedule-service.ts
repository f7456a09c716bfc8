import type { ScheduleEntry, ScheduleEntryInput } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { effectiveRoles } from '../../../shared/domain/roles';
import { scheduleEntryRefusal } from '../../../shared/domain/rotation';
import { notFound } from '../../http/errors';
import { listMembersWithRoles } from '../members/member-reads';
import {
  findRotationRow,
  insertAuditEvent,
  lockRotationRow,
  updateRotationRow,
} from '../rotations/rotation-repository';
import { ROTATION_NOT_FOUND, type RotationDeps, refusalError } from '../rotations/rotation-service';
import { noteShiftChange } from '../shift-changes/shift-changes';
import { type PersonReader, personReader } from '../users/person-reader';
import {
  deleteEntryRow,
  type EntryWithUser,
  findCurrentEntry,
  findEntryRow,
  insertScheduleEntry,
  listEntriesWithUsers,
  listOverlappingEntries,
  nextTransitionAfter,
} from './schedule-repository';

const SCHEDULE_ENTRY_NOT_FOUND = 'Schedule entry not found';

function toScheduleEntry({ entry, user }: EntryWithUser, readPerson: PersonReader): ScheduleEntry {
  return {
    id: entry.id,
    rotationId: entry.rotationId,
    userId: entry.userId,
    user: readPerson(user),
    startTime: entry.startAt.toISOString(),
    endTime: entry.endAt.toISOString(),
  };
}

async function requireRotation(deps: RotationDeps, rotationId: number): Promise<void> {
  if (!(await findRotationRow(deps.database.db, rotationId))) throw notFound(ROTATION_NOT_FOUND);
}

/** listSchedule returns a rotation's schedule entries, earliest first (404 for no rotation). */
export async function listSchedule(
  deps: RotationDeps,
  viewer: User,
  rotationId: number,
): Promise<ScheduleEntry[]> {
  await requireRotation(deps, rotationId);
  const readPerson = personReader(deps.cipher, [viewer]);
  const rows = await listEntriesWithUsers(deps.database.db, rotationId);
  return rows.map((r) => toScheduleEntry(r, readPerson));
}

/** currentScheduleEntry returns the entry covering now, or null. */
export async function currentScheduleEntry(
  deps: RotationDeps,
  viewer: User,
  rotationId: number,
): Promise<ScheduleEntry | null> {
  await requireRotation(deps, rotationId);
  const row = await findCurrentEntry(deps.database.db, rotationId, deps.clock.now());
  return row ? toScheduleEntry(row, personReader(deps.cipher, [viewer])) : null;
}

/**
 * addScheduleEntry adds a window for a member: it starts now or later, ends after it starts and
 * overlaps no other entry of the rotation. The rotation row is locked so two overlapping entries
 * cannot both pass the check.
 */
export async function addScheduleEntry(
  deps: RotationDeps,
  actor: User,
  rotationId: number,
  input: ScheduleEntryInput,
): Promise<ScheduleEntry> {
  const startAt = new Date(input.startTime);
  const endAt = new Date(input.endTime);
  const created = await deps.database.db.transaction(async (tx) => {
    const rotation = await lockRotationRow(tx, rotationId);
    if (!rotation) throw notFound(ROTATION_NOT_FOUND);
    const now = deps.clock.now();
    const members = await listMembersWithRoles(tx, rotationId);
    const member = members.find((m) => m.member.userId === input.userId);
    const overlapping = await listOverlappingEntries(tx, rotationId, startAt, endAt);
    const refusal = scheduleEntryRefusal(
      {
        type: rotation.type as 'fixed' | 'scheduled',
        suspended: rotation.suspended,
        currentOnCallUserId: rotation.holderUserId,
        members: members.map((m) => ({ userId: m.member.userId, order: m.member.order })),
      },
      {
        userId: input.userId,
        startTime: startAt,
        endTime: endAt,
        roles: member ? effectiveRoles(member.roles, member.role) : undefined,
      },
      overlapping.map((e) => ({ userId: e.userId, startTime: e.startAt, endTime: e.endAt })),
      now,
    );
    if (refusal) throw refusalError(refusal);
    await noteShiftChange(tx, deps, rotationId, now);
    const entry = await insertScheduleEntry(tx, {
      rotationId,
      userId: input.userId,
      startAt,
      endAt,
      createdById: actor.id,
      createdAt: now,
    });
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
      },
      at: now,
    });
    return entry;
  });
  const rows = await listEntriesWithUsers(deps.database.db, rotationId);
  const row = rows.find((r) => r.entry.id === created.id);
  if (!row) throw notFound(SCHEDULE_ENTRY_NOT_FOUND);
  return toScheduleEntry(row, personReader(deps.cipher, [actor]));
}

/** deleteScheduleEntry deletes one schedule entry (404 when there is none). */
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
    if (!(await deleteEntryRow(tx, entry.rotationId, scheduleId))) {
      throw notFound(SCHEDULE_ENTRY_NOT_FOUND);
    }
    const now = deps.clock.now();
    if (rotation.type === 'scheduled' && !rotation.suspended) {
      // Deleting the entry that covers now ends it now (the engine applies the gap or the next
      // entry at its next tick); otherwise the next handoff is the next remaining change.
      const covering =
        entry.startAt.getTime() <= now.getTime() && now.getTime() < entry.endAt.getTime();
      const pending = rotation.nextHandoffAt;
      const next = covering ? now : await nextTransitionAfter(tx, entry.rotationId, now);
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
