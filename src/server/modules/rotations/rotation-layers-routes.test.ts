import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Calendar, CalendarFeedLinks } from '../../../shared/contracts/calendar';
import type { OnCalls } from '../../../shared/contracts/oncalls';
import { type Rotation, RotationSchema } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { handoffs, rotations } from '../../db/schema';
import { scheduledRotationsTask } from '../schedules/schedule-task';

/**
 * Layered rotations through the API (issue 32, decision 247): made with `layers`, read back with
 * them, and the one projection answering the rotation, GET /api/oncalls?at=, the calendar, the
 * rotation's feed and the engine alike. What is expected is worked out here from the wall clock
 * (Intl) and the words, sharing no code with the projection.
 */

let t: TestApp;
let manager: User;
let london: User[];
let sydney: User[];
let weekenders: User[];
let incidentManager: User;

const HOUR = 3_600_000;
const WEEK_MINUTES = 7 * 24 * 60;

beforeAll(async () => {
  t = await createTestApp();
  manager = await t.createUser({ name: 'Mara Manager', roles: ['manager'] });
  const onCall = (name: string) => t.createUser({ name, roles: ['on-call'] });
  london = [await onCall('Lia London'), await onCall('Leo London'), await onCall('Lou London')];
  sydney = [await onCall('Sia Sydney'), await onCall('Sam Sydney'), await onCall('Sol Sydney')];
  weekenders = [await onCall('Wes Weekend'), await onCall('Wyn Weekend')];
  incidentManager = await t.createUser({ name: 'Ian Incident', roles: ['incident_manager'] });
});
afterAll(() => t.close());

/** The wall clock in a zone as minutes since 1970-01-01 00:00 of that wall clock, read by Intl. */
function wallMinutes(at: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const utc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute);
  return utc / 60_000;
}

const localHour = (at: Date, timeZone: string) =>
  Math.floor((((wallMinutes(at, timeZone) % 1440) + 1440) % 1440) / 60);

/** The issue's follow-the-sun rotation, its layers' turns from Monday 1 March 2027 07:00 London. */
const FOLLOW_THE_SUN_START = '2027-03-01T07:00:00.000Z';
const followTheSun = () => ({
  name: 'Follow the sun',
  timeZone: 'Europe/London',
  layers: [
    {
      name: 'London',
      memberIds: london.map((u) => u.id),
      cadence: 'weekly',
      handoffTime: '07:00',
      handoffWeekday: 1,
      activeWindows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '07:00', end: '19:00' }],
      startsAt: FOLLOW_THE_SUN_START,
    },
    {
      name: 'Sydney',
      memberIds: sydney.map((u) => u.id),
      cadence: 'weekly',
      handoffTime: '07:00',
      handoffWeekday: 1,
      activeWindows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '19:00', end: '07:00' }],
      startsAt: FOLLOW_THE_SUN_START,
    },
  ],
});

/**
 * Who the issue says is on call at `at`: a London member from 07:00 to 19:00 London time, a Sydney
 * member otherwise, each layer's turn the number of Mondays 07:00 (London) since the start.
 */
function expectedFollowTheSun(at: Date): User {
  const weeks = Math.floor(
    (wallMinutes(at, 'Europe/London') -
      wallMinutes(new Date(FOLLOW_THE_SUN_START), 'Europe/London')) /
      WEEK_MINUTES,
  );
  const hour = localHour(at, 'Europe/London');
  return (hour >= 7 && hour < 19 ? london : sydney)[weeks % 3];
}

/** t.call with a session made now: the tests move the clock by months, past any session's life. */
async function call(
  user: User,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) {
  return t.call(user, method, url, body, { cookie: await t.cookieFor(user) });
}

async function create(body: unknown): Promise<Rotation> {
  const res = await call(manager, 'POST', '/api/rotations', body);
  expect(res.statusCode, res.body).toBe(201);
  return RotationSchema.parse(res.json());
}

const engine = () => ({ config: t.config, database: t.database, cipher: t.cipher, clock: t.clock });
async function tickAt(instant: string) {
  t.clock.set(instant);
  await scheduledRotationsTask(engine(), t.clock.now());
}

async function holderAt(rotationId: number, at: Date): Promise<number | null> {
  const res = await call(manager, 'GET', `/api/oncalls?at=${at.toISOString()}`);
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json() as OnCalls).oncalls.find((o) => o.rotation.id === rotationId);
  return found?.holder?.id ?? null;
}

async function calendarOf(rotationId: number, from: Date, to: Date) {
  const res = await call(
    manager,
    'GET',
    `/api/calendar?from=${from.toISOString()}&to=${to.toISOString()}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json() as Calendar).rotations.find((r) => r.id === rotationId);
  if (!found) throw new Error('rotation not in the calendar');
  return found;
}

function shiftAt(shifts: { userId: number; start: string; end: string }[], at: Date) {
  return shifts.find(
    (s) => Date.parse(s.start) <= at.getTime() && at.getTime() < Date.parse(s.end),
  );
}

function feedEvents(body: string) {
  const root = new ICAL.Component(ICAL.parse(body));
  for (const zone of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return root.getAllSubcomponents('vevent').map((c) => {
    const event = new ICAL.Event(c);
    return {
      summary: event.summary,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
    };
  });
}

describe.each([
  ['spring', '2027-03-20T12:00:00Z', 'the change of 28 March'],
  ['autumn', '2027-10-20T12:00:00Z', 'the change of 31 October'],
])('a follow-the-sun rotation in Europe/London (%s)', (_season, now, change) => {
  let rotation: Rotation;

  beforeAll(async () => {
    t.clock.set(now);
    rotation = await create(followTheSun());
  });

  test('is read back with its layers, its people as members, in words, and whoever is on now', () => {
    expect(rotation.layered).toBe(true);
    expect(rotation.pattern).toBe('Follow the sun: London 07:00–19:00, Sydney 19:00–07:00');
    expect(rotation.layers.map((l) => [l.name, l.memberIds, l.startsAt])).toEqual([
      ['London', london.map((u) => u.id), FOLLOW_THE_SUN_START],
      ['Sydney', sydney.map((u) => u.id), FOLLOW_THE_SUN_START],
    ]);
    expect(rotation.members.map((m) => m.userId)).toEqual([...london, ...sydney].map((u) => u.id));
    expect(rotation.currentOnCallUserId).toBe(expectedFollowTheSun(t.clock.now()).id);
    // The next change is the window's end at 19:00 London time, to the Sydney member of the week.
    const next = new Date(rotation.nextHandoffTime as string);
    expect(localHour(next, 'Europe/London')).toBe(19);
    expect(rotation.nextOnCall?.id).toBe(expectedFollowTheSun(next).id);
  });

  test(`names the right member at every hour of three weeks across ${change}, in the calendar`, async () => {
    const from = t.clock.now();
    const to = new Date(from.getTime() + 21 * 24 * HOUR);
    const { shifts, pattern } = await calendarOf(rotation.id, from, to);
    expect(pattern).toBe(rotation.pattern);
    for (let at = from.getTime(); at < to.getTime(); at += HOUR) {
      const instant = new Date(at);
      expect(shiftAt(shifts, instant)?.userId, instant.toISOString()).toBe(
        expectedFollowTheSun(instant).id,
      );
    }
    // Every change of hands falls at 07:00 or 19:00 London time.
    for (const s of shifts.slice(1)) {
      expect([7, 19]).toContain(localHour(new Date(s.start), 'Europe/London'));
    }
  });

  // About a hundred reads of the API one after another: a minute leaves room on a loaded machine.
  test('GET /api/oncalls?at= agrees at every fifth hour and either side of each window edge', {
    timeout: 90_000,
  }, async () => {
    const from = t.clock.now().getTime();
    const instants: Date[] = [];
    for (let at = from; at < from + 21 * 24 * HOUR; at += 5 * HOUR) instants.push(new Date(at));
    const edge = new Date(rotation.nextHandoffTime as string).getTime();
    instants.push(new Date(edge - 60_000), new Date(edge), new Date(edge + 12 * HOUR - 60_000));
    for (const at of instants) {
      expect(await holderAt(rotation.id, at), at.toISOString()).toBe(expectedFollowTheSun(at).id);
    }
  });

  test('the rotation feed lists each stretch with its member, changing only at the window edges', async () => {
    const links = (
      await call(manager, 'POST', '/api/calendar/feed/reset')
    ).json() as CalendarFeedLinks;
    const url = links.rotationUrlTemplate.replace('{rotationId}', String(rotation.id));
    const events = feedEvents((await t.app.inject({ url: new URL(url).pathname })).body);
    const until = t.clock.now().getTime() + 21 * 24 * HOUR;
    const soon = events.filter((e) => e.start.getTime() < until);
    expect(soon.length).toBeGreaterThanOrEqual(40);
    for (const e of soon) {
      const mid = new Date((e.start.getTime() + e.end.getTime()) / 2);
      const who = expectedFollowTheSun(mid);
      expect(e.summary, e.start.toISOString()).toContain(who.name);
      expect(expectedFollowTheSun(e.start).id).toBe(who.id);
      expect(expectedFollowTheSun(new Date(e.end.getTime() - 60_000)).id).toBe(who.id);
    }
  });
});

describe('the engine follows the layers', () => {
  test('hands the baton over at each window edge, a handoff of kind schedule at the edge', async () => {
    t.clock.set('2027-03-29T12:00:00Z');
    const rotation = await create({ ...followTheSun(), name: 'Follow the sun, engine' });
    expect(rotation.currentOnCallUserId).toBe(expectedFollowTheSun(t.clock.now()).id);
    // 18:59 BST: nothing yet. 19:00 BST (18:00 UTC): the Sydney member of the week.
    await tickAt('2027-03-29T17:59:00Z');
    const before = await t.database.db
      .select()
      .from(rotations)
      .where(eq(rotations.id, rotation.id));
    expect(before[0].holderUserId).toBe(london[(4 % 3) as number].id);
    await tickAt('2027-03-29T18:00:00Z');
    const [evening] = await t.database.db
      .select()
      .from(rotations)
      .where(eq(rotations.id, rotation.id));
    expect(evening.holderUserId).toBe(sydney[4 % 3].id);
    expect(evening.nextHandoffAt?.toISOString()).toBe('2027-03-30T06:00:00.000Z');
    await tickAt('2027-03-30T06:00:00Z');
    const recorded = await t.database.db
      .select()
      .from(handoffs)
      .where(eq(handoffs.rotationId, rotation.id))
      .orderBy(handoffs.occurredAt);
    expect(
      recorded.map((h) => [h.kind, h.fromUserId, h.toUserId, h.occurredAt.toISOString()]),
    ).toEqual([
      ['schedule', null, london[1].id, '2027-03-29T12:00:00.000Z'],
      ['schedule', london[1].id, sydney[1].id, '2027-03-29T18:00:00.000Z'],
      ['schedule', sydney[1].id, london[1].id, '2027-03-30T06:00:00.000Z'],
    ]);
  });

  test('a baton passed by hand holds until the next change of the layers', async () => {
    t.clock.set('2027-04-05T12:00:00Z');
    const rotation = await create({ ...followTheSun(), name: 'Follow the sun, by hand' });
    const holder = london[5 % 3];
    expect(rotation.currentOnCallUserId).toBe(holder.id);
    const pass = await call(holder, 'POST', `/api/rotations/${rotation.id}/handoff`, {
      toUserId: london[0].id,
    });
    expect(pass.statusCode, pass.body).toBe(200);
    await tickAt('2027-04-05T17:00:00Z');
    const read = RotationSchema.parse(
      (await call(manager, 'GET', `/api/rotations/${rotation.id}`)).json(),
    );
    expect(read.currentOnCallUserId).toBe(london[0].id);
    await tickAt('2027-04-05T18:00:00Z');
    const evening = RotationSchema.parse(
      (await call(manager, 'GET', `/api/rotations/${rotation.id}`)).json(),
    );
    expect(evening.currentOnCallUserId).toBe(sydney[5 % 3].id);
  });
});

describe('other patterns', () => {
  test('a weekend-only rotation has nobody on a Wednesday, and says so', async () => {
    t.clock.set('2027-06-09T12:00:00Z'); // a Wednesday
    const rotation = await create({
      name: 'Weekend duty',
      timeZone: 'America/New_York',
      layers: [
        {
          name: 'Weekends',
          memberIds: weekenders.map((u) => u.id),
          cadence: 'weekly',
          handoffTime: '00:00',
          handoffWeekday: 6,
          activeWindows: [{ days: [0, 6], start: '00:00', end: '00:00' }],
          // Wes's first turn is the coming weekend (from now, it would end unseen on Saturday).
          startsAt: '2027-06-12T04:00:00Z',
        },
      ],
    });
    expect(rotation.pattern).toBe('Weekends all day, weekly turns');
    expect(rotation.currentOnCallUserId).toBeNull();
    expect(rotation.currentOnCall).toBeNull();
    // Saturday 00:00 New York (04:00 UTC) is the next change: the first weekender's turn.
    expect(rotation.nextHandoffTime).toBe('2027-06-12T04:00:00.000Z');
    expect(rotation.nextOnCall?.id).toBe(weekenders[0].id);
    expect(await holderAt(rotation.id, new Date('2027-06-09T15:00:00Z'))).toBeNull();
    expect(await holderAt(rotation.id, new Date('2027-06-12T15:00:00Z'))).toBe(weekenders[0].id);
    expect(await holderAt(rotation.id, new Date('2027-06-19T15:00:00Z'))).toBe(weekenders[1].id);
    const oncalls = (await call(manager, 'GET', '/api/oncalls')).json() as OnCalls;
    expect(oncalls.oncalls.find((o) => o.rotation.id === rotation.id)?.holder).toBeNull();
  });

  test('a 12-hour rotation changes hands at 08:00 and 20:00 only, 11 and 13 hours across a change', async () => {
    t.clock.set('2027-03-10T12:00:00Z');
    const rotation = await create({
      name: 'Twelve hours',
      timeZone: 'America/New_York',
      layers: [
        {
          name: 'Shifts',
          memberIds: [london[0].id, sydney[0].id, weekenders[0].id],
          cadence: 'hourly',
          cadenceEvery: 12,
          handoffTime: '08:00',
        },
      ],
    });
    expect(rotation.pattern).toBe('12-hour shifts at 08:00 and 20:00');
    expect(rotation.cadence).toBe('hourly');
    expect(rotation.cadenceEvery).toBe(12);
    const from = t.clock.now();
    const to = new Date(from.getTime() + 7 * 24 * HOUR); // over 14 March, the clocks go forward
    const { shifts } = await calendarOf(rotation.id, from, to);
    const lengths = new Set<number>();
    for (const s of shifts.slice(1, -1)) {
      expect([8, 20]).toContain(localHour(new Date(s.start), 'America/New_York'));
      lengths.add((Date.parse(s.end) - Date.parse(s.start)) / HOUR);
    }
    expect([...lengths].sort((a, b) => a - b)).toEqual([11, 12]);
    // The members take their turns in order.
    const order = shifts.map((s) => s.userId);
    for (let i = 1; i < order.length; i++) {
      const ids = [london[0].id, sydney[0].id, weekenders[0].id];
      expect(order[i]).toBe(ids[(ids.indexOf(order[i - 1]) + 1) % 3]);
    }
  });
});

describe('bad layers', () => {
  const layer = () => ({
    name: 'Primary',
    memberIds: [london[0].id],
    cadence: 'weekly',
    handoffTime: '09:00',
  });

  test.each([
    [
      'a window with an unknown day',
      { activeWindows: [{ days: [7], start: '09:00', end: '17:00' }] },
      'layers.0.activeWindows.0.days.0',
    ],
    [
      'a window time that is not HH:MM',
      { activeWindows: [{ days: [1], start: '9am', end: '17:00' }] },
      'layers.0.activeWindows.0.start',
    ],
    ['N outside its range', { cadence: 'hourly', cadenceEvery: 169 }, 'layers.0.cadenceEvery'],
    ['an empty layer', { memberIds: [] }, 'layers.0.memberIds'],
  ])('%s is a 400 naming the field, and nothing is written', async (_what, over, field) => {
    const before = await t.database.db.select({ id: rotations.id }).from(rotations);
    const res = await call(manager, 'POST', '/api/rotations', {
      name: 'Refused layers',
      layers: [{ ...layer(), ...over }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().fields ?? {})).toContain(field);
    expect(await t.database.db.select({ id: rotations.id }).from(rotations)).toHaveLength(
      before.length,
    );
  });

  test('a member who cannot hold the baton is a 400 naming the layer, and nothing is written', async () => {
    const before = await t.database.db.select({ id: rotations.id }).from(rotations);
    const res = await call(manager, 'POST', '/api/rotations', {
      name: 'Refused member',
      layers: [layer(), { ...layer(), name: 'Second', memberIds: [incidentManager.id] }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain('layers.1.memberIds');
    expect(res.body).toContain('cannot hold the baton');
    expect(await t.database.db.select({ id: rotations.id }).from(rotations)).toHaveLength(
      before.length,
    );
  });

  test('layers on a scheduled rotation, or a handoff time beside layers, are refused', async () => {
    const scheduled = await call(manager, 'POST', '/api/rotations', {
      name: 'Scheduled with layers',
      type: 'scheduled',
      layers: [layer()],
    });
    expect(scheduled.statusCode).toBe(400);
    expect(scheduled.body).toContain('Layers belong to fixed rotations');
    const rotation = await create({ name: 'Layered, then patched', layers: [layer()] });
    const patch = await call(manager, 'PATCH', `/api/rotations/${rotation.id}`, {
      handoffTime: '10:00',
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.body).toContain('This rotation runs on layers');
  });
});

describe('changing layers', () => {
  test('a PATCH keeps the start of a layer whose shift is the same, and a new shift starts now', async () => {
    t.clock.set('2027-05-03T10:00:00Z');
    const rotation = await create({
      name: 'Changing layers',
      timeZone: 'UTC',
      layers: [
        {
          name: 'Day',
          memberIds: [london[0].id, london[1].id],
          cadence: 'daily',
          handoffTime: '09:00',
          startsAt: '2027-05-01T09:00:00Z',
        },
      ],
    });
    // 1, 2 and 3 May at 09:00: Lia, Leo, Lia.
    expect(rotation.currentOnCallUserId).toBe(london[0].id);
    t.clock.set('2027-05-03T11:00:00Z');
    const res = await call(manager, 'PATCH', `/api/rotations/${rotation.id}`, {
      layers: [
        {
          name: 'Day',
          memberIds: [london[0].id, london[1].id, london[2].id],
          cadence: 'daily',
          handoffTime: '09:00',
        },
        {
          name: 'Evening cover',
          memberIds: [sydney[0].id],
          cadence: 'daily',
          handoffTime: '18:00',
          activeWindows: [{ days: [1, 2, 3, 4, 5], start: '18:00', end: '22:00' }],
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const changed = RotationSchema.parse(res.json());
    expect(changed.layers.map((l) => l.startsAt)).toEqual([
      '2027-05-01T09:00:00.000Z',
      '2027-05-03T11:00:00.000Z',
    ]);
    expect(changed.members.map((m) => m.userId)).toEqual([
      london[0].id,
      london[1].id,
      london[2].id,
      sydney[0].id,
    ]);
    // Three members from 1 May: Lia, Leo, Lou on the 3rd.
    expect(changed.currentOnCallUserId).toBe(london[2].id);
    expect(await holderAt(rotation.id, new Date('2027-05-03T19:00:00Z'))).toBe(sydney[0].id);
    const back = await call(manager, 'PATCH', `/api/rotations/${rotation.id}`, { layers: null });
    expect(back.statusCode, back.body).toBe(200);
    expect(RotationSchema.parse(back.json())).toMatchObject({ layered: false, cadence: 'daily' });
  });
});

describe('members leaving', () => {
  test('someone removed from the rotation leaves every layer’s turn order', async () => {
    t.clock.set('2027-05-10T10:00:00Z');
    const rotation = await create({
      name: 'Leaving layers',
      timeZone: 'UTC',
      layers: [
        {
          name: 'Day',
          memberIds: [weekenders[0].id, weekenders[1].id],
          cadence: 'daily',
          handoffTime: '09:00',
        },
      ],
    });
    const res = await call(
      manager,
      'DELETE',
      `/api/rotations/${rotation.id}/on-call/${weekenders[1].id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = RotationSchema.parse(
      (await call(manager, 'GET', `/api/rotations/${rotation.id}`)).json(),
    );
    expect(after.layers[0].memberIds).toEqual([weekenders[0].id]);
    expect(await holderAt(rotation.id, new Date('2027-05-11T12:00:00Z'))).toBe(weekenders[0].id);
  });
});

test('removing the holder of a layered rotation gives the baton to whoever the layers name now', async () => {
  t.clock.set('2027-05-10T10:00:00Z');
  const [a, c] = london;
  const b = sydney[2];
  const rotation = await create({
    name: 'Leaving the holder',
    timeZone: 'UTC',
    layers: [
      {
        name: 'All day',
        memberIds: [a.id, c.id],
        cadence: 'daily',
        handoffTime: '09:00',
        startsAt: '2027-05-09T09:00:00Z',
      },
      {
        name: 'Office hours',
        memberIds: [b.id],
        cadence: 'weekly',
        handoffTime: '08:00',
        activeWindows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '08:00', end: '18:00' }],
      },
    ],
  });
  expect(rotation.currentOnCallUserId).toBe(b.id);
  // In member order (a, c, b) the next after b would be a; the layers name c today.
  const res = await call(manager, 'DELETE', `/api/rotations/${rotation.id}/on-call/${b.id}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(RotationSchema.parse(res.json()).currentOnCallUserId).toBe(c.id);
});

test('time off over a layer’s turn is a gap in the calendar and a warning, less any cover', async () => {
  t.clock.set('2027-07-05T05:00:00Z'); // Monday 06:00 in London
  const rotation = await create({ ...followTheSun(), name: 'Follow the sun, time off' });
  // 2027-07-05 is 18 weeks from 1 March: London's turn is Lia's (18 % 3 = 0).
  const away = await call(london[0], 'POST', `/api/users/${london[0].id}/time-off`, {
    startTime: '2027-07-06T00:00:00Z',
    endTime: '2027-07-07T00:00:00Z',
  });
  expect(away.statusCode, away.body).toBe(201);
  const { gaps } = await calendarOf(
    rotation.id,
    new Date('2027-07-05T00:00:00Z'),
    new Date('2027-07-12T00:00:00Z'),
  );
  // Tuesday 07:00–19:00 London (BST) is Lia's and she is away.
  expect(gaps).toEqual([{ start: '2027-07-06T06:00:00.000Z', end: '2027-07-06T18:00:00.000Z' }]);
  const warnings = await call(manager, 'GET', '/api/time-off/warnings');
  expect(warnings.statusCode, warnings.body).toBe(200);
  expect(JSON.stringify(warnings.json())).toContain('2027-07-06T06:00:00.000Z');
});
