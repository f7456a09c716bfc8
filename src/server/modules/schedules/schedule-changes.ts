import type {
  OccurrenceChange,
  ScheduleEntry,
  ScheduleEntryChange,
} from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import {
  firstOccurrenceAfter,
  generatedBefore,
  isOccurrenceOf,
  occurrencesOf,
} from '../../../shared/domain/occurrences';
import type { Tx } from '../../db/client';
import { seriesOf } from '../../db/entry-occurrences';
import { conflict, notFound } from '../../http/errors';
import {
  insertAuditEvent,
  lockRotationRow,
  type RotationRow,
} from '../rotations/rotation-repository';
import type { RotationDeps } from '../rotations/rotation-service';
import { noteShiftChange } from '../shift-changes/shift-changes';
import { coversNow, placeEntry, ruleOf, settleNextHandoff } from './schedule-placement';
import {
  findEntryRow,
  insertScheduleEntry,
  type ScheduleEntryRow,
  seriesCutTo,
  updateEntryRow,
} from './schedule-repository';
import { readEntry, SCHEDULE_ENTRY_NOT_FOUND } from './schedule-service';

/**
 * Changing a schedule entry as a whole, or one occurrence of a series (decision 250). Each change
 * is one transaction under the rotation's row lock, checked as an added entry is, and leaves the
 * rotation's next handoff where the engine will find it.
 */

const OCCURRENCE_NOT_FOUND = 'Occurrence not found';

/** lockedEntry reads an entry and locks its rotation (404 when either is gone). */
async function lockedEntry(
  tx: Tx,
  scheduleId: number,
): Promise<{ entry: ScheduleEntryRow; rotation: RotationRow }> {
  const found = await findEntryRow(tx, scheduleId);
  if (!found) throw notFound(SCHEDULE_ENTRY_NOT_FOUND);
  const rotation = await lockRotationRow(tx, found.rotationId);
  // Read again under the lock: deleted or changed meanwhile.
  const entry = rotation ? await findEntryRow(tx, scheduleId) : undefined;
  if (!rotation || !entry) throw notFound(SCHEDULE_ENTRY_NOT_FOUND);
  return { entry, rotation };
}

/** Whether any occurrence of the entry holds `now`. */
const holdsNow = (entry: ScheduleEntryRow, timeZone: string, now: Date) =>
  occurrencesOf(seriesOf(entry), timeZone, now, new Date(now.getTime() + 1)).length > 0;

/**
 * changeScheduleEntry changes a whole entry: its person, times or rule (a series' every
 * occurrence). A series already begun is split at now: it keeps the occurrences begun so far and
 * the change makes a new series from the first that has not (the answer is that one).
 */
export async function changeScheduleEntry(
  deps: RotationDeps,
  actor: User,
  scheduleId: number,
  change: ScheduleEntryChange,
): Promise<ScheduleEntry> {
  const { rotation, id } = await deps.database.db.transaction(async (tx) => {
    const { entry, rotation } = await lockedEntry(tx, scheduleId);
    const now = deps.clock.now();
    const tz = rotation.timeZone;
    const rule = ruleOf(entry);
    const wasHolding = holdsNow(entry, tz, now);
    await noteShiftChange(tx, deps, rotation.id, now);
    const begun = rule !== null && entry.startAt.getTime() <= now.getTime();
    let id = entry.id;
    if (!begun) {
      const startKept = change.startTime === undefined;
      const placed = await placeEntry(
        tx,
        rotation,
        {
          userId: change.userId ?? entry.userId,
          startAt: change.startTime ? new Date(change.startTime) : entry.startAt,
          endAt: change.endTime ? new Date(change.endTime) : entry.endAt,
          recurrence: change.recurrence === undefined ? rule : change.recurrence,
          takenOut: entry.takenOut,
        },
        now,
        { exceptId: entry.id, startKept },
      );
      await updateEntryRow(tx, entry.id, placed);
    } else {
      const series = seriesOf(entry);
      const next = firstOccurrenceAfter({ ...series, takenOut: [] }, tz, now, 'start');
      if (!next) throw conflict('This series has no occurrence left to change.');
      const kept = generatedBefore(series, tz, now, 'start');
      await updateEntryRow(tx, entry.id, seriesCutTo(entry, tz, kept));
      const startAt = change.startTime ? new Date(change.startTime) : next.start;
      const length = next.end.getTime() - next.start.getTime();
      let recurrence = change.recurrence === undefined ? rule : change.recurrence;
      if (change.recurrence === undefined && recurrence?.count !== undefined) {
        recurrence = { ...recurrence, count: recurrence.count - kept };
      }
      const placed = await placeEntry(
        tx,
        rotation,
        {
          userId: change.userId ?? entry.userId,
          startAt,
          endAt: change.endTime ? new Date(change.endTime) : new Date(startAt.getTime() + length),
          recurrence,
          takenOut: entry.takenOut.filter((s) => Date.parse(s) >= next.start.getTime()),
        },
        now,
      );
      id = (
        await insertScheduleEntry(tx, {
          rotationId: rotation.id,
          ...placed,
          createdById: actor.id,
          createdAt: now,
        })
      ).id;
    }
    const after = await findEntryRow(tx, id);
    const holding = after ? holdsNow(after, tz, now) : false;
    await settleNextHandoff(tx, rotation, now, wasHolding || holding);
    await insertAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'rotation.schedule_changed',
      rotationId: rotation.id,
      details: {
        scheduleEntryId: entry.id,
        ...(id === entry.id ? {} : { newScheduleEntryId: id }),
        changes: change,
      },
      at: now,
    });
    return { rotation, id };
  });
  return readEntry(deps, actor, rotation, id);
}

/** lockedOccurrence reads a series and one of its occurrences by start (404 when it has none there). */
async function lockedOccurrence(tx: Tx, scheduleId: number, start: Date) {
  const { entry, rotation } = await lockedEntry(tx, scheduleId);
  const series = seriesOf(entry);
  if (!series.recurrence || !isOccurrenceOf(series, rotation.timeZone, start)) {
    throw notFound(OCCURRENCE_NOT_FOUND);
  }
  const occurrence = firstOccurrenceAfter(
    series,
    rotation.timeZone,
    new Date(start.getTime() - 1),
    'start',
  );
  if (!occurrence) throw notFound(OCCURRENCE_NOT_FOUND);
  return { entry, rotation, occurrence };
}

/**
 * changeOccurrence changes one occurrence of a series: it is taken out of the series and a single
 * entry with the change takes its place (the answer).
 */
export async function changeOccurrence(
  deps: RotationDeps,
  actor: User,
  scheduleId: number,
  start: Date,
  change: OccurrenceChange,
): Promise<ScheduleEntry> {
  const { rotation, id } = await deps.database.db.transaction(async (tx) => {
    const { entry, rotation, occurrence } = await lockedOccurrence(tx, scheduleId, start);
    const now = deps.clock.now();
    await noteShiftChange(tx, deps, rotation.id, now);
    await updateEntryRow(tx, entry.id, {
      takenOut: [...entry.takenOut, occurrence.start.toISOString()],
    });
    const placed = await placeEntry(
      tx,
      rotation,
      {
        userId: change.userId ?? entry.userId,
        startAt: change.startTime ? new Date(change.startTime) : occurrence.start,
        endAt: change.endTime ? new Date(change.endTime) : occurrence.end,
        recurrence: null,
        takenOut: [],
      },
      now,
      { startKept: change.startTime === undefined },
    );
    const single = await insertScheduleEntry(tx, {
      rotationId: rotation.id,
      ...placed,
      createdById: actor.id,
      createdAt: now,
    });
    const nowChanged =
      coversNow(occurrence, now) || coversNow({ start: placed.startAt, end: placed.endAt }, now);
    await settleNextHandoff(tx, rotation, now, nowChanged);
    await insertAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'rotation.occurrence_changed',
      rotationId: rotation.id,
      details: {
        scheduleEntryId: entry.id,
        occurrenceStart: occurrence.start.toISOString(),
        newScheduleEntryId: single.id,
        userId: single.userId,
        startTime: single.startAt.toISOString(),
        endTime: single.endAt.toISOString(),
      },
      at: now,
    });
    return { rotation, id: single.id };
  });
  return readEntry(deps, actor, rotation, id);
}

/** deleteOccurrence takes one occurrence out of a series: a gap where it was. */
export async function deleteOccurrence(
  deps: RotationDeps,
  actor: User,
  scheduleId: number,
  start: Date,
): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const { entry, rotation, occurrence } = await lockedOccurrence(tx, scheduleId, start);
    const now = deps.clock.now();
    await noteShiftChange(tx, deps, rotation.id, now);
    await updateEntryRow(tx, entry.id, {
      takenOut: [...entry.takenOut, occurrence.start.toISOString()],
    });
    await settleNextHandoff(tx, rotation, now, coversNow(occurrence, now));
    await insertAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'rotation.occurrence_deleted',
      rotationId: rotation.id,
      details: {
        scheduleEntryId: entry.id,
        userId: entry.userId,
        startTime: occurrence.start.toISOString(),
        endTime: occurrence.end.toISOString(),
      },
      at: now,
    });
  });
}
