import type { Person, Rotation } from '../../../shared/contracts/rotations';
import {
  acknowledgementDeadline,
  awaitsAcknowledgement,
  backupAfter,
  type HandoffFlowTimings,
  handoffDue,
  isBoundaryHandedOff,
  notesAuthorId,
} from '../../../shared/domain/handoff-flow';
import { effectiveRoles } from '../../../shared/domain/roles';
import { canHoldBaton, nextOnCall, type TurnContext } from '../../../shared/domain/rotation';
import {
  isLayered,
  layeredHolderAt,
  layerReadsOf,
  patternInWords,
} from '../../../shared/domain/rotation-layers';
import { turnSpansAt } from '../../../shared/domain/shifts';
import type { AwayWindow } from '../../../shared/domain/time-off';
import type { BoundaryHandoff } from '../handoffs/handoff-repository';
import type { MemberWithPerson } from '../members/member-reads';
import type { ScheduleEntryRow } from '../schedules/schedule-repository';
import type { PersonReader } from '../users/person-reader';
import type { UserRow } from '../users/user-repository';
import type { LatestHandoffRow, RotationRow } from './rotation-repository';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const dueIso = (due: ReturnType<typeof handoffDue>) =>
  due
    ? {
        boundary: due.boundary.toISOString(),
        escalateAt: due.escalateAt.toISOString(),
        autoTransferAt: due.autoTransferAt.toISOString(),
      }
    : null;

/**
 * quotedNotes returns a handoff's notes and who wrote them, for the receiver's banner (decision
 * 187). A reassignment's notes are the manager's, whom the handoff does not record: no author.
 */
function quotedNotes(
  handoff: LatestHandoffRow,
  people: ReadonlyMap<number, Person>,
): { notes: string | null; notesBy: { id: number; name: string } | null } {
  const notes = handoff.notes?.trim() ? handoff.notes : null;
  const authorId = notes ? notesAuthorId(handoff) : null;
  const writer = authorId === null ? undefined : people.get(authorId);
  return { notes, notesBy: writer ? { id: writer.id, name: writer.name } : null };
}

/**
 * What a fixed rotation's next turn is read from besides its row (decisions 217 and 256): each rotation's
 * latest handoff that handles a boundary, and the members' time off.
 */
export interface TurnFacts {
  boundary: ReadonlyMap<number, BoundaryHandoff | null>;
  /** by rotation: its members' time off */
  timeOff: ReadonlyMap<number, readonly AwayWindow[]>;
}

/** turnContextOf returns what nextOnCall reads of a fixed rotation's next turn. */
function turnContextOf(
  row: RotationRow,
  facts: TurnFacts,
  timings: HandoffFlowTimings,
): TurnContext | undefined {
  if (row.type !== 'fixed' || !row.nextHandoffAt) return undefined;
  const latest = facts.boundary.get(row.id) ?? null;
  const pattern = {
    cadence: row.cadence as 'daily' | 'weekly',
    timeZone: row.timeZone,
    handoffTime: row.handoffTime,
    handoffWeekday: row.handoffWeekday,
  };
  const handled = isBoundaryHandedOff(row.nextHandoffAt, latest?.occurredAt ?? null, timings);
  return {
    shift: turnSpansAt(pattern, row.nextHandoffAt, handled).shift,
    turnUserId: row.turnUserId,
    timeOff: facts.timeOff.get(row.id) ?? [],
  };
}

/** What toRotations reads of the handoffs: each rotation's latest, the timings, the turns. */
interface HandoffState {
  latest: ReadonlyMap<number, LatestHandoffRow | null>;
  timings: HandoffFlowTimings;
  turns?: TurnFacts;
}

/** A rotation's next schedule entry, with the person it names. */
type NextEntry = { entry: ScheduleEntryRow; user: UserRow };

/**
 * toRotations assembles API rotations from their rows, their members and, for scheduled
 * rotations, the next schedule entry of each: no query per rotation. With `turns`, a fixed
 * rotation's next on call goes round time off (decision 217).
 */
export function toRotations(
  rows: RotationRow[],
  members: MemberWithPerson[],
  nextEntries: NextEntry[],
  readPerson: PersonReader,
  now: Date,
  handoffState: HandoffState,
): Rotation[] {
  const membersByRotation = new Map<number, MemberWithPerson[]>();
  for (const m of members) {
    const list = membersByRotation.get(m.member.rotationId) ?? [];
    list.push(m);
    membersByRotation.set(m.member.rotationId, list);
  }
  const nextByRotation = new Map(nextEntries.map((n) => [n.entry.rotationId, n]));

  return rows.map((row) => {
    const own = (membersByRotation.get(row.id) ?? []).sort(
      (a, b) => a.member.order - b.member.order,
    );
    const next = nextByRotation.get(row.id);
    const people = new Map<number, Person>();
    for (const m of own) people.set(m.user.id, readPerson(m.user));
    if (next) people.set(next.user.id, readPerson(next.user));

    const type = row.type as Rotation['type'];
    const layered = isLayered(row);
    const memberIds = own.map((m) => m.member.userId);
    const nextUserId = layered
      ? layeredNextUserIdOf(row, own)
      : nextUserIdOf(row, own, next, now, handoffState);
    const holder = row.holderUserId === null ? null : (people.get(row.holderUserId) ?? null);
    const latest = handoffState.latest.get(row.id) ?? null;
    const backup = backupAfter(latest, row.holderUserId, now, handoffState.timings);
    const backupPerson = backup ? (people.get(backup.userId) ?? null) : null;
    const unacknowledged =
      latest &&
      latest.acknowledgedAt === null &&
      latest.toUserId !== null &&
      latest.toUserId === row.holderUserId &&
      awaitsAcknowledgement(latest.kind)
        ? latest
        : null;
    // A scheduled rotation's next handoff is when the next entry starts; a fixed one's is its
    // next shift boundary; a layered one's the next change of its layers (the stored instant).
    const nextHandoff = type === 'scheduled' ? (next?.entry.startAt ?? null) : row.nextHandoffAt;
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      cadence: row.cadence as Rotation['cadence'],
      cadenceEvery: row.cadenceEvery,
      layers: layerReadsOf(row, memberIds),
      layered,
      pattern: patternInWords(row, memberIds),
      type,
      suspended: row.suspended,
      timeZone: row.timeZone,
      handoffTime: row.handoffTime,
      handoffWeekday: row.handoffWeekday,
      members: own.map((m) => ({
        id: m.member.id,
        userId: m.member.userId,
        order: m.member.order,
        user: readPerson(m.user),
      })),
      currentOnCallUserId: holder ? row.holderUserId : null,
      currentOnCall: holder,
      holderSince: holder ? iso(row.holderSince) : null,
      nextOnCall: nextUserId === null ? null : (people.get(nextUserId) ?? null),
      nextHandoffTime: row.suspended ? null : iso(nextHandoff),
      createdById: row.createdById,
      escalationPolicyId: row.escalationPolicyId,
      unacknowledgedHandoff: unacknowledged
        ? unacknowledgedHandoffOf(unacknowledged, people, handoffState.timings)
        : null,
      handoffDue: dueIso(
        handoffDue(
          {
            // A layered rotation's baton moves by the clock, as a scheduled one's: no boundary
            // waits for its holder to pass it.
            type: layered ? 'scheduled' : type,
            suspended: row.suspended,
            holderUserId: holder ? row.holderUserId : null,
            nextHandoffAt: row.nextHandoffAt,
          },
          latest,
          now,
          handoffState.timings,
        ),
      ),
      // Only a member still in the rotation can stand by as backup.
      backupUserId: backupPerson ? backup?.userId : null,
      backupOnCall: backupPerson,
      backupUntil: backupPerson && backup?.until ? backup.until.toISOString() : null,
    };
  });
}

/**
 * layeredNextUserIdOf: who a layered rotation's layers name at its next change (its stored next
 * handoff), if that is somebody else; null while suspended or when nobody comes.
 */
function layeredNextUserIdOf(row: RotationRow, own: MemberWithPerson[]): number | null {
  if (row.suspended || !row.nextHandoffAt) return null;
  const eligible = new Set(
    own
      .filter((m) => canHoldBaton(effectiveRoles(m.user.roles, m.user.role)))
      .map((m) => m.member.userId),
  );
  const next = layeredHolderAt(row, eligible, row.nextHandoffAt);
  return next === row.holderUserId ? null : next;
}

/** nextUserIdOf: who comes next on a rotation, by the engine's rule. */
function nextUserIdOf(
  row: RotationRow,
  own: MemberWithPerson[],
  next: NextEntry | undefined,
  now: Date,
  handoffState: HandoffState,
): number | null {
  const type = row.type as Rotation['type'];
  return nextOnCall(
    {
      type,
      suspended: row.suspended,
      currentOnCallUserId: row.holderUserId,
      // Only members who may hold the baton come next, the engine's rule (fixed-rotations.ts):
      // a member whose roles changed after joining stays listed but is passed over.
      members: own
        .filter((m) => canHoldBaton(effectiveRoles(m.user.roles, m.user.role)))
        .map((m) => ({ userId: m.member.userId, order: m.member.order })),
      schedule: next
        ? [
            {
              userId: next.entry.userId,
              startTime: next.entry.startAt,
              endTime: next.entry.endAt,
            },
          ]
        : [],
      turn: handoffState.turns
        ? turnContextOf(row, handoffState.turns, handoffState.timings)
        : undefined,
    },
    now,
  );
}

/** unacknowledgedHandoffOf: the handoff the holder has not acknowledged yet, as the API shows it. */
function unacknowledgedHandoffOf(
  unacknowledged: LatestHandoffRow,
  people: ReadonlyMap<number, Person>,
  timings: HandoffFlowTimings,
): NonNullable<Rotation['unacknowledgedHandoff']> {
  return {
    id: unacknowledged.id,
    kind: unacknowledged.kind,
    status: unacknowledged.status,
    fromUserId: unacknowledged.fromUserId,
    toUserId: unacknowledged.toUserId as number,
    urgent: unacknowledged.urgent,
    occurredAt: unacknowledged.occurredAt.toISOString(),
    acknowledgeBy: acknowledgementDeadline(unacknowledged.occurredAt, timings).toISOString(),
    ...quotedNotes(unacknowledged, people),
  };
}

/**
 * rotationsChangeAt returns the first instant after `now` at which toRotations, given the rows
 * read at `now`, could answer differently by the passing of time alone, or null when none lies
 * ahead. The answer reads `now` in three places: a fixed rotation's boundary coming due
 * (handoffDue), a backup window ending (backupAfter), and a scheduled rotation's next entry
 * starting (nextOnCall, the next handoff time, and which entry the read finds next). A new use
 * of `now` in toRotations belongs here too; the read cache trusts this (decision 140).
 */
export function rotationsChangeAt(
  rows: readonly RotationRow[],
  nextEntries: readonly { entry: ScheduleEntryRow }[],
  latest: ReadonlyMap<number, LatestHandoffRow | null>,
  now: Date,
  timings: HandoffFlowTimings,
): Date | null {
  const at = now.getTime();
  let first = Number.POSITIVE_INFINITY;
  const consider = (instant: number | undefined) => {
    if (instant !== undefined && instant > at && instant < first) first = instant;
  };
  for (const row of rows) {
    consider(row.nextHandoffAt?.getTime());
    const handoff = latest.get(row.id);
    if (handoff) consider(handoff.occurredAt.getTime() + timings.backupMs);
  }
  for (const { entry } of nextEntries) consider(entry.startAt.getTime());
  return Number.isFinite(first) ? new Date(first) : null;
}
