import { memberIdAfter } from '../../src/shared/domain/rotation';
import { handoffsBetween, type ShiftPattern } from '../../src/shared/domain/shifts';

export interface FixedSeed {
  pattern: ShiftPattern;
  memberIds: number[];
  holderId: number | null;
}

/**
 * monthOfShiftsSeeds returns the fixed rotations the month-long engine tests run: daily and
 * weekly cadences in three time zones, across a missing and a repeated local time. Takes five
 * user ids.
 */
export function monthOfShiftsSeeds([uma, vik, wes, xia, yan]: readonly number[]): FixedSeed[] {
  return [
    {
      pattern: {
        cadence: 'daily',
        timeZone: 'America/New_York',
        handoffTime: '09:00',
        handoffWeekday: 1,
      },
      memberIds: [uma, vik, wes],
      holderId: uma,
    },
    {
      pattern: {
        cadence: 'weekly',
        timeZone: 'Europe/London',
        handoffTime: '10:00',
        handoffWeekday: 1,
      },
      memberIds: [vik, xia],
      holderId: xia,
    },
    {
      // 02:30 does not exist in Sydney on 4 October: that boundary moves to 03:00.
      pattern: {
        cadence: 'daily',
        timeZone: 'Australia/Sydney',
        handoffTime: '02:30',
        handoffWeekday: 1,
      },
      memberIds: [uma, wes, xia, yan],
      holderId: wes,
    },
    {
      // 01:30 happens twice in New York on 1 November: the first one counts.
      pattern: {
        cadence: 'weekly',
        timeZone: 'America/New_York',
        handoffTime: '01:30',
        handoffWeekday: 0,
      },
      memberIds: [yan, uma],
      holderId: null,
    },
  ];
}

/**
 * expectedAutoHandoffs walks a fixed rotation's boundaries with the shared shift functions, from
 * its first boundary until `until`, and returns the automatic handoffs the engine must have
 * recorded ([rotation id, 'auto', from, to, ISO time]), the holder after them and the last
 * boundary handed off.
 */
export function expectedAutoHandoffs(
  f: FixedSeed & { id: number; firstBoundary: Date },
  until: Date,
  autoTransferAfterMs: number,
): { rows: unknown[][]; holder: number | null; lastBoundary: Date } {
  let holder = f.holderId;
  const boundaries = [
    f.firstBoundary,
    ...handoffsBetween(f.pattern, f.firstBoundary, new Date(until.getTime() - autoTransferAfterMs)),
  ];
  const rows: unknown[][] = [];
  for (const boundary of boundaries) {
    const to = memberIdAfter(f.memberIds, holder);
    if (to === null) continue;
    rows.push([
      f.id,
      'auto',
      holder,
      to,
      new Date(boundary.getTime() + autoTransferAfterMs).toISOString(),
    ]);
    holder = to;
  }
  return { rows, holder, lastBoundary: boundaries.at(-1) as Date };
}
