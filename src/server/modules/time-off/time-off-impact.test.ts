import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Calendar } from '../../../shared/contracts/calendar';
import type { Rotation } from '../../../shared/contracts/rotations';
import type { TeamTimeOff, TimeOffImpact } from '../../../shared/contracts/time-off';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, timeOff } from '../../db/schema';
import { runEngineTick } from '../../engine-tasks';
import { insertRotation } from '../../seed/factories';

/**
 * Issue 35's "time off that covers only the days away" (decision 256), through the API: a week of
 * time off in a daily rotation moves no shift outside that week, in the calendar and in what the
 * engine then does; the impact shown before saving is exactly what saving does; managers read
 * their team's time off in one list.
 */

let t: TestApp;
let ada: User;
let ben: User;
let cleo: User;
let dan: User;
let mona: User;
let otto: User;
let admin: User;
let rotationId: number;

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The shift under way when the test starts, Ada's: 1 December 09:00 to 2 December 09:00 UTC. */
const FIRST = '2026-12-01T09:00:00.000Z';
const TO = '2027-01-05T09:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp();
  // Tuesday 1 December 2026, 10:00 UTC, in Ada's shift; the daily boundary is at 09:00.
  t.clock.set('2026-12-01T10:00:00Z');
  ada = await t.createUser({ name: 'Ada Archer', roles: ['on-call'] });
  ben = await t.createUser({ name: 'Ben Baker', roles: ['on-call'] });
  cleo = await t.createUser({ name: 'Cleo Cole', roles: ['on-call'] });
  dan = await t.createUser({ name: 'Dan Dunn', roles: ['on-call'] });
  mona = await t.createUser({ name: 'Mona Manager', roles: ['manager'] });
  otto = await t.createUser({ name: 'Otto Other', roles: ['manager'] });
  admin = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
  const r = await insertRotation(t.database.db, {
    name: 'Payments daily',
    cadence: 'daily',
    memberIds: [ada.id, ben.id, cleo.id, dan.id],
    holderId: ada.id,
    createdById: mona.id,
    now: t.clock.now(),
  });
  rotationId = r.id;
  await insertRotation(t.database.db, {
    name: 'Elsewhere',
    memberIds: [otto.id],
    createdById: otto.id,
    now: t.clock.now(),
  });
});
afterAll(() => t.close());

/** Who holds each daily shift from FIRST to TO, as the calendar lays it out: a user id per shift. */
async function days(): Promise<number[]> {
  const from = t.clock.now().toISOString();
  const calendar = (
    await t.call(admin, 'GET', `/api/calendar?from=${from}&to=${TO}`)
  ).json() as Calendar;
  const shifts = calendar.rotations.find((r) => r.id === rotationId)?.shifts ?? [];
  const out: number[] = [];
  // Sampled an hour into each shift; shifts already over read 0.
  for (let at = Date.parse(FIRST) + HOUR; at < Date.parse(TO); at += DAY) {
    const s = shifts.find((x) => Date.parse(x.start) <= at && at < Date.parse(x.end));
    out.push(s ? s.userId : 0);
  }
  return out;
}

const written = async () => {
  const [a] = await t.database.db.select({ n: count() }).from(timeOff);
  const [b] = await t.database.db.select({ n: count() }).from(auditEvents);
  return [a.n, b.n];
};

// Ben is away for a week: Thursday 3 December 00:00 to Thursday 10 December 00:00 UTC. His shifts
// start on 2, 6 and 10 December at 09:00: the first overlaps the week (its last nine hours), the
// second lies in it, the third starts after it. Only the first two move.
const away = { startTime: '2026-12-03T00:00:00Z', endTime: '2026-12-10T00:00:00Z' };

describe('a week of time off in a daily rotation (decision 256)', () => {
  test('the preview names who covers which shift, and writes nothing', async () => {
    const before = await written();
    const res = await t.call(ben, 'POST', `/api/users/${ben.id}/time-off/preview`, away);
    expect(res.statusCode, res.body).toBe(200);
    const impact = res.json() as TimeOffImpact;
    expect(
      impact.moves.map((m) => [m.rotationName, m.start, m.end, m.from.name, m.to?.name]),
    ).toEqual([
      [
        'Payments daily',
        '2026-12-02T09:00:00.000Z',
        '2026-12-03T09:00:00.000Z',
        'Ben Baker',
        'Cleo Cole',
      ],
      [
        'Payments daily',
        '2026-12-06T09:00:00.000Z',
        '2026-12-07T09:00:00.000Z',
        'Ben Baker',
        'Cleo Cole',
      ],
    ]);
    expect(impact.moves[0].timeZone).toBe('UTC');
    expect(await written()).toEqual(before);
  });

  test('saving moves exactly what the preview showed, and no shift outside the week', async () => {
    const plain = await days();
    const preview = (
      await t.call(mona, 'POST', `/api/users/${ben.id}/time-off/preview`, away)
    ).json() as TimeOffImpact;
    const saved = await t.call(ben, 'POST', `/api/users/${ben.id}/time-off`, away);
    expect(saved.statusCode, saved.body).toBe(201);
    const moved = await days();
    const weekStart = Date.parse(away.startTime);
    const weekEnd = Date.parse(away.endTime);
    const changed: string[] = [];
    moved.forEach((holder, i) => {
      const start = Date.parse(FIRST) + i * DAY;
      const overlaps = start < weekEnd && weekStart < start + DAY;
      if (!overlaps) expect(holder, new Date(start).toISOString()).toBe(plain[i]);
      if (holder !== plain[i]) changed.push(new Date(start).toISOString());
    });
    expect(changed).toEqual(preview.moves.map((m) => m.start));
    // The shape: A B C D A B C D … becomes A C C D A C C D … in the week, as before after.
    const names = new Map([ada, ben, cleo, dan].map((u, i) => [u.id, 'ABCD'[i]]));
    expect(
      moved
        .slice(0, 10)
        .map((id) => names.get(id))
        .join(''),
    ).toBe('ACCDACCDAB');
  });

  test('the engine, boundary by boundary, hands over what the calendar showed', async () => {
    const expected = await days();
    const deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
    for (let i = 1; i <= 10; i++) {
      // Past each boundary's automatic transfer; nobody passes by hand.
      t.clock.set(new Date(Date.parse(FIRST) + i * DAY + 61 * 60_000).toISOString());
      await runEngineTick(deps, t.clock.now());
      const rotation = (
        await t.call(admin, 'GET', `/api/rotations/${rotationId}`)
      ).json() as Rotation;
      expect(rotation.currentOnCallUserId, `day ${i}`).toBe(expected[i]);
      expect(rotation.nextOnCall?.id, `next after day ${i}`).toBe(expected[i + 1]);
    }
  });
});

describe('who may preview and read whose time off', () => {
  test('a manager of their rotation previews and reads it; a teammate and another manager may not', async () => {
    const body = { startTime: '2027-02-01T00:00:00Z', endTime: '2027-02-02T00:00:00Z' };
    const path = `/api/users/${dan.id}/time-off`;
    expect((await t.call(mona, 'POST', `${path}/preview`, body)).statusCode).toBe(200);
    expect((await t.call(mona, 'GET', path)).statusCode).toBe(200);
    expect((await t.call(admin, 'POST', `${path}/preview`, body)).statusCode).toBe(200);
    for (const who of [cleo, otto]) {
      expect((await t.call(who, 'POST', `${path}/preview`, body)).statusCode).toBe(403);
      expect((await t.call(who, 'GET', path)).statusCode).toBe(403);
    }
    expect(
      (await t.call(admin, 'POST', '/api/users/999999/time-off/preview', body)).statusCode,
    ).toBe(404);
  });

  test('the preview refuses what saving refuses, naming the field', async () => {
    const over = await t.call(ben, 'POST', `/api/users/${ben.id}/time-off/preview`, {
      startTime: '2026-11-01T00:00:00Z',
      endTime: '2026-11-02T00:00:00Z',
    });
    expect(over.statusCode).toBe(400);
    const april = { startTime: '2027-04-01T00:00:00Z', endTime: '2027-04-03T00:00:00Z' };
    expect((await t.call(ben, 'POST', `/api/users/${ben.id}/time-off`, april)).statusCode).toBe(
      201,
    );
    const overlap = await t.call(ben, 'POST', `/api/users/${ben.id}/time-off/preview`, {
      startTime: '2027-04-02T00:00:00Z',
      endTime: '2027-04-04T00:00:00Z',
    });
    expect(overlap.statusCode).toBe(409);
    const bad = await t.call(ben, 'POST', `/api/users/${ben.id}/time-off/preview`, {
      startTime: 'soon',
      endTime: away.endTime,
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('startTime');
  });

  test('GET /api/time-off: a manager sees the team of the rotations they manage, a member their own', async () => {
    await t.call(otto, 'POST', `/api/users/${otto.id}/time-off`, {
      startTime: '2027-03-01T00:00:00Z',
      endTime: '2027-03-02T00:00:00Z',
      note: 'Own errand',
    });
    const teamOf = async (who: User) =>
      ((await t.call(who, 'GET', '/api/time-off')).json() as TeamTimeOff).entries.map(
        (e) => e.person.name,
      );
    expect(await teamOf(mona)).toEqual(['Ben Baker']);
    expect(await teamOf(otto)).toEqual(['Otto Other']);
    expect(await teamOf(cleo)).toEqual([]);
    expect(await teamOf(ben)).toEqual(['Ben Baker']);
    expect((await teamOf(admin)).sort()).toEqual(['Ben Baker', 'Otto Other']);
    const unsigned = await t.app.inject({ method: 'GET', url: '/api/time-off' });
    expect(unsigned.statusCode).toBe(401);
  });
});

describe('a pass by hand at the boundary (decision 256)', () => {
  test('to the cover the app names keeps the order; to someone else, it goes on from them', async () => {
    const people = await Promise.all(
      ['Pia', 'Quinn', 'Rae', 'Sol'].map((n) =>
        t.createUser({ name: `${n} Passwell`, roles: ['on-call'] }),
      ),
    );
    const [pia, quinn, rae, sol] = people;
    const desk = (holder: User, name: string) =>
      insertRotation(t.database.db, {
        name,
        cadence: 'daily',
        memberIds: people.map((p) => p.id),
        holderId: holder.id,
        createdById: mona.id,
        now: t.clock.now(),
      });
    t.clock.set('2026-12-20T10:00:00Z');
    const kept = await desk(pia, 'Pass desk');
    const moved = await desk(pia, 'Pass desk two');
    // Quinn's day (21 December 09:00) falls in his time off: Rae is named for it.
    const off = await t.call(quinn, 'POST', `/api/users/${quinn.id}/time-off`, {
      startTime: '2026-12-21T12:00:00Z',
      endTime: '2026-12-22T00:00:00Z',
    });
    expect(off.statusCode, off.body).toBe(201);
    const read = async (id: number) =>
      (await t.call(admin, 'GET', `/api/rotations/${id}`)).json() as Rotation;
    expect((await read(kept.id)).nextOnCall?.id).toBe(rae.id);

    // At the boundary Pia passes to Rae, the cover the app names: the next day is still Rae's own.
    t.clock.set('2026-12-21T09:05:00Z');
    const pass = await t.call(pia, 'POST', `/api/rotations/${kept.id}/handoff`, {
      toUserId: rae.id,
    });
    expect(pass.statusCode, pass.body).toBe(200);
    expect((await read(kept.id)).nextOnCall?.id).toBe(rae.id);
    // To Sol instead, whom the app did not name: the order goes on from Sol.
    const other = await t.call(pia, 'POST', `/api/rotations/${moved.id}/handoff`, {
      toUserId: sol.id,
    });
    expect(other.statusCode, other.body).toBe(200);
    expect((await read(moved.id)).nextOnCall?.id).toBe(pia.id);

    // The engine then agrees: past the next boundary, Rae holds her own day, then Sol his.
    const deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
    t.clock.set('2026-12-22T10:01:00Z');
    await runEngineTick(deps, t.clock.now());
    expect((await read(kept.id)).currentOnCallUserId).toBe(rae.id);
    expect((await read(moved.id)).currentOnCallUserId).toBe(pia.id);
    t.clock.set('2026-12-23T10:01:00Z');
    await runEngineTick(deps, t.clock.now());
    expect((await read(kept.id)).currentOnCallUserId).toBe(sol.id);
  });
});
