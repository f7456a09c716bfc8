import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Calendar, CalendarFeedLinks } from '../../../shared/contracts/calendar';
import type { User } from '../../../shared/contracts/users';
import { handoffsBetween, type ShiftPattern, upcomingShifts } from '../../../shared/domain/shifts';
import { coverageRequests, rotations, scheduleEntries } from '../../db/schema';
import { insertHandoffs, insertRotation } from '../../seed/factories';

// Counting SQL statements is switched on only by the query-count test.
let counting = false;
let statements = 0;

let t: TestApp;
let ana: User;
let ben: User;
let cal: User;
let weeklyId: number;
let scheduledId: number;

const weekly: ShiftPattern = {
  cadence: 'weekly',
  timeZone: 'America/New_York',
  handoffTime: '09:00',
  handoffWeekday: 1,
};

beforeAll(async () => {
  t = await createTestApp({
    db: {
      onQuery: () => {
        if (counting) statements += 1;
      },
    },
  });
  // Tuesday 20 October 2026: New York changes to standard time on 1 November.
  t.clock.set('2026-10-20T15:00:00Z');
  ana = await t.createUser({
    name: 'Ana Alvarez',
    roles: ['on-call'],
    timezone: 'America/New_York',
  });
  ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
  cal = await t.createUser({ name: 'Cal Chen', roles: ['manager'] });
  const r = await insertRotation(t.database.db, {
    name: 'NY Weekly',
    ...weekly,
    memberIds: [ana.id, ben.id, cal.id],
    holderId: ben.id,
    holderSince: new Date('2026-10-19T13:00:00Z'),
    now: t.clock.now(),
  });
  weeklyId = r.id;
  await insertHandoffs(t.database.db, [
    {
      rotationId: r.id,
      fromUserId: null,
      toUserId: ana.id,
      kind: 'take',
      occurredAt: new Date('2026-10-05T13:00:00Z'),
    },
    {
      rotationId: r.id,
      fromUserId: ana.id,
      toUserId: ben.id,
      kind: 'pass',
      occurredAt: new Date('2026-10-19T13:00:00Z'),
    },
  ]);
  await t.database.db.insert(coverageRequests).values({
    rotationId: r.id,
    requesterId: ana.id,
    coveringUserId: cal.id,
    startAt: new Date('2026-11-03T00:00:00Z'),
    endAt: new Date('2026-11-04T00:00:00Z'),
    status: 'accepted',
  });
  const s = await insertRotation(t.database.db, {
    name: 'Desk Schedule',
    type: 'scheduled',
    memberIds: [ana.id, ben.id],
    now: t.clock.now(),
  });
  scheduledId = s.id;
  await t.database.db.insert(scheduleEntries).values([
    {
      rotationId: s.id,
      userId: ana.id,
      startAt: new Date('2026-10-22T12:00:00Z'),
      endAt: new Date('2026-10-23T12:00:00Z'),
    },
    {
      rotationId: s.id,
      userId: ben.id,
      startAt: new Date('2026-10-26T12:00:00Z'),
      endAt: new Date('2026-10-27T12:00:00Z'),
    },
  ]);
  await insertRotation(t.database.db, {
    name: 'Paused',
    memberIds: [ana.id],
    suspended: true,
    now: t.clock.now(),
  });
});
afterAll(() => t.close());

const calendarOf = async (user: User, from: string, to: string) => {
  const res = await t.call(user, 'GET', `/api/calendar?from=${from}&to=${to}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Calendar;
};

describe('GET /api/calendar', () => {
  test('the month: recorded history, then each member a week from the boundary, a coverage window marked', async () => {
    const month = await calendarOf(ana, '2026-10-01T04:00:00Z', '2026-11-08T05:00:00Z');
    const ny = month.rotations.find((r) => r.id === weeklyId);
    expect(ny?.shifts.map((s) => [s.userId, s.start, s.end, s.source])).toEqual([
      [ana.id, '2026-10-05T13:00:00.000Z', '2026-10-19T13:00:00.000Z', 'history'],
      [ben.id, '2026-10-19T13:00:00.000Z', '2026-10-26T13:00:00.000Z', 'history'],
      [cal.id, '2026-10-26T13:00:00.000Z', '2026-11-02T14:00:00.000Z', 'rotation'],
      [ana.id, '2026-11-02T14:00:00.000Z', '2026-11-03T00:00:00.000Z', 'rotation'],
      [cal.id, '2026-11-03T00:00:00.000Z', '2026-11-04T00:00:00.000Z', 'coverage'],
      [ana.id, '2026-11-04T00:00:00.000Z', '2026-11-09T14:00:00.000Z', 'rotation'],
    ]);
    // The projection is the shared function's: the boundaries stay at 09:00 New York time.
    const projected = upcomingShifts(
      {
        pattern: weekly,
        memberIds: [ana.id, ben.id, cal.id],
        holderId: ben.id,
        nextBoundary: new Date('2026-10-26T13:00:00Z'),
      },
      new Date('2026-10-20T15:00:00Z'),
      new Date('2026-11-08T05:00:00Z'),
    );
    expect(projected.map((s) => s.start.toISOString()).slice(1)).toEqual([
      '2026-10-26T13:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
    ]);
    const desk = month.rotations.find((r) => r.id === scheduledId);
    expect(desk?.shifts.map((s) => [s.userId, s.start, s.source])).toEqual([
      [ana.id, '2026-10-22T12:00:00.000Z', 'schedule'],
      [ben.id, '2026-10-26T12:00:00.000Z', 'schedule'],
    ]);
    const paused = month.rotations.find((r) => r.name === 'Paused');
    expect(paused).toMatchObject({ suspended: true, shifts: [], memberIds: [ana.id] });
    // Each rotation names its members in turn order (a manager among them), whose rotations they are.
    expect(ny?.memberIds).toEqual([ana.id, ben.id, cal.id]);
    expect(desk?.memberIds).toEqual([ana.id, ben.id]);
    expect(month.people.map((p) => p.name).sort()).toEqual([
      'Ana Alvarez',
      'Ben Brooks',
      'Cal Chen',
    ]);
  });

  test('a fixed number of statements however many rotations', async () => {
    const count = async () => {
      await calendarOf(ben, '2026-10-01T04:00:00Z', '2026-11-08T05:00:00Z');
      statements = 0;
      counting = true;
      await calendarOf(ben, '2026-10-01T04:00:00Z', '2026-11-08T05:00:00Z');
      counting = false;
      return statements;
    };
    const before = await count();
    for (let i = 0; i < 12; i++) {
      const r = await insertRotation(t.database.db, {
        name: `Extra ${i}`,
        cadence: i % 2 ? 'daily' : 'weekly',
        memberIds: [ana.id, ben.id],
        holderId: ana.id,
        now: t.clock.now(),
      });
      await insertHandoffs(t.database.db, [
        {
          rotationId: r.id,
          toUserId: ana.id,
          kind: 'take',
          occurredAt: new Date('2026-10-10T10:00:00Z'),
        },
      ]);
    }
    expect(await count()).toBe(before);
    expect(before).toBeLessThanOrEqual(9);
    await t.database.db.delete(rotations).where(eq(rotations.cadence, 'daily'));
  });

  test.each([
    ['?from=2026-11-01T00:00:00Z', 'to'],
    ['?from=nonsense&to=2026-11-01T00:00:00Z', 'from'],
    ['?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', 'to'],
    ['?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z', 'to'],
  ])('a bad span %s is 400 on %s', async (query, field) => {
    const res = await t.call(ana, 'GET', `/api/calendar${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty(field);
  });
});

describe('calendar feeds', () => {
  function parse(body: string) {
    const root = new ICAL.Component(ICAL.parse(body));
    for (const zone of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    return root.getAllSubcomponents('vevent').map((c) => {
      const event = new ICAL.Event(c);
      return {
        summary: event.summary,
        tzid: c.getFirstProperty('dtstart')?.getParameter('tzid'),
        local: event.startDate.toString(),
        start: event.startDate.toJSDate().toISOString(),
        end: event.endDate.toJSDate().toISOString(),
      };
    });
  }

  test('a personal feed of one’s own shifts in the rotation’s time zone, across the DST change', async () => {
    expect((await t.call(ana, 'GET', '/api/calendar/feed')).json()).toEqual({ active: false });
    const reset = await t.call(ana, 'POST', '/api/calendar/feed/reset');
    expect(reset.statusCode).toBe(200);
    const links = reset.json() as CalendarFeedLinks;
    expect(links.personalUrl).toMatch(
      /^http:\/\/localhost:80\/api\/calendar\/feeds\/[\w-]{43}\/me\.ics$/,
    );
    expect((await t.call(ana, 'GET', '/api/calendar/feed')).json()).toEqual({ active: true });

    const path = new URL(links.personalUrl).pathname;
    const res = await t.app.inject({ url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const events = parse(res.body).filter((e) => e.summary.includes('NY Weekly'));
    expect(events).toEqual([
      {
        summary: 'On call: NY Weekly',
        tzid: 'America/New_York',
        local: '2026-10-05T09:00:00',
        start: '2026-10-05T13:00:00.000Z',
        end: '2026-10-19T13:00:00.000Z',
      },
      {
        summary: 'On call: NY Weekly',
        tzid: 'America/New_York',
        local: '2026-11-02T09:00:00',
        start: '2026-11-02T14:00:00.000Z',
        end: '2026-11-03T00:00:00.000Z',
      },
      {
        summary: 'On call: NY Weekly',
        tzid: 'America/New_York',
        // The coverage window ends at midnight UTC: 19:00 in New York, after the change to EST.
        local: '2026-11-03T19:00:00',
        start: '2026-11-04T00:00:00.000Z',
        end: '2026-11-09T14:00:00.000Z',
      },
      ...['2026-11-23', '2026-12-14', '2027-01-04'].map((day) => ({
        summary: 'On call: NY Weekly',
        tzid: 'America/New_York',
        local: `${day}T09:00:00`,
        start: `${day}T14:00:00.000Z`,
        end: new Date(Date.parse(`${day}T14:00:00.000Z`) + 7 * 86_400_000).toISOString(),
      })),
    ]);
  });

  test('a rotation feed lists everyone’s shifts, each boundary where the shift functions put it', async () => {
    const links = (
      await t.call(ben, 'POST', '/api/calendar/feed/reset')
    ).json() as CalendarFeedLinks;
    const url = links.rotations.find((r) => r.id === weeklyId)?.url as string;
    expect(url).toBe(links.rotationUrlTemplate.replace('{rotationId}', String(weeklyId)));
    const events = parse((await t.app.inject({ url: new URL(url).pathname })).body);
    const now = t.clock.now();
    const boundaries = handoffsBetween(weekly, now, new Date(now.getTime() + 90 * 86_400_000));
    const starts = events.map((e) => e.start);
    for (const b of boundaries) {
      // Every boundary starts a shift, except where the coverage window ends the day after one.
      expect(
        starts.includes(b.toISOString()) || b.toISOString() === '2026-11-02T14:00:00.000Z',
      ).toBe(true);
    }
    expect(events.every((e) => e.tzid === 'America/New_York')).toBe(true);
    expect(events.filter((e) => e.local.endsWith('T09:00:00')).length).toBeGreaterThanOrEqual(
      boundaries.length - 1,
    );
    expect(events.find((e) => e.summary === 'NY Weekly: Cal Chen (coverage)')).toMatchObject({
      start: '2026-11-03T00:00:00.000Z',
    });
  });

  test('a reset secret stops the old links; a made-up secret or rotation is 404', async () => {
    const first = (
      await t.call(cal, 'POST', '/api/calendar/feed/reset')
    ).json() as CalendarFeedLinks;
    const second = (
      await t.call(cal, 'POST', '/api/calendar/feed/reset')
    ).json() as CalendarFeedLinks;
    expect((await t.app.inject({ url: new URL(first.personalUrl).pathname })).statusCode).toBe(404);
    expect((await t.app.inject({ url: new URL(second.personalUrl).pathname })).statusCode).toBe(
      200,
    );
    const base = new URL(second.personalUrl).pathname.replace(/\/me\.ics$/, '');
    expect((await t.app.inject({ url: `${base}/rotations/999999.ics` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `${base}/rotations/abc` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/api/calendar/feeds/not-a-secret/me.ics' })).statusCode,
    ).toBe(404);
    // Only the hash is stored.
    const stored = await t.database.db.query.users.findFirst({
      where: (u, { eq: is }) => is(u.id, cal.id),
    });
    expect(stored?.calendarTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(second.personalUrl).not.toContain(stored?.calendarTokenHash as string);
  });
});
