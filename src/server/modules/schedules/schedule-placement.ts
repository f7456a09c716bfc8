import { ErrorCodes } from '../../../shared/contracts/errors';
import { type ScheduleEntry, UPCOMING_OCCURRENCES } from '../../../shared/contracts/rotations';
import {
  firstOccurrenceAfter,
  occurrencesOf,
  type SeriesEntry,
  seriesEndOf,
  seriesInWords,
} from '../../../shared/domain/occurrences';
import {
  type Recurrence,
  readRecurrenceRule,
  recurrenceRule,
  shortestRepeatMinutes,
} from '../../../shared/domain/recurrence';
import { effectiveRoles } from '../../../shared/domain/roles';
import { scheduleEntryRefusal } from '../../../shared/domain/rotation';
import { wallMinuteOf, wallTimeOf } from '../../../shared/domain/shifts';
import type { Tx } from '../../db/client';
import { seriesOf } from '../../db/entry-occurrences';
import { AppError } from '../../http/errors';
import { listMembersWithRoles } from '../members/member-reads';
import { type RotationRow, updateRotationRow } from '../rotations/rotation-repository';
import { refusalError } from '../rotations/rotation-service';
import type { PersonReader } from '../users/person-reader';
import {
  type EntryWithUser,
  listOccurrencesOverlapping,
  nextTransitionAfter,
  type ScheduleEntryRow,
} from './schedule-repository';

/**
 * Placing a schedule entry (decision 250): what adding, changing a series and changing one
 * occurrence share. A series is checked by its occurrences up to OVERLAP_HORIZON_MS past its
 * first start; no occurrence may overlap the next one of its own series.
 */

const DAY = 86_400_000;
/** How far past its first start a series' occurrences are checked against the other entries. */
export const OVERLAP_HORIZON_MS = 366 * DAY;

/** A bad field: a 400 naming it. */
export const fieldError = (field: string, message: string) =>
  new AppError(ErrorCodes.VALIDATION_FAILED, message, { [field]: message });

/** toScheduleEntry answers an entry: a series with its rule, its words and its coming occurrences. */
export function toScheduleEntry(
  { entry, user }: EntryWithUser,
  readPerson: PersonReader,
  timeZone: string,
  now: Date,
): ScheduleEntry {
  const answer: ScheduleEntry = {
    id: entry.id,
    rotationId: entry.rotationId,
    userId: entry.userId,
    user: readPerson(user),
    startTime: entry.startAt.toISOString(),
    endTime: entry.endAt.toISOString(),
  };
  if (entry.recurrence === null) return answer;
  const series = seriesOf(entry);
  const coming: { startTime: string; endTime: string }[] = [];
  let after = new Date(now.getTime());
  while (coming.length < UPCOMING_OCCURRENCES) {
    const o = firstOccurrenceAfter(series, timeZone, after, 'end');
    if (!o) break;
    coming.push({ startTime: o.start.toISOString(), endTime: o.end.toISOString() });
    after = o.end;
  }
  return {
    ...answer,
    recurrence: series.recurrence ?? undefined,
    repeats: seriesInWords(series, timeZone) ?? undefined,
    occurrences: coming,
  };
}

/** An entry as it is about to be stored. */
export interface Placement {
  userId: number;
  startAt: Date;
  endAt: Date;
  recurrence: Recurrence | null;
  takenOut: string[];
}

/** What is stored for a placement. */
export type PlacedValues = Pick<
  ScheduleEntryRow,
  'userId' | 'startAt' | 'endAt' | 'recurrence' | 'seriesEndAt' | 'takenOut'
>;

/**
 * placeEntry checks an entry about to be stored in a locked rotation and answers its stored
 * values: a member who can hold the baton, a start now or later (unless `startKept`: an entry in
 * progress whose start does not change), a series whose occurrences do not overlap one another
 * and that has at least one, its start moved to its first occurrence, and no overlap with the
 * rotation's other entries (but `exceptId`).
 */
export async function placeEntry(
  tx: Tx,
  rotation: RotationRow,
  p: Placement,
  now: Date,
  options: { exceptId?: number; startKept?: boolean } = {},
): Promise<PlacedValues> {
  let { startAt, endAt } = p;
  const series: SeriesEntry = {
    userId: p.userId,
    start: startAt,
    end: endAt,
    recurrence: p.recurrence,
    takenOut: p.takenOut,
  };
  if (p.recurrence) {
    const wallLength =
      wallMinuteOf(wallTimeOf(endAt, rotation.timeZone)) -
      wallMinuteOf(wallTimeOf(startAt, rotation.timeZone));
    if (wallLength > shortestRepeatMinutes(p.recurrence)) {
      throw fieldError('endTime', 'A repeating entry must end before its next occurrence starts.');
    }
    const first = firstOccurrenceAfter(
      { ...series, takenOut: [] },
      rotation.timeZone,
      new Date(startAt.getTime() - 1),
      'start',
    );
    if (!first) {
      throw fieldError('recurrence.until', 'The series ends before its first occurrence.');
    }
    startAt = first.start;
    endAt = first.end;
  }
  const placed = { ...series, start: startAt, end: endAt };
  const seriesEndAt = p.recurrence ? seriesEndOf(placed, rotation.timeZone) : null;
  const horizon = new Date(
    Math.min(
      seriesEndAt?.getTime() ?? Number.POSITIVE_INFINITY,
      startAt.getTime() + OVERLAP_HORIZON_MS,
    ),
  );
  const mine = p.recurrence
    ? occurrencesOf(placed, rotation.timeZone, startAt, horizon)
    : [{ userId: p.userId, start: startAt, end: endAt }];
  const spanEnd = new Date(Math.max(endAt.getTime(), ...mine.map((o) => o.end.getTime())));
  const others = await listOccurrencesOverlapping(tx, rotation, startAt, spanEnd, options.exceptId);
  const members = await listMembersWithRoles(tx, rotation.id);
  const member = members.find((m) => m.member.userId === p.userId);
  const refusal = scheduleEntryRefusal(
    {
      type: rotation.type as 'fixed' | 'scheduled',
      suspended: rotation.suspended,
      currentOnCallUserId: rotation.holderUserId,
      members: members.map((m) => ({ userId: m.member.userId, order: m.member.order })),
    },
    {
      userId: p.userId,
      startTime: startAt,
      endTime: endAt,
      roles: member ? effectiveRoles(member.roles, member.role) : undefined,
      occurrences: mine.map((o) => ({ userId: o.userId, startTime: o.start, endTime: o.end })),
    },
    others.map((e) => ({ userId: e.userId, startTime: e.startAt, endTime: e.endAt })),
    options.startKept ? new Date(Math.min(now.getTime(), startAt.getTime())) : now,
  );
  if (refusal) throw refusalError(refusal);
  return {
    userId: p.userId,
    startAt,
    endAt,
    recurrence: p.recurrence ? recurrenceRule(p.recurrence) : null,
    seriesEndAt,
    takenOut: p.takenOut,
  };
}

/** ruleOf reads a stored entry's rule, or null for a single entry. */
export const ruleOf = (row: ScheduleEntryRow): Recurrence | null =>
  row.recurrence === null ? null : readRecurrenceRule(row.recurrence);

/**
 * settleNextHandoff stores a scheduled rotation's next handoff after its schedule changed: now,
 * when what names the holder at this instant changed (the engine applies it at its next tick);
 * otherwise the next remaining change. A handoff already due is kept.
 */
export async function settleNextHandoff(
  tx: Tx,
  rotation: RotationRow,
  now: Date,
  nowChanged: boolean,
): Promise<void> {
  if (rotation.type !== 'scheduled' || rotation.suspended) return;
  const pending = rotation.nextHandoffAt;
  const kept = pending && pending.getTime() <= now.getTime() ? pending : null;
  const next = nowChanged ? now : await nextTransitionAfter(tx, rotation, now);
  await updateRotationRow(tx, rotation.id, { nextHandoffAt: kept ?? next }, now);
}

/** coversNow tells whether a window holds `now` (start ≤ now < end). */
export const coversNow = (w: { start: Date; end: Date }, now: Date) =>
  w.start.getTime() <= now.getTime() && now.getTime() < w.end.getTime();
