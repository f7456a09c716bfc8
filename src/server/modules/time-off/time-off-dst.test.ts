import ICAL from 'ical.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Calendar, CalendarFeedLinks } from '../../../shared/contracts/calendar';
import type { Rotation } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { runEngineTick } from '../../engine-tasks';
import { insertHandoffs, insertRotation } from '../../seed/factories';

/**
 * Issue 18's moved clock: time off re-flows a weekly rotation across New York's change to
 * standard time (Sunday 1 November 2026), and the calendar (`GET /api/calendar`), the rotation's
 * iCalendar feed and `nextOnCall` agree with each other, and with what the engine then does.
 */

let t: TestApp;
let ana: User;
let ben: User;
let cal: User;
let rotationId: number;
let feedPath: string;

const names = new Map<string, number>();

beforeAll(async () => {
  t = await createTestApp();
  // Tuesday 20 October 2026, 11:00 in New York (EDT).
  t.clock.set('2026-10-20T15:00:00Z');
  ana = await t.createUser({
    name: 'Ana Alvarez',
    roles: ['on-call'],
    timezone: 'America/New_York',
  });
  ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
  cal = await t.createUser({ name: 'Cal Chen', roles: ['on-call'] });
  for (const u of [ana, ben, cal]) names.set(u.name, u.id);
  const r = await insertRotation(t.database.db, {
    name: 'NY Weekly',
    cadence: 'weekly',
    timeZone: 'America/New_York',
    handoffTime: '09:00',
    handoffWeekday: 1,
    memberIds: [ana.id, ben.id, cal.id],
    holderId: ana.id,
    holderSince: new Date('2026-10-19T13:00:00Z'),
    now: t.clock.now(),
  });
  rotationId = r.id;
  await insertHandoffs(t.database.db, [
    {
      rotationId,
      fromUserId: cal.id,
      toUserId: ana.id,
      kind: 'pass',
      occurredAt: new Date('2026-10-19T13:00:00Z'),
    },
  ]);
  const links = (
    await t.app.inject({
      method: 'POST',
      url: '/api/calendar/feed/reset',
      headers: { cookie: await t.cookieFor(ana) },
    })
  ).json() as CalendarFeedLinks;
  feedPath = new URL(links.rotationUrlTemplate.replace('{rotationId}', String(rotationId)))
    .pathname;
});
afterAll(() => t.close());

const get = async (user: User, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: await t.cookieFor(user) } });

/** Who holds which week from now on, as each of the three reads it: [user id, start ISO]. */
async function views() {
  const now = t.clock.now();
  const to = new Date('2026-11-30T14:00:00Z');
  const calendar = (
    await get(ben, `/api/calendar?from=${now.toISOString()}&to=${to.toISOString()}`)
  ).json() as Calendar;
  const fromCalendar = (calendar.rotations.find((r) => r.id === rotationId)?.shifts ?? [])
    .filter((s) => s.source === 'rotation')
    .map((s) => [s.userId, s.start] as const);

  const feed = await t.app.inject({ url: feedPath });
  expect(feed.statusCode).toBe(200);
  const root = new ICAL.Component(ICAL.parse(feed.body));
  for (const zone of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const fromFeed = root
    .getAllSubcomponents('vevent')
    .map((c) => new ICAL.Event(c))
    .map((e) => [names.get(e.summary.replace('NY Weekly: ', '')), e.startDate.toJSDate()] as const)
    .filter(([, start]) => start.getTime() > now.getTime() && start.getTime() < to.getTime())
    .map(([id, start]) => [id, start.toISOString()] as const);

  const rotation = (await get(ben, `/api/rotations/${rotationId}`)).json() as Rotation;
  return { fromCalendar, fromFeed, rotation };
}

test('time off re-flows a weekly rotation across the DST change; calendar, feed and nextOnCall agree with the engine', async () => {
  // Ben is away in his week, the one New York changes to standard time in.
  const recorded = await t.app.inject({
    method: 'POST',
    url: `/api/users/${ben.id}/time-off`,
    payload: {
      startTime: '2026-10-29T04:00:00Z',
      endTime: '2026-10-31T04:00:00Z',
      note: 'Wedding',
    },
    headers: { cookie: await t.cookieFor(ben) },
  });
  expect(recorded.statusCode, recorded.body).toBe(201);

  const expected: (readonly [number, string])[] = [
    // Cal covers Ben's week (09:00 EDT) and then holds his own (09:00 EST: the change), one
    // stretch; every other week is where it was (decision 256): Ana, Ben, Cal.
    [cal.id, '2026-10-26T13:00:00.000Z'],
    [ana.id, '2026-11-09T14:00:00.000Z'],
    [ben.id, '2026-11-16T14:00:00.000Z'],
    [cal.id, '2026-11-23T14:00:00.000Z'],
  ];
  const first = await views();
  expect(first.fromCalendar.slice(1)).toEqual(expected);
  expect(first.fromFeed).toEqual(first.fromCalendar.slice(1));
  expect(first.rotation.nextOnCall?.id).toBe(cal.id);

  // The clock moves past each boundary's automatic transfer; nobody passes by hand.
  const deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
  for (const [i, [holderId, start]] of expected.slice(0, 3).entries()) {
    // Cal's own week inside his stretch is a boundary too: the engine keeps the baton with him.
    if (i === 1) {
      t.clock.set('2026-11-02T15:01:00Z');
      await runEngineTick(deps, t.clock.now());
      expect((await views()).rotation.currentOnCallUserId).toBe(cal.id);
    }
    t.clock.set(new Date(Date.parse(start) + 61 * 60_000).toISOString());
    await runEngineTick(deps, t.clock.now());
    const now = await views();
    expect(now.rotation.currentOnCallUserId).toBe(holderId);
    // Covering Ben's week, Cal holds the next shift too: his own turn.
    expect(now.rotation.nextOnCall?.id).toBe(i === 0 ? cal.id : expected[i + 1][0]);
    expect(now.fromCalendar.slice(1)).toEqual(expected.slice(i + 1));
    expect(now.fromFeed).toEqual(expected.slice(i + 1));
  }
});
