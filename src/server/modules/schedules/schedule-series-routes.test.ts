import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Calendar } from '../../../shared/contracts/calendar';
import type { OnCalls } from '../../../shared/contracts/oncalls';
import { type ScheduleEntry, ScheduleEntrySchema } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { handoffs, rotations, scheduleEntries } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { scheduledRotationsTask } from './schedule-task';

/**
 * Repeating schedule entries through the API (issue 32, decision 250). The series under test:
 * Noah, Mondays and Wednesdays 09:00–17:00 New York time, six times from Wednesday 4 March 2026,
 * across the change to summer time on Sunday 8 March (09:00 is 14:00Z before it, 13:00Z after).
 */

let t: TestApp;
let admin: User;
let olivia: User;
let noah: User;

const ZONE = 'America/New_York';
const NOW = '2026-03-02T12:00:00.000Z';
/** The six occurrences' starts and ends, worked out by hand. */
const OCCURRENCES = [
  ['2026-03-04T14:00:00.000Z', '2026-03-04T22:00:00.000Z'], // Wed, EST
  ['2026-03-09T13:00:00.000Z', '2026-03-09T21:00:00.000Z'], // Mon, EDT
  ['2026-03-11T13:00:00.000Z', '2026-03-11T21:00:00.000Z'],
  ['2026-03-16T13:00:00.000Z', '2026-03-16T21:00:00.000Z'],
  ['2026-03-18T13:00:00.000Z', '2026-03-18T21:00:00.000Z'],
  ['2026-03-23T13:00:00.000Z', '2026-03-23T21:00:00.000Z'],
] as const;
const HOUR = 3_600_000;
const later = (iso: string, hours: number) =>
  new Date(Date.parse(iso) + hours * HOUR).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, olivia, noah } = await t.cast({ admin: {}, olivia: {}, noah: {} }));
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(NOW));

async function call(
  user: User,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) {
  return t.call(user, method, url, body, { cookie: await t.cookieFor(user) });
}

/** A scheduled rotation without entries yet: nothing due until its first entry. */
async function newRotation() {
  const r = await insertRotation(t.database.db, {
    type: 'scheduled',
    timeZone: ZONE,
    memberIds: [olivia.id, noah.id],
    now: t.clock.now(),
  });
  await t.database.db.update(rotations).set({ nextHandoffAt: null }).where(eq(rotations.id, r.id));
  return r;
}

const weekly = {
  userId: 0,
  startTime: OCCURRENCES[0][0],
  endTime: OCCURRENCES[0][1],
  recurrence: { frequency: 'weekly', interval: 1, weekdays: [1, 3], count: 6 },
};

async function addSeries(rotationId: number): Promise<ScheduleEntry> {
  const res = await call(admin, 'POST', `/api/rotations/${rotationId}/schedules`, {
    ...weekly,
    userId: noah.id,
  });
  expect(res.statusCode, res.body).toBe(201);
  return ScheduleEntrySchema.parse(res.json());
}

async function holderAt(rotationId: number, at: string): Promise<number | null> {
  const res = await call(admin, 'GET', `/api/oncalls?at=${at}`);
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json() as OnCalls).oncalls.find((o) => o.rotation.id === rotationId);
  return found?.holder?.id ?? null;
}

async function shiftsOf(rotationId: number, from: string, to: string) {
  const res = await call(admin, 'GET', `/api/calendar?from=${from}&to=${to}`);
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json() as Calendar).rotations.find((r) => r.id === rotationId);
  return (found?.shifts ?? []).map((s) => [s.userId, s.start, s.end]);
}

const middleOf = (i: number) => later(OCCURRENCES[i][0], 4);

describe('adding a repeating entry', () => {
  test('answers the series with its rule, its words and its occurrences; the list carries them', async () => {
    const r = await newRotation();
    const series = await addSeries(r.id);
    expect(series).toMatchObject({
      userId: noah.id,
      startTime: OCCURRENCES[0][0],
      endTime: OCCURRENCES[0][1],
      recurrence: { frequency: 'weekly', interval: 1, weekdays: [1, 3], count: 6 },
      repeats: 'Weekly on Mon, Wed 09:00–17:00, 6 times',
    });
    expect(series.occurrences?.map((o) => [o.startTime, o.endTime])).toEqual(OCCURRENCES);
    const list = await call(olivia, 'GET', `/api/rotations/${r.id}/schedules`);
    expect(list.json()).toEqual([series]);
    const [row] = await t.database.db
      .select()
      .from(scheduleEntries)
      .where(eq(scheduleEntries.id, series.id));
    expect(row.recurrence).toBe('FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;COUNT=6');
    expect(row.seriesEndAt?.toISOString()).toBe(OCCURRENCES[5][1]);
  });

  test('a start off the chosen days moves to the first occurrence', async () => {
    const r = await newRotation();
    const res = await call(admin, 'POST', `/api/rotations/${r.id}/schedules`, {
      ...weekly,
      userId: noah.id,
      // Tuesday 3 March 09:00 EST: the series' first day is Wednesday.
      startTime: '2026-03-03T14:00:00.000Z',
      endTime: '2026-03-03T22:00:00.000Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().startTime).toBe(OCCURRENCES[0][0]);
  });

  test('bad rules are 400 naming the field, and nothing is written', async () => {
    const r = await newRotation();
    const url = `/api/rotations/${r.id}/schedules`;
    const refused = async (recurrence: unknown, field: string, end: string = OCCURRENCES[0][1]) => {
      const res = await call(admin, 'POST', url, {
        ...weekly,
        userId: noah.id,
        endTime: end,
        recurrence,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual([field]);
    };
    await refused({ frequency: 'monthly' }, 'recurrence.frequency');
    await refused({ frequency: 'weekly' }, 'recurrence.weekdays');
    await refused({ frequency: 'weekly', weekdays: [7] }, 'recurrence.weekdays');
    await refused({ frequency: 'daily', interval: 0 }, 'recurrence.interval');
    await refused({ frequency: 'daily', count: 2, until: '2026-04-01' }, 'recurrence.until');
    await refused({ frequency: 'daily', until: '2026-02-30' }, 'recurrence.until');
    await refused({ frequency: 'daily', count: 1001 }, 'recurrence.count');
    // Longer than a day repeats daily: each occurrence would overlap the next.
    await refused({ frequency: 'daily' }, 'endTime', later(OCCURRENCES[0][0], 30));
    await refused({ frequency: 'daily', until: '2026-03-01' }, 'recurrence.until');
    const rows = await t.database.db
      .select()
      .from(scheduleEntries)
      .where(eq(scheduleEntries.rotationId, r.id));
    expect(rows).toEqual([]);
  });

  test('overlap is refused by occurrence: an entry on a later occurrence, or a series onto an entry', async () => {
    const r = await newRotation();
    const url = `/api/rotations/${r.id}/schedules`;
    await addSeries(r.id);
    const single = (start: string, end: string) => ({
      userId: olivia.id,
      startTime: start,
      endTime: end,
    });
    const onThird = await call(admin, 'POST', url, single(middleOf(2), later(middleOf(2), 1)));
    expect(onThird.statusCode).toBe(409);
    expect(onThird.json().code).toBe('SCHEDULE_OVERLAP');
    // A Tuesday falls between occurrences.
    const tuesday = await call(
      admin,
      'POST',
      url,
      single('2026-03-10T13:00:00Z', '2026-03-10T21:00:00Z'),
    );
    expect(tuesday.statusCode).toBe(201);
    const dailySeries = await call(admin, 'POST', url, {
      ...single('2026-03-05T13:00:00Z', '2026-03-05T15:00:00Z'),
      recurrence: { frequency: 'daily' },
    });
    expect(dailySeries.statusCode).toBe(409);
  });
});

describe('a weekly series with the engine and every read', () => {
  test('the engine moves the baton at each occurrence; oncalls and the calendar show them', async () => {
    const r = await newRotation();
    await addSeries(r.id);
    const engine = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
    const holder = async () =>
      (await t.database.db.select().from(rotations).where(eq(rotations.id, r.id)))[0];
    for (const [start, end] of OCCURRENCES) {
      expect((await holder()).nextHandoffAt?.toISOString()).toBe(start);
      t.clock.set(start);
      await scheduledRotationsTask(engine, t.clock.now());
      expect((await holder()).holderUserId).toBe(noah.id);
      expect((await holder()).nextHandoffAt?.toISOString()).toBe(end);
      t.clock.set(end);
      await scheduledRotationsTask(engine, t.clock.now());
      expect((await holder()).holderUserId).toBeNull();
    }
    expect((await holder()).nextHandoffAt).toBeNull();
    const moves = await t.database.db
      .select()
      .from(handoffs)
      .where(and(eq(handoffs.rotationId, r.id), eq(handoffs.kind, 'schedule')))
      .orderBy(asc(handoffs.occurredAt));
    expect(moves.map((h) => [h.toUserId, h.occurredAt.toISOString()])).toEqual(
      OCCURRENCES.flatMap(([start, end]) => [
        [noah.id, start],
        [null, end],
      ]),
    );
  });

  test('GET /api/oncalls?at= and the calendar read the occurrences', async () => {
    const r = await newRotation();
    await addSeries(r.id);
    for (let i = 0; i < OCCURRENCES.length; i++) {
      expect(await holderAt(r.id, middleOf(i))).toBe(noah.id);
      expect(await holderAt(r.id, later(OCCURRENCES[i][1], 1))).toBeNull();
    }
    expect(await shiftsOf(r.id, NOW, '2026-04-01T00:00:00.000Z')).toEqual(
      OCCURRENCES.map(([start, end]) => [noah.id, start, end]),
    );
  });
});

describe('changing one occurrence or the whole series', () => {
  test('editing one occurrence changes that one only', async () => {
    const r = await newRotation();
    const series = await addSeries(r.id);
    const url = `/api/rotation-schedules/${series.id}/occurrences/${OCCURRENCES[3][0]}`;
    const res = await call(admin, 'PATCH', url, { userId: olivia.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      rotationId: r.id,
      userId: olivia.id,
      user: expect.objectContaining({ id: olivia.id }),
      startTime: OCCURRENCES[3][0],
      endTime: OCCURRENCES[3][1],
    });
    for (let i = 0; i < OCCURRENCES.length; i++) {
      expect(await holderAt(r.id, middleOf(i))).toBe(i === 3 ? olivia.id : noah.id);
    }
    const list = (
      await call(admin, 'GET', `/api/rotations/${r.id}/schedules`)
    ).json() as ScheduleEntry[];
    expect(list.find((e) => e.id === series.id)?.occurrences?.map((o) => o.startTime)).toEqual(
      OCCURRENCES.filter((_, i) => i !== 3).map(([start]) => start),
    );
    // Moved later by an hour, on its own.
    const moved = await call(
      admin,
      'PATCH',
      `/api/rotation-schedules/${series.id}/occurrences/${OCCURRENCES[4][0]}`,
      {
        startTime: later(OCCURRENCES[4][0], 1),
        endTime: later(OCCURRENCES[4][1], 1),
      },
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await holderAt(r.id, later(OCCURRENCES[4][1], 0.5))).toBe(noah.id);
    expect(await holderAt(r.id, later(OCCURRENCES[4][0], 0.5))).toBeNull();
  });

  test('an occurrence not in the series is 404; a bad start 400; a bad change 400 naming the field', async () => {
    const r = await newRotation();
    const series = await addSeries(r.id);
    const base = `/api/rotation-schedules/${series.id}/occurrences`;
    const notOne = await call(admin, 'PATCH', `${base}/2026-03-10T13:00:00.000Z`, {
      userId: olivia.id,
    });
    expect(notOne.statusCode).toBe(404);
    expect(notOne.json().message).toBe('Occurrence not found');
    expect((await call(admin, 'DELETE', `${base}/2026-03-30T13:00:00.000Z`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `${base}/nope`)).statusCode).toBe(400);
    const bad = await call(admin, 'PATCH', `${base}/${OCCURRENCES[1][0]}`, {
      startTime: OCCURRENCES[1][1],
      endTime: OCCURRENCES[1][0],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ endTime: 'End time must be after start time' });
    expect(
      (
        await call(
          admin,
          'PATCH',
          `/api/rotation-schedules/999999/occurrences/${OCCURRENCES[1][0]}`,
          {},
        )
      ).statusCode,
    ).toBe(404);
    // Nothing was taken out by the refusals.
    const [row] = await t.database.db
      .select()
      .from(scheduleEntries)
      .where(eq(scheduleEntries.id, series.id));
    expect(row.takenOut).toEqual([]);
  });

  test('deleting one occurrence leaves a gap; deleting it again is 404', async () => {
    const r = await newRotation();
    const series = await addSeries(r.id);
    const url = `/api/rotation-schedules/${series.id}/occurrences/${OCCURRENCES[2][0]}`;
    expect((await call(admin, 'DELETE', url)).statusCode).toBe(204);
    expect(await holderAt(r.id, middleOf(2))).toBeNull();
    expect(await holderAt(r.id, middleOf(1))).toBe(noah.id);
    expect(await holderAt(r.id, middleOf(3))).toBe(noah.id);
    expect(
      (await shiftsOf(r.id, NOW, '2026-04-01T00:00:00.000Z')).map(([, start]) => start),
    ).toEqual(OCCURRENCES.filter((_, i) => i !== 2).map(([start]) => start));
    expect((await call(admin, 'DELETE', url)).statusCode).toBe(404);
  });

  test('editing the series changes every occurrence; one taken out stays out', async () => {
    const r = await newRotation();
    const series = await addSeries(r.id);
    await call(
      admin,
      'DELETE',
      `/api/rotation-schedules/${series.id}/occurrences/${OCCURRENCES[2][0]}`,
    );
    const res = await call(admin, 'PATCH', `/api/rotation-schedules/${series.id}`, {
      userId: olivia.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: series.id, userId: olivia.id });
    for (let i = 0; i < OCCURRENCES.length; i++) {
      expect(await holderAt(r.id, middleOf(i))).toBe(i === 2 ? null : olivia.id);
    }
    const bad = await call(admin, 'PATCH', `/api/rotation-schedules/${series.id}`, {
      recurrence: { frequency: 'weekly', weekdays: [] },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['recurrence.weekdays']);
    // Made a single entry: the first occurrence alone.
    const single = await call(admin, 'PATCH', `/api/rotation-schedules/${series.id}`, {
      recurrence: null,
    });
    expect(single.statusCode, single.body).toBe(200);
    expect(single.json().recurrence).toBeUndefined();
    expect(await holderAt(r.id, middleOf(0))).toBe(olivia.id);
    expect(await holderAt(r.id, middleOf(1))).toBeNull();
  });

  test('a series begun is split at now: the occurrences begun keep their person, the rest change', async () => {
    const r = await newRotation();
    const series = await addSeries(r.id);
    t.clock.set(middleOf(1));
    const res = await call(admin, 'PATCH', `/api/rotation-schedules/${series.id}`, {
      userId: olivia.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rest = ScheduleEntrySchema.parse(res.json());
    expect(rest.id).not.toBe(series.id);
    expect(rest).toMatchObject({
      startTime: OCCURRENCES[2][0],
      repeats: 'Weekly on Mon, Wed 09:00–17:00, 4 times',
    });
    // What is ahead changed hands; what has begun is the kept series' (as the list says).
    for (let i = 2; i < OCCURRENCES.length; i++) {
      expect(await holderAt(r.id, middleOf(i))).toBe(olivia.id);
    }
    const list = (
      await call(admin, 'GET', `/api/rotations/${r.id}/schedules`)
    ).json() as ScheduleEntry[];
    expect(list.map((e) => [e.id, e.userId, e.repeats])).toEqual([
      [series.id, noah.id, 'Weekly on Mon, Wed 09:00–17:00, 2 times'],
      [rest.id, olivia.id, 'Weekly on Mon, Wed 09:00–17:00, 4 times'],
    ]);
    const [kept] = await t.database.db
      .select()
      .from(scheduleEntries)
      .where(eq(scheduleEntries.id, series.id));
    expect(kept.recurrence).toBe('FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;COUNT=2');
  });

  test('removing the member cuts their series to what has ended', async () => {
    const r = await newRotation();
    const series = await addSeries(r.id);
    t.clock.set(later(OCCURRENCES[1][1], 1));
    const res = await call(admin, 'DELETE', `/api/rotations/${r.id}/on-call/${noah.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const [kept] = await t.database.db
      .select()
      .from(scheduleEntries)
      .where(eq(scheduleEntries.id, series.id));
    expect(kept.recurrence).toBe('FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;COUNT=2');
    expect(kept.seriesEndAt?.toISOString()).toBe(OCCURRENCES[1][1]);
  });
});
