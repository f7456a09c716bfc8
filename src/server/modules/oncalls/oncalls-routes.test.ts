import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Calendar } from '../../../shared/contracts/calendar';
import type { OnCall, OnCalls } from '../../../shared/contracts/oncalls';
import type { Rotation } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { scheduleEntries } from '../../db/schema';
import { insertHandoffs, insertRotation } from '../../seed/factories';

/**
 * GET /api/oncalls (decision 226). Wednesday 4 November 2026, 12:00 UTC. "Weekly" hands over on
 * Mondays at 09:00 UTC: Cal took it on 19 Oct, Dan on 26 Oct, Ana holds it since 2 Nov; Dan
 * covers Ben's week of 9 Nov (a planned cover). "Desk" (Eve, Fay, Gus) has Fay away over her turn
 * of 9 Nov. "Solo" has one member, away the week of 16 Nov. "Paused" is suspended. "Shifts" is
 * scheduled: Gus holds it now, Eve's entries follow.
 */

// Counting SQL statements is switched on only by the query-count test.
let counting = false;
let statements = 0;

let t: TestApp;
let ana: User;
let ben: User;
let cal: User;
let dan: User;
let eve: User;
let fay: User;
let gus: User;
let hal: User;
let ivy: User;
let weeklyId: number;
let deskId: number;
let soloId: number;
let pausedId: number;
let scheduledId: number;

async function as(user: User, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    payload: payload as never,
    headers: { cookie: await t.cookieFor(user) },
  });
}

beforeAll(async () => {
  t = await createTestApp({
    db: {
      onQuery: () => {
        if (counting) statements += 1;
      },
    },
  });
  t.clock.set('2026-11-04T12:00:00Z');
  ana = await t.createUser({ name: 'Ana Alvarez', roles: ['on-call'], phone: '+15550100001' });
  ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
  cal = await t.createUser({ name: 'Cal Chen', roles: ['on-call'] });
  dan = await t.createUser({ name: 'Dan Diaz', roles: ['on-call'], phone: '+15550100004' });
  eve = await t.createUser({ name: 'Eve Evans', roles: ['on-call'] });
  fay = await t.createUser({ name: 'Fay Fox', roles: ['on-call'] });
  gus = await t.createUser({ name: 'Gus Green', roles: ['on-call'] });
  hal = await t.createUser({ name: 'Hal Hill', roles: ['on-call'] });
  ivy = await t.createUser({ name: 'Ivy Incident', roles: ['incident_manager'] });

  const weekly = await insertRotation(t.database.db, {
    name: 'Weekly',
    memberIds: [ana.id, ben.id, cal.id, dan.id],
    holderId: ana.id,
    holderSince: new Date('2026-11-02T09:00:00Z'),
    now: t.clock.now(),
  });
  weeklyId = weekly.id;
  await insertHandoffs(t.database.db, [
    {
      rotationId: weeklyId,
      toUserId: cal.id,
      kind: 'take',
      occurredAt: new Date('2026-10-19T09:00:00Z'),
    },
    {
      rotationId: weeklyId,
      fromUserId: cal.id,
      toUserId: dan.id,
      kind: 'pass',
      occurredAt: new Date('2026-10-26T09:00:00Z'),
    },
    {
      rotationId: weeklyId,
      fromUserId: dan.id,
      toUserId: ana.id,
      kind: 'pass',
      occurredAt: new Date('2026-11-02T09:00:00Z'),
    },
  ]);
  const asked = await as(ben, 'POST', `/api/rotations/${weeklyId}/cover-plans`, {
    coveringUserId: dan.id,
    startTime: '2026-11-09T09:00:00Z',
    endTime: '2026-11-16T09:00:00Z',
    notes: 'Holiday',
  });
  expect(asked.statusCode, asked.body).toBe(201);
  const accepted = await as(dan, 'POST', `/api/coverage-requests/${asked.json().id}/accept`);
  expect(accepted.statusCode, accepted.body).toBe(200);

  const desk = await insertRotation(t.database.db, {
    name: 'Desk',
    memberIds: [eve.id, fay.id, gus.id],
    holderId: eve.id,
    holderSince: new Date('2026-11-02T09:00:00Z'),
    now: t.clock.now(),
  });
  deskId = desk.id;
  const away = await as(fay, 'POST', `/api/users/${fay.id}/time-off`, {
    startTime: '2026-11-08T00:00:00Z',
    endTime: '2026-11-17T00:00:00Z',
  });
  expect(away.statusCode, away.body).toBe(201);

  const solo = await insertRotation(t.database.db, {
    name: 'Solo',
    memberIds: [hal.id],
    holderId: hal.id,
    holderSince: new Date('2026-11-02T09:00:00Z'),
    now: t.clock.now(),
  });
  soloId = solo.id;
  const halAway = await as(hal, 'POST', `/api/users/${hal.id}/time-off`, {
    startTime: '2026-11-16T09:00:00Z',
    endTime: '2026-11-23T09:00:00Z',
  });
  expect(halAway.statusCode, halAway.body).toBe(201);

  const paused = await insertRotation(t.database.db, {
    name: 'Paused',
    memberIds: [gus.id],
    holderId: gus.id,
    holderSince: new Date('2026-10-20T09:00:00Z'),
    suspended: true,
    now: t.clock.now(),
  });
  pausedId = paused.id;

  const scheduled = await insertRotation(t.database.db, {
    name: 'Shifts',
    type: 'scheduled',
    memberIds: [eve.id, gus.id],
    holderId: gus.id,
    holderSince: new Date('2026-11-03T12:00:00Z'),
    now: t.clock.now(),
  });
  scheduledId = scheduled.id;
  await t.database.db.insert(scheduleEntries).values([
    {
      rotationId: scheduledId,
      userId: gus.id,
      startAt: new Date('2026-11-03T12:00:00Z'),
      endAt: new Date('2026-11-06T12:00:00Z'),
    },
    {
      rotationId: scheduledId,
      userId: eve.id,
      startAt: new Date('2026-11-06T12:00:00Z'),
      endAt: new Date('2026-11-10T12:00:00Z'),
    },
    {
      rotationId: scheduledId,
      userId: gus.id,
      startAt: new Date('2026-11-12T12:00:00Z'),
      endAt: new Date('2026-11-14T12:00:00Z'),
    },
  ]);
  await insertHandoffs(t.database.db, [
    {
      rotationId: pausedId,
      toUserId: gus.id,
      kind: 'take',
      occurredAt: new Date('2026-10-20T09:00:00Z'),
    },
  ]);
});
afterAll(() => t.close());

const onCalls = async (user: User, query = '') => {
  const res = await as(user, 'GET', `/api/oncalls${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OnCalls;
};
const of = (answer: OnCalls, rotationId: number) =>
  answer.oncalls.find((o) => o.rotation.id === rotationId) as OnCall;
/** who, since, until, next, source: the answer's gist. */
const gist = (o: OnCall) => ({
  holder: o.holder?.name ?? null,
  source: o.source,
  since: o.since,
  until: o.until,
  next: o.next ? [o.next.holder.name, o.next.from] : null,
});
const calendarShifts = async (rotationId: number, from: string, to: string) => {
  const res = await as(ana, 'GET', `/api/calendar?from=${from}&to=${to}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Calendar).rotations.find((r) => r.id === rotationId);
};

describe('GET /api/oncalls', () => {
  test('now: every rotation by name, its holder with phone, since, until and who is next', async () => {
    const now = await onCalls(ben);
    expect(now.at).toBe('2026-11-04T12:00:00.000Z');
    expect(now.oncalls.map((o) => o.rotation.name)).toEqual([
      'Desk',
      'Paused',
      'Shifts',
      'Solo',
      'Weekly',
    ]);
    const weekly = of(now, weeklyId);
    expect(weekly).toEqual({
      rotation: { id: weeklyId, name: 'Weekly', timeZone: 'UTC', suspended: false },
      holder: { id: ana.id, name: 'Ana Alvarez', email: ana.email, phone: '+15550100001' },
      source: 'rotation',
      since: '2026-11-02T09:00:00.000Z',
      until: '2026-11-09T09:00:00.000Z',
      next: {
        holder: { id: dan.id, name: 'Dan Diaz', email: dan.email, phone: '+15550100004' },
        from: '2026-11-09T09:00:00.000Z',
      },
      gap: null,
    });
    // The same holder as the rotations read shows.
    const rotation = (await as(ben, 'GET', `/api/rotations/${weeklyId}`)).json() as Rotation;
    expect(rotation.currentOnCall?.id).toBe(weekly.holder?.id);
    expect(rotation.holderSince).toBe(weekly.since);
    // A suspended rotation has nobody on call from now on.
    expect(of(now, pausedId)).toMatchObject({
      rotation: { suspended: true },
      holder: null,
      source: null,
      next: null,
    });
  });

  test('in the past: who held the baton, from the handoff before to the one after', async () => {
    const past = await onCalls(ben, '?at=2026-10-28T00:00:00Z');
    expect(past.at).toBe('2026-10-28T00:00:00.000Z');
    expect(gist(of(past, weeklyId))).toEqual({
      holder: 'Dan Diaz',
      source: 'history',
      since: '2026-10-26T09:00:00.000Z',
      until: '2026-11-02T09:00:00.000Z',
      next: ['Ana Alvarez', '2026-11-02T09:00:00.000Z'],
    });
    // The stretch running into now ends where the projection hands over.
    expect(gist(of(await onCalls(ben, '?at=2026-11-03T00:00:00Z'), weeklyId))).toEqual({
      holder: 'Ana Alvarez',
      source: 'history',
      since: '2026-11-02T09:00:00.000Z',
      until: '2026-11-09T09:00:00.000Z',
      next: ['Dan Diaz', '2026-11-09T09:00:00.000Z'],
    });
    // Before the first handoff nobody held it; the suspended rotation's history still answers.
    const early = await onCalls(ben, '?at=2026-10-10T00:00:00Z');
    expect(gist(of(early, weeklyId))).toEqual({
      holder: null,
      source: null,
      since: null,
      until: '2026-10-19T09:00:00.000Z',
      next: ['Cal Chen', '2026-10-19T09:00:00.000Z'],
    });
    expect(of(await onCalls(ben, '?at=2026-10-30T00:00:00Z'), pausedId).holder?.name).toBe(
      'Gus Green',
    );
  });

  test('a future shift covered by planned cover agrees with the calendar', async () => {
    const at = '2026-11-12T15:00:00Z';
    const answer = of(await onCalls(cal, `?at=${at}`), weeklyId);
    expect(answer).toMatchObject({
      holder: { id: dan.id, name: 'Dan Diaz', phone: '+15550100004' },
      source: 'coverage',
      coveredUserId: ben.id,
      since: '2026-11-09T09:00:00.000Z',
      until: '2026-11-16T09:00:00.000Z',
      next: { holder: { id: cal.id }, from: '2026-11-16T09:00:00.000Z' },
    });
    const calendar = await calendarShifts(weeklyId, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z');
    const shift = calendar?.shifts.find((s) => s.start <= answer.since! && answer.since! < s.end);
    expect(shift).toEqual({
      userId: answer.holder?.id,
      start: answer.since,
      end: answer.until,
      source: answer.source,
      coveredUserId: answer.coveredUserId,
    });
  });

  test('every instant of the coming month agrees with the calendar, time off and gaps included', async () => {
    const from = '2026-11-04T12:00:00Z';
    const to = '2026-12-04T12:00:00Z';
    let checked = 0;
    for (const id of [weeklyId, deskId, soloId, scheduledId]) {
      const calendar = await calendarShifts(id, from, to);
      const shifts = calendar?.shifts ?? [];
      for (let i = 1; i < shifts.length - 1; i++) {
        const s = shifts[i];
        const middle = new Date((Date.parse(s.start) + Date.parse(s.end)) / 2).toISOString();
        const answer = of(await onCalls(ben, `?at=${middle}&rotationId=${id}`), id);
        const nextShift = shifts[i + 1];
        expect([answer.holder?.id, answer.source, answer.since, answer.until]).toEqual([
          s.userId,
          s.source,
          s.start,
          s.end,
        ]);
        if (nextShift.start === s.end) expect(answer.next?.holder.id).toBe(nextShift.userId);
        checked += 1;
      }
      for (const gap of calendar?.gaps ?? []) {
        const answer = of(await onCalls(ben, `?at=${gap.start}&rotationId=${id}`), id);
        const shift = shifts.find((s) => s.start <= gap.start && gap.start < s.end);
        expect([answer.holder?.id, answer.gap]).toEqual([shift?.userId, gap]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  test('time off skips a person: Gus takes Fay’s turn', async () => {
    const answer = of(await onCalls(ben, '?at=2026-11-12T00:00:00Z'), deskId);
    expect(gist(answer)).toEqual({
      holder: 'Gus Green',
      source: 'rotation',
      since: '2026-11-09T09:00:00.000Z',
      // Gus covers Fay's week and then holds his own (decision 256): Eve after him.
      until: '2026-11-23T09:00:00.000Z',
      next: ['Eve Evans', '2026-11-23T09:00:00.000Z'],
    });
    // Fay, next in order, is away: Gus comes next.
    const now = of(await onCalls(ben, `?rotationId=${deskId}`), deskId);
    expect(now.next?.holder.name).toBe('Gus Green');
  });

  test('a gap: the sole member keeps the baton while away, and the answer says so', async () => {
    const answer = of(await onCalls(ben, '?at=2026-11-18T00:00:00Z'), soloId);
    expect(answer).toMatchObject({
      holder: { name: 'Hal Hill' },
      source: 'rotation',
      gap: { start: '2026-11-16T09:00:00.000Z', end: '2026-11-23T09:00:00.000Z' },
      since: '2026-11-02T09:00:00.000Z',
      // Nobody takes over within the lookahead.
      until: null,
      next: null,
    });
    expect(of(await onCalls(ben, '?at=2026-11-24T00:00:00Z'), soloId).gap).toBeNull();
  });

  test('a scheduled rotation: the entries, and nobody between them', async () => {
    expect(gist(of(await onCalls(ben, `?rotationId=${scheduledId}`), scheduledId))).toEqual({
      holder: 'Gus Green',
      source: 'schedule',
      since: '2026-11-03T12:00:00.000Z',
      until: '2026-11-06T12:00:00.000Z',
      next: ['Eve Evans', '2026-11-06T12:00:00.000Z'],
    });
    const between = `?at=2026-11-11T00:00:00Z&rotationId=${scheduledId}`;
    expect(gist(of(await onCalls(ben, between), scheduledId))).toEqual({
      holder: null,
      source: null,
      since: '2026-11-10T12:00:00.000Z',
      until: '2026-11-12T12:00:00.000Z',
      next: ['Gus Green', '2026-11-12T12:00:00.000Z'],
    });
  });

  test('rotationId narrows the answer to one rotation; an unknown one is 404', async () => {
    const one = await onCalls(ben, `?rotationId=${deskId}`);
    expect(one.oncalls.map((o) => o.rotation.name)).toEqual(['Desk']);
    const missing = await as(ben, 'GET', '/api/oncalls?rotationId=999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Rotation not found', code: 'NOT_FOUND' });
  });

  test('every role sees every rotation and its holders’ phones; without a session, nothing', async () => {
    // Ivy is in no rotation and holds no baton: the rotations read shows her the same.
    const answer = await onCalls(ivy);
    expect(answer.oncalls).toHaveLength(5);
    expect(of(answer, weeklyId).holder?.phone).toBe('+15550100001');
    // No phone on file: null, never left out.
    expect(of(answer, deskId).holder).toEqual({
      id: eve.id,
      name: 'Eve Evans',
      email: eve.email,
      phone: null,
    });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/oncalls' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('+1555');
  });

  test.each([
    ['?at=nonsense', 'at'],
    ['?at=2028-01-01T00:00:00Z', 'at'],
    ['?at=2025-06-01T00:00:00Z', 'at'],
    ['?rotationId=abc', 'rotationId'],
    ['?rotationId=0', 'rotationId'],
  ])('bad input %s is 400 on %s', async (query, field) => {
    const res = await as(ben, 'GET', `/api/oncalls${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.json().fields).toHaveProperty(field);
  });

  test('a fixed number of statements however many rotations', async () => {
    const count = async (query: string) => {
      await onCalls(ben, query);
      statements = 0;
      counting = true;
      await onCalls(ben, query);
      counting = false;
      return statements;
    };
    const before = [await count(''), await count('?at=2026-10-28T00:00:00Z')];
    for (let i = 0; i < 8; i++) {
      const r = await insertRotation(t.database.db, {
        name: `Extra ${i}`,
        cadence: i % 2 ? 'daily' : 'weekly',
        memberIds: [eve.id, gus.id],
        holderId: gus.id,
        now: t.clock.now(),
      });
      await insertHandoffs(t.database.db, [
        {
          rotationId: r.id,
          toUserId: gus.id,
          kind: 'take',
          occurredAt: new Date('2026-10-27T10:00:00Z'),
        },
      ]);
    }
    expect([await count(''), await count('?at=2026-10-28T00:00:00Z')]).toEqual(before);
  });
});
