import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { ShiftNotice } from '../../../shared/contracts/shift-changes';
import type { User } from '../../../shared/contracts/users';
import { notifications, rotationMembers, shiftBaselines, shiftNotices } from '../../db/schema';
import type { EngineDeps } from '../../engine/engine-task';
import { runEngineTick } from '../../engine-tasks';
import { insertRotation } from '../../seed/factories';
import { type Channels, createEmailChannel } from '../notifications/channels';
import { decryptContent, deliverDue } from '../notifications/outbox';

/**
 * "Your shift moved" (decision 219) through the API and the engine, with a moved clock: edits
 * to a rotation keep a baseline; two minutes after the first, the engine tells exactly the people
 * whose shifts in the next 8 weeks changed, by email through a real SMTP server, once, and leaves
 * them a notice on the dashboard.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

let t: TestApp;
let deps: EngineDeps;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let channels: Channels;
let manager: User;
let admin: User;
let ana: User;
let ben: User;
let cal: User;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://baton.example.test' } });
  deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
  smtp = await startSmtpServer();
  channels = { email: createEmailChannel(smtp.url, 'Baton <baton@example.com>', 2_000) };
  ({ manager, admin } = await t.cast({ manager: {}, admin: {} }));
  ana = await t.createUser({ name: 'Ana Alvarez', timezone: 'Europe/Berlin' });
  ben = await t.createUser({ name: 'Ben Brooks', timezone: 'America/New_York' });
  cal = await t.createUser({ name: 'Cal Chen', timezone: 'Europe/Berlin' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  await t.database.db.delete(notifications);
  smtp.received.length = 0;
  // Friday 27 November 2026, 22:00 in Berlin: the holder's shift runs to Monday 09:00.
  t.clock.set('2026-11-27T21:00:00Z');
});

async function ok(
  user: User,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const res = await t.call(user, method, url, payload);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
}

/** Payments primary: weekly, Mondays 09:00 in Berlin; Ana, Ben, Cal in that order; Ana holds it. */
async function payments() {
  return insertRotation(t.database.db, {
    name: 'Payments primary',
    timeZone: 'Europe/Berlin',
    memberIds: [ana.id, ben.id, cal.id],
    holderId: ana.id,
    createdById: manager.id,
    now: t.clock.now(),
  });
}

/** reorder puts the members in the order of the users given. */
async function reorder(rotationId: number, users: User[]) {
  const rows = await t.database.db
    .select()
    .from(rotationMembers)
    .where(eq(rotationMembers.rotationId, rotationId));
  const idOf = (u: User) => rows.find((r) => r.userId === u.id)?.id as number;
  await ok(manager, 'PATCH', `/api/rotations/${rotationId}/members/reorder`, {
    members: users.map((u, order) => ({ id: idOf(u), order })),
  });
}

const tick = () => runEngineTick(deps, t.clock.now());

/** The shift-change messages in the outbox, of one rotation's baselines: [recipient, content]. */
async function told() {
  const rows = await t.database.db
    .select()
    .from(notifications)
    .where(eq(notifications.kind, 'shifts.changed'))
    .orderBy(asc(notifications.id));
  return rows.map((r) => ({
    userId: r.userId,
    channel: r.channel,
    content: decryptContent(r, t.cipher),
  }));
}

const nameOf = (id: number | null) =>
  [ana, ben, cal, manager].find((u) => u.id === id)?.name ?? String(id);

/** Quoted-printable bodies: soft line breaks joined, escapes decoded as UTF-8 bytes. */
const decodeMail = (raw: string) =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      ),
    'latin1',
  ).toString('utf8');

const deliver = () =>
  deliverDue({ db: t.database.db, cipher: t.cipher, channels, clock: t.clock, random: () => 0.5 });

describe('reordering three members', () => {
  test('emails exactly the people whose next 8 weeks changed, with the right dates in their zones', async () => {
    const r = await payments();
    await reorder(r.id, [ana, cal, ben]);
    // Nothing is told before the two minutes are up.
    t.clock.advance(2 * MINUTE - SECOND);
    await tick();
    expect(await told()).toEqual([]);
    t.clock.advance(SECOND);
    await tick();

    const rows = await told();
    // Ana keeps her turns (she holds the baton, and comes third either way); Morgan is no member.
    expect(rows.map((n) => nameOf(n.userId)).sort()).toEqual(['Ben Brooks', 'Cal Chen']);
    const benText = rows.find((n) => n.userId === ben.id)?.content.text ?? '';
    const calText = rows.find((n) => n.userId === cal.id)?.content.text ?? '';
    // Ben was next (Mon 30 Nov, 09:00 in Berlin = 03:00 in New York); now Cal is.
    expect(benText).toContain(
      'Your shift Mon Nov 30, 3:00 AM – Mon Dec 7, 3:00 AM (America/New_York) in Payments primary moved to Mon Dec 7 – Mon Dec 14.',
    );
    expect(benText).toContain(
      'Your shift Mon Dec 21, 3:00 AM – Mon Dec 28, 3:00 AM (America/New_York) in Payments primary moved to Mon Dec 28 – Mon Jan 4, 2027.',
    );
    expect(calText).toContain(
      'Your shift Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary moved to Mon Nov 30 – Mon Dec 7.',
    );
    expect(calText).toContain(`https://baton.example.test/rotations/${r.id}`);
    expect(rows[0].content.subject).toBe('Your on-call shifts for Payments primary changed');

    // Delivered through the SMTP server, once each.
    expect((await deliver()).sent).toBe(2);
    expect((await deliver()).sent).toBe(0);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([ben.email, cal.email].sort());
    const mail = decodeMail(smtp.received.find((m) => m.to[0] === cal.email)?.raw ?? '');
    expect(mail).toContain('Subject: Your on-call shifts for Payments primary changed');
    expect(mail).toContain(
      'Your shift Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary moved to Mon Nov 30 – Mon Dec 7.',
    );

    // Told once: later ticks send nothing more, and the baseline is gone.
    t.clock.advance(10 * MINUTE);
    await tick();
    expect(await told()).toHaveLength(2);
    expect(
      await t.database.db.select().from(shiftBaselines).where(eq(shiftBaselines.rotationId, r.id)),
    ).toEqual([]);
  });

  test('a burst of edits, each within two minutes of the last, gives one message each two minutes after the last; the next edit, later, another', async () => {
    const r = await payments();
    await reorder(r.id, [ana, cal, ben]);
    t.clock.advance(50 * SECOND);
    await ok(manager, 'PATCH', `/api/rotations/${r.id}`, { handoffTime: '10:00' });
    t.clock.advance(50 * SECOND);
    await ok(manager, 'PATCH', `/api/rotations/${r.id}`, { handoffTime: '09:00' });
    t.clock.advance(50 * SECOND);
    await reorder(r.id, [ana, ben, cal]);
    t.clock.advance(50 * SECOND);
    await reorder(r.id, [ana, cal, ben]);
    // 3:20 after the first edit: a fixed two-minute window would have told the first edits alone.
    t.clock.advance(2 * MINUTE - SECOND);
    await tick();
    expect(await told()).toEqual([]);
    t.clock.advance(SECOND);
    await tick();
    await tick();
    const rows = await told();
    expect(rows.map((n) => nameOf(n.userId)).sort()).toEqual(['Ben Brooks', 'Cal Chen']);
    // The one message says where the shifts ended up, against where they were before the first edit.
    expect(rows.find((n) => n.userId === cal.id)?.content.text).toContain(
      'moved to Mon Nov 30 – Mon Dec 7.',
    );

    // An edit after the message starts a new baseline, told two minutes after it.
    t.clock.advance(5 * MINUTE);
    await reorder(r.id, [ana, ben, cal]);
    t.clock.advance(2 * MINUTE);
    await tick();
    expect((await told()).map((n) => nameOf(n.userId)).sort()).toEqual([
      'Ben Brooks',
      'Ben Brooks',
      'Cal Chen',
      'Cal Chen',
    ]);
  });

  test('edits that never pause for two minutes are told ten minutes after the first', async () => {
    const r = await payments();
    // An edit every 30 seconds from 0:00 to 9:00, the order swapped back and forth.
    for (let i = 0; i <= 18; i++) {
      await reorder(r.id, i % 2 === 0 ? [ana, cal, ben] : [ana, ben, cal]);
      t.clock.advance(30 * SECOND);
      await tick();
      expect(await told()).toEqual([]);
    }
    // 10:00, a minute after the last edit: told now, not at 11:00.
    t.clock.advance(30 * SECOND);
    await tick();
    expect((await told()).map((n) => nameOf(n.userId)).sort()).toEqual(['Ben Brooks', 'Cal Chen']);
  });

  test('edits that leave everyone’s shifts where they were tell nobody', async () => {
    const r = await payments();
    await reorder(r.id, [ana, cal, ben]);
    t.clock.advance(30 * SECOND);
    await reorder(r.id, [ana, ben, cal]);
    await ok(manager, 'PATCH', `/api/rotations/${r.id}`, { name: 'Payments primary (EU)' });
    t.clock.advance(2 * MINUTE);
    await tick();
    expect(await told()).toEqual([]);
    expect(
      await t.database.db.select().from(shiftBaselines).where(eq(shiftBaselines.rotationId, r.id)),
    ).toEqual([]);
  });

  test('a refused edit keeps no baseline (it rolls back with the edit)', async () => {
    const r = await payments();
    const res = await t.call(manager, 'PATCH', `/api/rotations/${r.id}/members/reorder`, {
      members: [{ id: 999_999, order: 0 }],
    });
    expect(res.statusCode).toBe(409);
    expect(
      await t.database.db.select().from(shiftBaselines).where(eq(shiftBaselines.rotationId, r.id)),
    ).toEqual([]);
  });
});

describe('other changes', () => {
  test('suspending tells every member their shifts were removed; the holder’s from now', async () => {
    const r = await payments();
    await ok(admin, 'POST', `/api/rotations/${r.id}/suspend`);
    t.clock.advance(2 * MINUTE);
    await tick();
    const rows = await told();
    expect(rows.map((n) => nameOf(n.userId)).sort()).toEqual([
      'Ana Alvarez',
      'Ben Brooks',
      'Cal Chen',
    ]);
    expect(rows.find((n) => n.userId === ana.id)?.content.text).toContain(
      'Your shift Fri Nov 27, 10:02 PM – Mon Nov 30, 9:00 AM (Europe/Berlin) in Payments primary was removed: you are not on call then.',
    );
  });

  test('an accepted coverage window tells the covering member of the new shift, and the requester; withdrawing it, again', async () => {
    const r = await payments();
    const asked = await ok(ana, 'POST', `/api/rotations/${r.id}/cover`, {
      coveringUserId: cal.id,
      startTime: '2026-11-28T08:00:00.000Z',
      endTime: '2026-11-29T08:00:00.000Z',
    });
    // Asking changes nothing yet.
    t.clock.advance(3 * MINUTE);
    await tick();
    expect(await told()).toEqual([]);
    await ok(cal, 'POST', `/api/coverage-requests/${asked.json().id}/accept`);
    t.clock.advance(2 * MINUTE);
    await tick();
    const rows = await told();
    expect(rows.map((n) => nameOf(n.userId)).sort()).toEqual(['Ana Alvarez', 'Cal Chen']);
    expect(rows.find((n) => n.userId === cal.id)?.content.text).toContain(
      'You have a new shift Sat Nov 28, 9:00 AM – Sun Nov 29, 9:00 AM (Europe/Berlin) in Payments primary.',
    );

    // Withdrawing the accepted window gives the shift back: Cal hears it was removed.
    await t.database.db.delete(notifications);
    await ok(ana, 'POST', `/api/coverage-requests/${asked.json().id}/cancel`);
    t.clock.advance(2 * MINUTE);
    await tick();
    const again = await told();
    expect(again.map((n) => nameOf(n.userId)).sort()).toEqual(['Ana Alvarez', 'Cal Chen']);
    expect(again.find((n) => n.userId === cal.id)?.content.text).toContain(
      'Your shift Sat Nov 28, 9:00 AM – Sun Nov 29, 9:00 AM (Europe/Berlin) in Payments primary was removed: Ana Alvarez is on call then.',
    );
  });

  test('cover a manager arranges for next week tells the covering member and the person covered', async () => {
    const r = await payments();
    // Ben holds the week from Monday 30 November; the manager arranges Cal for its Wednesday.
    await ok(manager, 'POST', `/api/rotations/${r.id}/cover-plans`, {
      requesterId: ben.id,
      coveringUserId: cal.id,
      startTime: '2026-12-02T08:00:00.000Z',
      endTime: '2026-12-03T08:00:00.000Z',
      notes: 'Ben is ill',
    });
    t.clock.advance(2 * MINUTE);
    await tick();
    const rows = await told();
    expect(rows.map((n) => nameOf(n.userId)).sort()).toEqual(['Ben Brooks', 'Cal Chen']);
    expect(rows.find((n) => n.userId === cal.id)?.content.text).toContain(
      'You have a new shift Wed Dec 2, 9:00 AM – Thu Dec 3, 9:00 AM (Europe/Berlin) in Payments primary.',
    );
  });

  test('time off over a shift tells the person away and the member who takes the turn', async () => {
    // People of their own: their time off must move no other test's rotation.
    const [dee, eli, fay] = await Promise.all(
      ['Dee Dunn', 'Eli Evans', 'Fay Fox'].map((name) =>
        t.createUser({ name, timezone: 'Europe/Berlin' }),
      ),
    );
    const r = await insertRotation(t.database.db, {
      name: 'Checkout primary',
      timeZone: 'Europe/Berlin',
      memberIds: [dee.id, eli.id, fay.id],
      holderId: dee.id,
      createdById: manager.id,
      now: t.clock.now(),
    });
    // Eli's week is Monday 30 November to Monday 7 December; he is away from its Tuesday.
    await ok(eli, 'POST', `/api/users/${eli.id}/time-off`, {
      startTime: '2026-12-01T08:00:00.000Z',
      endTime: '2026-12-03T08:00:00.000Z',
      note: 'Dentist, then rest',
    });
    t.clock.advance(2 * MINUTE);
    await tick();
    const rows = await told();
    const names = new Map([dee, eli, fay].map((u) => [u.id, u.name]));
    expect(rows.map((n) => names.get(n.userId ?? 0)).sort()).toEqual(['Eli Evans', 'Fay Fox']);
    // Fay covers Eli's week; nobody's other weeks move (decision 256), and the message says who.
    expect(rows.find((n) => n.userId === eli.id)?.content.text).toContain(
      `Your shift Mon Nov 30, 9:00 AM – Mon Dec 7, 9:00 AM (Europe/Berlin) in ${r.name} was removed: Fay Fox is on call then.`,
    );
  });

  test('a schedule entry added to a scheduled rotation tells its member', async () => {
    const r = await insertRotation(t.database.db, {
      name: 'Database on-call',
      type: 'scheduled',
      memberIds: [ana.id, ben.id],
      createdById: manager.id,
      now: t.clock.now(),
    });
    await ok(admin, 'POST', `/api/rotations/${r.id}/schedules`, {
      userId: ben.id,
      startTime: '2026-12-02T14:00:00.000Z',
      endTime: '2026-12-03T14:00:00.000Z',
    });
    t.clock.advance(2 * MINUTE);
    await tick();
    const rows = await told();
    expect(rows.map((n) => nameOf(n.userId))).toEqual(['Ben Brooks']);
    expect(rows[0].content.text).toContain(
      'You have a new shift Wed Dec 2, 9:00 AM – Thu Dec 3, 9:00 AM (America/New_York) in Database on-call.',
    );
  });
});

describe('the dashboard notice', () => {
  test('lists my notices in my zone, dismisses one of mine, and refuses anyone else’s', async () => {
    await t.database.db.delete(shiftNotices);
    const r = await payments();
    await reorder(r.id, [ana, cal, ben]);
    t.clock.advance(2 * MINUTE);
    await tick();

    expect((await ok(ana, 'GET', '/api/user/shift-notices')).json()).toEqual([]);
    const mine = (await ok(cal, 'GET', '/api/user/shift-notices')).json() as ShiftNotice[];
    expect(mine).toHaveLength(1);
    expect(mine[0].rotation).toEqual({ id: r.id, name: 'Payments primary' });
    expect(mine[0].timeZone).toBe('Europe/Berlin');
    expect(mine[0].sentences[0]).toBe(
      'Your shift Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary moved to Mon Nov 30 – Mon Dec 7.',
    );
    expect(mine[0].changes[0]).toEqual({
      kind: 'moved',
      before: { start: '2026-12-07T08:00:00.000Z', end: '2026-12-14T08:00:00.000Z' },
      after: { start: '2026-11-30T08:00:00.000Z', end: '2026-12-07T08:00:00.000Z' },
    });

    // Someone else's notice is not there for them (404, nothing changed); a bad id is a 400.
    const theirs = await t.call(ben, 'POST', `/api/user/shift-notices/${mine[0].id}/dismiss`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Notice not found' });
    expect((await t.call(cal, 'POST', '/api/user/shift-notices/abc/dismiss')).statusCode).toBe(400);
    expect((await ok(cal, 'GET', '/api/user/shift-notices')).json()).toHaveLength(1);

    const dismissed = await t.call(cal, 'POST', `/api/user/shift-notices/${mine[0].id}/dismiss`);
    expect(dismissed.statusCode).toBe(204);
    expect((await ok(cal, 'GET', '/api/user/shift-notices')).json()).toEqual([]);
    // Dismissing again changes nothing.
    expect(
      (await t.call(cal, 'POST', `/api/user/shift-notices/${mine[0].id}/dismiss`)).statusCode,
    ).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/shift-notices' })).statusCode).toBe(
      401,
    );
  });
});

describe('one notice a rotation, and only while it matters (decision 262)', () => {
  // Another test's rotation may still be told meanwhile: each test reads its own rotation's.
  let rotationId = 0;
  const notices = async (user: User) =>
    ((await ok(user, 'GET', '/api/user/shift-notices')).json() as ShiftNotice[]).filter(
      (n) => n.rotation.id === rotationId,
    );
  beforeEach(async () => {
    await t.database.db.delete(shiftBaselines);
  });

  test('a later batch replaces the person’s open notice about the rotation with the two merged', async () => {
    await t.database.db.delete(shiftNotices);
    const r = await payments();
    rotationId = r.id;
    await reorder(r.id, [ana, cal, ben]);
    t.clock.advance(2 * MINUTE);
    await tick();
    const first = await notices(ben);
    expect(first).toHaveLength(1);
    expect(first[0].sentences[0]).toBe(
      'Your shift Mon Nov 30, 3:00 AM – Mon Dec 7, 3:00 AM (America/New_York) in Payments primary moved to Mon Dec 7 – Mon Dec 14.',
    );

    // Later, Ben leaves the rotation: every shift of his goes, and his one notice says so,
    // from where his shifts were before the first batch, naming who is on call instead.
    t.clock.advance(10 * MINUTE);
    await ok(manager, 'DELETE', `/api/rotations/${r.id}/on-call/${ben.id}`);
    t.clock.advance(2 * MINUTE);
    await tick();
    const replaced = await notices(ben);
    expect(replaced).toHaveLength(1);
    expect(replaced[0].id).not.toBe(first[0].id);
    expect(replaced[0].sentences[0]).toBe(
      'Your shift Mon Nov 30, 3:00 AM – Mon Dec 7, 3:00 AM (America/New_York) in Payments primary was removed: Cal Chen is on call then.',
    );
    expect(replaced[0].changes.every((c) => c.kind === 'removed')).toBe(true);
    expect(replaced[0].changes[0].coveredBy).toEqual([cal.id]);
    // The older row is gone, not hidden: one row each, per person and rotation.
    const rows = await t.database.db
      .select()
      .from(shiftNotices)
      .where(and(eq(shiftNotices.userId, ben.id), eq(shiftNotices.rotationId, r.id)));
    expect(rows.map((row) => row.id)).toEqual([replaced[0].id]);
    // Each batch still sent its own message: the notice is the one that stays current.
    expect((await told()).filter((n) => n.userId === ben.id)).toHaveLength(2);
  });

  test('a batch that undoes the first leaves no notice; a dismissed one is not merged', async () => {
    await t.database.db.delete(shiftNotices);
    const r = await payments();
    rotationId = r.id;
    await reorder(r.id, [ana, cal, ben]);
    t.clock.advance(2 * MINUTE);
    await tick();
    const [calFirst] = await notices(cal);
    expect(calFirst).toBeDefined();
    await ok(cal, 'POST', `/api/user/shift-notices/${calFirst.id}/dismiss`);

    t.clock.advance(10 * MINUTE);
    await reorder(r.id, [ana, ben, cal]);
    t.clock.advance(2 * MINUTE);
    await tick();
    // Ben's moves went there and back: nothing is left to tell him on the dashboard.
    expect(await notices(ben)).toEqual([]);
    // Cal dismissed the first: the second stands alone, his shift back on 7 December.
    const [calSecond] = await notices(cal);
    expect(calSecond.sentences).toContain(
      'Your shift Mon Nov 30, 9:00 AM – Mon Dec 7, 9:00 AM (Europe/Berlin) in Payments primary moved to Mon Dec 7 – Mon Dec 14.',
    );
  });

  test('changes whose shifts have ended stop showing, and then the notice', async () => {
    await t.database.db.delete(shiftNotices);
    const r = await payments();
    rotationId = r.id;
    const asked = await ok(ana, 'POST', `/api/rotations/${r.id}/cover`, {
      coveringUserId: cal.id,
      startTime: '2026-11-28T08:00:00.000Z',
      endTime: '2026-11-29T08:00:00.000Z',
    });
    await ok(cal, 'POST', `/api/coverage-requests/${asked.json().id}/accept`);
    t.clock.advance(2 * MINUTE);
    await tick();
    expect((await notices(cal)).map((n) => n.sentences)).toEqual([
      [
        'You have a new shift Sat Nov 28, 9:00 AM – Sun Nov 29, 9:00 AM (Europe/Berlin) in Payments primary.',
      ],
    ]);
    // A minute before the shift ends it still shows; when it has ended, the notice is gone.
    t.clock.set('2026-11-29T07:59:00Z');
    expect(await notices(cal)).toHaveLength(1);
    t.clock.set('2026-11-29T08:00:00Z');
    expect(await notices(cal)).toEqual([]);
  });

  test('open notices kept from before they replaced each other show as one, and go with one dismissal', async () => {
    await t.database.db.delete(shiftNotices);
    const r = await payments();
    rotationId = r.id;
    const span = (a: string, b: string) => ({ start: a, end: b });
    // As a person's dashboard had them: a new shift on 30 November, then moved to 7 December.
    await t.database.db.insert(shiftNotices).values([
      {
        userId: cal.id,
        rotationId: r.id,
        eventKey: 'shift-changes:legacy-1',
        changes: [
          {
            kind: 'added',
            before: null,
            after: span('2026-11-30T08:00:00.000Z', '2026-12-07T08:00:00.000Z'),
          },
        ],
        createdAt: new Date('2026-11-27T10:00:00Z'),
      },
      {
        userId: cal.id,
        rotationId: r.id,
        eventKey: 'shift-changes:legacy-2',
        changes: [
          {
            kind: 'moved',
            before: span('2026-11-30T08:00:00.000Z', '2026-12-07T08:00:00.000Z'),
            after: span('2026-12-07T08:00:00.000Z', '2026-12-14T08:00:00.000Z'),
          },
        ],
        createdAt: new Date('2026-11-27T11:00:00Z'),
      },
    ]);
    const shown = await notices(cal);
    expect(shown.map((n) => n.sentences)).toEqual([
      [
        'You have a new shift Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary.',
      ],
    ]);
    expect(
      (await t.call(cal, 'POST', `/api/user/shift-notices/${shown[0].id}/dismiss`)).statusCode,
    ).toBe(204);
    expect(await notices(cal)).toEqual([]);
  });
});
