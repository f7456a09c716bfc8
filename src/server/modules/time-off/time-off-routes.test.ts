import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Calendar } from '../../../shared/contracts/calendar';
import type { Rotation } from '../../../shared/contracts/rotations';
import type {
  TimeOffEntry,
  TimeOffList,
  TimeOffWarnings,
} from '../../../shared/contracts/time-off';
import type { User } from '../../../shared/contracts/users';
import { TIME_OFF_MESSAGES } from '../../../shared/domain/time-off';
import { auditEvents, notifications, scheduleEntries, timeOff } from '../../db/schema';
import { runEngineTick } from '../../engine-tasks';
import { insertHandoffs, insertRotation } from '../../seed/factories';

let t: TestApp;
let ana: User;
let ben: User;
let cal: User;
let mia: User;
let max: User;
let adm: User;
let loner: User;
let weeklyId: number;
let deskId: number;

beforeAll(async () => {
  t = await createTestApp();
  // Monday 2 November 2026, 12:00 UTC: the weekly rotation's next boundary is 9 November 09:00.
  t.clock.set('2026-11-02T12:00:00Z');
  ana = await t.createUser({ name: 'Ana Alvarez', roles: ['on-call'] });
  ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
  cal = await t.createUser({ name: 'Cal Chen', roles: ['on-call'] });
  mia = await t.createUser({ name: 'Mia Manager', roles: ['manager'] });
  max = await t.createUser({ name: 'Max Elsewhere', roles: ['manager'] });
  adm = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
  loner = await t.createUser({ name: 'Lou Loner', roles: ['on-call'] });
  const weekly = await insertRotation(t.database.db, {
    name: 'Platform Weekly',
    memberIds: [ana.id, ben.id, cal.id],
    holderId: ana.id,
    createdById: mia.id,
    now: t.clock.now(),
  });
  weeklyId = weekly.id;
  await insertHandoffs(t.database.db, [
    {
      rotationId: weeklyId,
      fromUserId: cal.id,
      toUserId: ana.id,
      kind: 'pass',
      occurredAt: new Date('2026-11-02T09:00:00Z'),
    },
  ]);
  await insertRotation(t.database.db, {
    name: 'Elsewhere',
    memberIds: [max.id, loner.id],
    createdById: max.id,
    now: t.clock.now(),
  });
  const desk = await insertRotation(t.database.db, {
    name: 'Desk Schedule',
    type: 'scheduled',
    memberIds: [ana.id, mia.id],
    now: t.clock.now(),
  });
  deskId = desk.id;
});
afterAll(() => t.close());

const add = (user: User, personId: number, body: object) =>
  t.call(user, 'POST', `/api/users/${personId}/time-off`, body);
const week = (start: string, end: string, note?: string) => ({
  startTime: start,
  endTime: end,
  ...(note === undefined ? {} : { note }),
});

/** What a refused request must leave as it was: time off and the audit trail. */
async function written() {
  const [rows] = await t.database.db.select({ n: count() }).from(timeOff);
  const [events] = await t.database.db.select({ n: count() }).from(auditEvents);
  return { timeOff: rows.n, events: events.n };
}

describe('who records whose time off', () => {
  test('a person records their own; the note is theirs to read, and sealed at rest', async () => {
    const res = await add(
      ana,
      ana.id,
      week('2026-12-01T00:00:00Z', '2026-12-05T00:00:00Z', 'Dentist'),
    );
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json() as TimeOffEntry;
    expect(entry).toMatchObject({
      userId: ana.id,
      startTime: '2026-12-01T00:00:00.000Z',
      endTime: '2026-12-05T00:00:00.000Z',
      note: 'Dentist',
      recordedBy: null,
    });
    const list = (await t.call(ana, 'GET', `/api/users/${ana.id}/time-off`)).json() as TimeOffList;
    expect(list.entries.map((e) => e.id)).toContain(entry.id);
    const [raw] = await t.database.db.select().from(timeOff).where(eq(timeOff.id, entry.id));
    expect(raw.noteEnc).toMatch(/^v1\./);
    expect(raw.noteEnc).not.toContain('Dentist');
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(like(auditEvents.action, 'user.time_off_added'));
    expect(event).toMatchObject({ actorUserId: ana.id, targetId: String(ana.id) });
    expect(JSON.stringify(event.details)).not.toContain('Dentist');
  });

  test('a manager of their rotation records it for them, and is named as who did', async () => {
    const res = await add(mia, ben.id, week('2026-12-10T00:00:00Z', '2026-12-12T00:00:00Z'));
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as TimeOffEntry).recordedBy).toEqual({ id: mia.id, name: 'Mia Manager' });
    const read = await t.call(mia, 'GET', `/api/users/${ben.id}/time-off`);
    expect(read.statusCode).toBe(200);
  });

  test('an administrator records anyone’s, in a rotation or not', async () => {
    const res = await add(adm, loner.id, week('2026-12-10T00:00:00Z', '2026-12-11T00:00:00Z'));
    expect(res.statusCode, res.body).toBe(201);
  });

  test.each([
    ['a teammate', () => ben, () => ana],
    ['a manager of none of their rotations', () => max, () => ana],
    ['a manager for someone outside their rotations', () => mia, () => loner],
  ])(
    '%s may not read, record or delete it (403), and nothing is written',
    async (_n, who, whose) => {
      const before = await written();
      const path = `/api/users/${whose().id}/time-off`;
      const [entry] = await t.database.db.select().from(timeOff).limit(1);
      for (const res of [
        await t.call(who(), 'GET', path),
        await add(who(), whose().id, week('2027-01-04T00:00:00Z', '2027-01-05T00:00:00Z')),
        await t.call(who(), 'DELETE', `${path}/${entry.id}`),
      ]) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({
          code: 'FORBIDDEN',
          message: TIME_OFF_MESSAGES.notAllowed,
        });
      }
      expect(await written()).toEqual(before);
    },
  );

  test('nobody by that id: 404', async () => {
    const res = await add(adm, 999_999, week('2027-01-04T00:00:00Z', '2027-01-05T00:00:00Z'));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('User not found');
  });
});

describe('what is refused, with a message, writing nothing', () => {
  test.each([
    [
      'end before start',
      week('2026-12-20T00:00:00Z', '2026-12-19T00:00:00Z'),
      400,
      'endTime: End time must be after start time',
    ],
    [
      'over already',
      week('2026-10-01T00:00:00Z', '2026-10-20T00:00:00Z'),
      400,
      TIME_OFF_MESSAGES.inThePast,
    ],
    [
      'longer than a year',
      week('2027-01-01T00:00:00Z', '2028-01-10T00:00:00Z'),
      400,
      TIME_OFF_MESSAGES.tooLong,
    ],
    [
      'not a date',
      week('soon', '2026-12-19T00:00:00Z'),
      400,
      'startTime: Start time must be a valid date and time',
    ],
    [
      'a note too long',
      week('2027-02-01T00:00:00Z', '2027-02-02T00:00:00Z', 'x'.repeat(501)),
      400,
      'note: Note must be at most 500 characters',
    ],
    [
      'overlapping their own time off, naming it',
      week('2026-12-04T00:00:00Z', '2026-12-08T00:00:00Z'),
      409,
      'This overlaps time off already recorded (Tue, Dec 1, 2026, 12:00 AM UTC – Sat, Dec 5, 2026, 12:00 AM UTC). Change or delete that entry first.',
    ],
  ])('%s', async (_name, body, status, message) => {
    const before = await written();
    const res = await add(ana, ana.id, body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toBe(message);
    expect(await written()).toEqual(before);
  });

  test('time off already under way may be recorded (ill since this morning)', async () => {
    const res = await add(cal, cal.id, week('2026-11-02T06:00:00Z', '2026-11-03T06:00:00Z', 'Flu'));
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('taking time off back', () => {
  test('one to come is deleted; one under way ends now; one over is kept (409)', async () => {
    const future = (
      await add(ben, ben.id, week('2027-03-01T00:00:00Z', '2027-03-02T00:00:00Z'))
    ).json();
    const running = (
      await add(ben, ben.id, week('2026-11-02T10:00:00Z', '2026-11-02T20:00:00Z'))
    ).json() as TimeOffEntry;

    expect(
      (await t.call(ben, 'DELETE', `/api/users/${ben.id}/time-off/${future.id}`)).statusCode,
    ).toBe(204);
    expect(await t.database.db.select().from(timeOff).where(eq(timeOff.id, future.id))).toEqual([]);

    expect(
      (await t.call(ben, 'DELETE', `/api/users/${ben.id}/time-off/${running.id}`)).statusCode,
    ).toBe(204);
    const [ended] = await t.database.db.select().from(timeOff).where(eq(timeOff.id, running.id));
    expect(ended.endAt).toEqual(t.clock.now());
    const list = (await t.call(ben, 'GET', `/api/users/${ben.id}/time-off`)).json() as TimeOffList;
    expect(list.entries.map((e) => e.id)).not.toContain(running.id);

    const again = await t.call(ben, 'DELETE', `/api/users/${ben.id}/time-off/${running.id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(TIME_OFF_MESSAGES.deletePast);
  });

  test('an entry of someone else by the wrong path is not found', async () => {
    const [anas] = await t.database.db.select().from(timeOff).where(eq(timeOff.userId, ana.id));
    const res = await t.call(ben, 'DELETE', `/api/users/${ben.id}/time-off/${anas.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(TIME_OFF_MESSAGES.notFound);
  });
});

describe('the rotation goes round it', () => {
  test('next on call, the calendar and the warnings: Ben away in his week, Cal covers', async () => {
    const rotationOf = async () =>
      (await t.call(ana, 'GET', `/api/rotations/${weeklyId}`)).json() as Rotation;
    expect((await rotationOf()).nextOnCall?.id).toBe(ben.id);
    const res = await add(
      ben,
      ben.id,
      week('2026-11-10T00:00:00Z', '2026-11-12T00:00:00Z', 'Away'),
    );
    expect(res.statusCode).toBe(201);
    expect((await rotationOf()).nextOnCall?.id).toBe(cal.id);

    const calendar = (
      await t.call(ana, 'GET', '/api/calendar?from=2026-11-02T12:00:00Z&to=2026-11-30T09:00:00Z')
    ).json() as Calendar;
    const weekly = calendar.rotations.find((r) => r.id === weeklyId);
    expect(weekly?.shifts.map((s) => [s.userId, s.start])).toEqual([
      [ana.id, '2026-11-02T12:00:00.000Z'],
      // Cal covers Ben's week and then holds his own (decision 256): one stretch of two weeks.
      [cal.id, '2026-11-09T09:00:00.000Z'],
      [ana.id, '2026-11-23T09:00:00.000Z'],
    ]);
    expect(weekly?.gaps).toEqual([]);
    expect(calendar.timeOff).toContainEqual({
      id: res.json().id,
      userId: ben.id,
      start: '2026-11-10T00:00:00.000Z',
      end: '2026-11-12T00:00:00.000Z',
    });
    // No note in the calendar: that is personal.
    expect(JSON.stringify(calendar)).not.toContain('Away"');
  });

  test('everyone away is a gap: warned ahead, and the managers are told once', async () => {
    await add(ana, ana.id, week('2026-11-16T12:00:00Z', '2026-11-17T12:00:00Z'));
    await add(mia, cal.id, week('2026-11-17T00:00:00Z', '2026-11-18T00:00:00Z'));
    await add(ben, ben.id, week('2026-11-20T00:00:00Z', '2026-11-21T00:00:00Z'));
    const warnings = (
      await t.call(cal, 'GET', `/api/time-off/warnings?rotationId=${weeklyId}`)
    ).json() as TimeOffWarnings;
    expect(warnings.gaps).toEqual([
      {
        rotationId: weeklyId,
        rotationName: 'Platform Weekly',
        start: '2026-11-16T09:00:00.000Z',
        end: '2026-11-23T09:00:00.000Z',
      },
    ]);
    const calendar = (
      await t.call(ana, 'GET', '/api/calendar?from=2026-11-02T12:00:00Z&to=2026-11-30T09:00:00Z')
    ).json() as Calendar;
    expect(calendar.rotations.find((r) => r.id === weeklyId)?.gaps).toEqual([
      { start: '2026-11-16T09:00:00.000Z', end: '2026-11-23T09:00:00.000Z' },
    ]);

    const gapNotices = () =>
      t.database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.kind, 'time_off.gap')));
    const deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
    await runEngineTick(deps, t.clock.now());
    const sent = await gapNotices();
    // Mia created the rotation and holds the manager role: she alone manages it.
    expect(sent.map((n) => n.userId)).toEqual([mia.id]);
    await runEngineTick(deps, new Date(t.clock.now().getTime() + 60_000));
    expect(await gapNotices()).toHaveLength(1);
  });

  test('a gap in the turn under way: warned from now, and told once though its start moves on', async () => {
    const nell = await t.createUser({ name: 'Nell Night', roles: ['on-call'] });
    const gil = await t.createUser({ name: 'Gil Gapwatch', roles: ['manager'] });
    const night = await insertRotation(t.database.db, {
      name: 'Night desk',
      memberIds: [nell.id],
      holderId: nell.id,
      createdById: gil.id,
      now: t.clock.now(),
    });
    // Nell holds the week to 9 November 09:00 and is away in it: the rest of her turn is a gap.
    await add(nell, nell.id, week('2026-11-04T00:00:00Z', '2026-11-05T00:00:00Z'));
    const warnings = (
      await t.call(gil, 'GET', `/api/time-off/warnings?rotationId=${night.id}`)
    ).json() as TimeOffWarnings;
    expect(warnings.gaps).toEqual([
      {
        rotationId: night.id,
        rotationName: 'Night desk',
        start: t.clock.now().toISOString(),
        end: '2026-11-09T09:00:00.000Z',
      },
    ]);
    const told = () =>
      t.database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.kind, 'time_off.gap'), eq(notifications.userId, gil.id)));
    const deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
    await runEngineTick(deps, new Date(t.clock.now().getTime() + 120_000));
    expect(await told()).toHaveLength(1);
    await runEngineTick(deps, new Date(t.clock.now().getTime() + 180_000));
    expect(await told()).toHaveLength(1);
  });

  test('a scheduled entry whose person is away is flagged, and its managers are told', async () => {
    const [entry] = await t.database.db
      .insert(scheduleEntries)
      .values({
        rotationId: deskId,
        userId: ana.id,
        startAt: new Date('2026-12-02T09:00:00Z'),
        endAt: new Date('2026-12-02T17:00:00Z'),
      })
      .returning();
    const warnings = (
      await t.call(mia, 'GET', `/api/time-off/warnings?rotationId=${deskId}`)
    ).json() as TimeOffWarnings;
    expect(warnings.collisions).toEqual([
      {
        rotationId: deskId,
        rotationName: 'Desk Schedule',
        scheduleEntryId: entry.id,
        person: { id: ana.id, name: 'Ana Alvarez' },
        entryStart: '2026-12-02T09:00:00.000Z',
        entryEnd: '2026-12-02T17:00:00.000Z',
        awayStart: '2026-12-01T00:00:00.000Z',
        awayEnd: '2026-12-05T00:00:00.000Z',
      },
    ]);
    const deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
    await runEngineTick(deps, new Date(t.clock.now().getTime() + 120_000));
    const told = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.kind, 'time_off.collision'));
    // Mia, a manager and a member of the desk rotation.
    expect(told.map((n) => n.userId)).toEqual([mia.id]);
  });

  test('the warnings are for any signed-in member; a bad rotation id is 400', async () => {
    expect((await t.call(ben, 'GET', '/api/time-off/warnings')).statusCode).toBe(200);
    expect((await t.call(ben, 'GET', '/api/time-off/warnings?rotationId=x')).statusCode).toBe(400);
  });
});
