import { describe, expect, test } from 'vitest';
import type { Person } from '../../../shared/contracts/rotations';
import { DEFAULT_HANDOFF_TIMINGS } from '../../../shared/domain/handoff-flow';
import type { MemberWithUser } from '../members/member-reads';
import type { ScheduleEntryRow } from '../schedules/schedule-repository';
import type { PersonRow, UserRow } from '../users/user-repository';
import type { LatestHandoffRow, RotationRow } from './rotation-repository';
import { rotationsChangeAt, toRotations } from './rotation-view';

const T = Date.parse('2026-11-02T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const timings = DEFAULT_HANDOFF_TIMINGS;
const at = (ms: number) => new Date(ms);

const userRow = (id: number) => ({ id }) as UserRow;
const readPerson = (row: PersonRow): Person => ({
  id: row.id,
  name: `Person ${row.id}`,
  email: `person${row.id}@example.com`,
  phone: null,
});

function rotationRow(id: number, values: Partial<RotationRow>): RotationRow {
  return {
    id,
    name: `Rotation ${id}`,
    description: null,
    cadence: 'weekly',
    type: 'fixed',
    suspended: false,
    holderUserId: 1,
    turnUserId: 1,
    holderSince: at(T - HOUR),
    nextHandoffAt: null,
    timeZone: 'UTC',
    handoffTime: '09:00',
    handoffWeekday: 1,
    cadenceEvery: 1,
    layers: null,
    createdById: null,
    escalationPolicyId: id,
    createdAt: at(T - 30 * 24 * HOUR),
    updatedAt: at(T - HOUR),
    ...values,
  };
}

function handoff(id: number, values: Partial<LatestHandoffRow>): LatestHandoffRow {
  return {
    id,
    fromUserId: 3,
    toUserId: 1,
    kind: 'pass',
    status: 'success',
    urgent: false,
    notes: null,
    occurredAt: at(T - 5 * MINUTE),
    acknowledgedAt: null,
    ...values,
  };
}

/**
 * An organisation whose answer changes with time in every way the view knows: a boundary coming
 * due, backup windows ending (and one that waits for an acknowledgement), schedule entries
 * starting, on an active and on a suspended scheduled rotation.
 */
const rows: RotationRow[] = [
  rotationRow(1, { nextHandoffAt: at(T + 2 * HOUR) }),
  rotationRow(2, { nextHandoffAt: at(T + 30 * MINUTE) }),
  rotationRow(3, { type: 'scheduled', nextHandoffAt: at(T) }),
  rotationRow(4, { type: 'scheduled', suspended: true, nextHandoffAt: null }),
  rotationRow(5, { nextHandoffAt: at(T - 10 * MINUTE) }),
];
const latest = new Map<number, LatestHandoffRow | null>([
  [1, handoff(11, { occurredAt: at(T - 5 * MINUTE) })],
  [2, handoff(12, { urgent: true, occurredAt: at(T - 20 * MINUTE) })],
  [3, handoff(13, { kind: 'schedule', occurredAt: at(T - 14 * MINUTE) })],
  [4, null],
  [5, handoff(15, { occurredAt: at(T - 2 * 24 * HOUR) })],
]);
const members: MemberWithUser[] = rows.flatMap((row) =>
  [1, 2, 3].map((userId, order) => ({
    member: {
      id: row.id * 10 + order,
      rotationId: row.id,
      userId,
      order,
      createdAt: at(T - 30 * 24 * HOUR),
    },
    user: userRow(userId),
  })),
);
const entries: ScheduleEntryRow[] = [
  [3, 2, T + HOUR, T + 3 * HOUR],
  [3, 3, T + 3 * HOUR, T + 5 * HOUR],
  [4, 3, T + 90 * MINUTE, T + 4 * HOUR],
].map(([rotationId, userId, start, end], i) => ({
  id: i + 1,
  rotationId,
  userId,
  startAt: at(start),
  endAt: at(end),
  recurrence: null,
  seriesEndAt: null,
  takenOut: [],
  createdById: null,
  createdAt: at(T - HOUR),
}));

/** The schedule read as listNextScheduleEntries does it: per rotation, the first entry after now. */
function nextEntriesAt(now: number) {
  const next = new Map<number, ScheduleEntryRow>();
  for (const entry of entries) {
    const start = entry.startAt.getTime();
    const best = next.get(entry.rotationId);
    if (start > now && (!best || start < best.startAt.getTime())) next.set(entry.rotationId, entry);
  }
  return [...next.values()].map((entry) => ({ entry, user: userRow(entry.userId) }));
}

const viewAt = (now: number) =>
  JSON.stringify(
    toRotations(rows, members, nextEntriesAt(now), readPerson, at(now), { latest, timings }),
  );

const changeAt = (now: number) =>
  rotationsChangeAt(rows, nextEntriesAt(now), latest, at(now), timings)?.getTime() ?? null;

describe('rotationsChangeAt', () => {
  test('the answer is the same at every instant before the change it names', () => {
    let now = T;
    const visited: number[] = [];
    for (let step = 0; step < 20; step++) {
      const change = changeAt(now);
      if (change === null) break;
      expect(change).toBeGreaterThan(now);
      const answer = viewAt(now);
      for (const instant of [now + 1, Math.floor((now + change) / 2), change - 1]) {
        expect(viewAt(instant), `at ${new Date(instant).toISOString()}`).toBe(answer);
      }
      visited.push(change);
      now = change;
    }
    // Every instant the organisation holds: backup ends, entries start, the boundary comes due.
    expect(visited.map((ms) => (ms - T) / MINUTE)).toEqual([1, 10, 30, 60, 90, 120, 180]);
    expect(changeAt(now)).toBeNull();
  });

  test('the instants it names are ones at which the answer does change', () => {
    // The backup window of rotation 3 (14 minutes ago) ends in one minute, rotation 1's in ten;
    // rotation 2's boundary comes due; the first schedule entries start; rotation 1's boundary.
    for (const minutes of [1, 10, 30, 60, 90, 120]) {
      const instant = T + minutes * MINUTE;
      expect(viewAt(instant), `at +${minutes} min`).not.toBe(viewAt(instant - 1));
    }
  });

  test('an urgent handoff waiting for acknowledgement keeps its backup with no end', () => {
    const urgent = new Map([[2, latest.get(2) ?? null]]);
    const [row] = rows.filter((r) => r.id === 2);
    const fixedOnly = { ...row, nextHandoffAt: null };
    expect(rotationsChangeAt([fixedOnly], [], urgent, at(T), timings)).toBeNull();
    const [answer] = toRotations([fixedOnly], members, [], readPerson, at(T + 24 * HOUR), {
      latest: urgent,
      timings,
    });
    expect(answer.backupUserId).toBe(3);
    expect(answer.backupUntil).toBeNull();
  });
});

describe('the notes quoted to the receiver (decision 187)', () => {
  const [row] = rows.filter((r) => r.id === 1);
  const quoted = (values: Partial<LatestHandoffRow>, who = members) => {
    const [answer] = toRotations([row], who, [], readPerson, at(T), {
      latest: new Map([[1, handoff(11, values)]]),
      timings,
    });
    const { notes, notesBy } = answer.unacknowledgedHandoff ?? {};
    return { notes, notesBy };
  };

  test.each([
    ['a pass: the one who passed', { kind: 'pass' }, { id: 3, name: 'Person 3' }],
    ['a coverage start: the one who asked', { kind: 'coverage' }, { id: 3, name: 'Person 3' }],
    ["a reassignment: a manager's, not recorded", { kind: 'reassign' }, null],
    ['an automatic handoff', { kind: 'auto' }, null],
  ])('%s', (_, values, notesBy) => {
    expect(quoted({ ...values, notes: 'DB failover at 02:00\nwatch the queue' })).toEqual({
      notes: 'DB failover at 02:00\nwatch the queue',
      notesBy,
    });
  });

  test('no notes, blank notes: nothing to quote', () => {
    expect(quoted({ notes: null })).toEqual({ notes: null, notesBy: null });
    expect(quoted({ notes: '  \n ' })).toEqual({ notes: null, notesBy: null });
  });

  test('a writer who has left the rotation is not named', () => {
    const stayed = members.filter((m) => m.member.rotationId === 1 && m.member.userId !== 3);
    expect(quoted({ notes: 'gone' }, stayed)).toEqual({ notes: 'gone', notesBy: null });
  });
});
