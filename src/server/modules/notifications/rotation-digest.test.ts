import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { notifications, rotationMembers } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { personRowsOf } from './announce';
import { type Channels, createEmailChannel } from './channels';
import { decryptContent, deliverDue } from './outbox';
import type { PersonEventOf } from './person-events';
import { personMessageOf } from './person-messages';

/**
 * A rotation's managers hear of the changes someone else makes to its members in one digest
 * each (issue 35, decision 262): every change within two minutes of the one before joins the
 * same pending email, which goes two minutes after the last change, or ten minutes after the
 * first however long the edits go on, through a real SMTP server.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let channels: Channels;
let admin: User;
let casey: User;
let priya: User;
let olivia: User;
let noah: User;
let sam: User;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://baton.example.test' } });
  smtp = await startSmtpServer();
  channels = { email: createEmailChannel(smtp.url, 'Baton <baton@example.com>', 2_000) };
  admin = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
  casey = await t.createUser({ name: 'Casey Manager', roles: ['manager'] });
  priya = await t.createUser({ name: 'Priya Patel', roles: ['on-call', 'manager'] });
  olivia = await t.createUser({ name: 'Olivia Ortiz', roles: ['on-call'] });
  noah = await t.createUser({ name: 'Noah Nakamura', roles: ['on-call'] });
  sam = await t.createUser({ name: 'Sam Sullivan', roles: ['on-call'] });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  t.clock.set('2026-11-02T12:00:00Z');
  await t.database.db.delete(notifications);
  smtp.received.length = 0;
});

/** Team C: created by Casey; Olivia holds the baton, Noah and Priya (a manager) are members. */
const teamC = () =>
  insertRotation(t.database.db, {
    name: 'Team C',
    memberIds: [olivia.id, noah.id, priya.id],
    holderId: olivia.id,
    createdById: casey.id,
    now: t.clock.now(),
  });

async function ok(method: 'POST' | 'DELETE' | 'PATCH', url: string, payload?: unknown) {
  const res = await t.call(admin, method, url, payload);
  expect(res.statusCode, res.body).toBeLessThan(300);
}

async function reverse(rotationId: number) {
  const rows = await t.database.db
    .select({ id: rotationMembers.id })
    .from(rotationMembers)
    .where(eq(rotationMembers.rotationId, rotationId))
    .orderBy(asc(rotationMembers.order));
  await ok('PATCH', `/api/rotations/${rotationId}/members/reorder`, {
    members: rows.map((m, i) => ({ id: m.id, order: rows.length - 1 - i })),
  });
}

const deliver = async () =>
  (
    await deliverDue({
      db: t.database.db,
      cipher: t.cipher,
      channels,
      clock: t.clock,
      random: () => 0.5,
    })
  ).sent;

const digests = async () =>
  (
    await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.kind, 'rotation.changed'))
      .orderBy(asc(notifications.id))
  ).map((r) => ({ ...r, content: decryptContent(r, t.cipher) }));

describe('a rotation-change digest', () => {
  test('three member edits within two minutes of each other: one email per manager, two minutes after the last', async () => {
    const c = await teamC();
    const base = `/api/rotations/${c.id}`;
    await ok('POST', `${base}/on-call`, { userId: sam.id });
    t.clock.advance(MINUTE);
    await reverse(c.id);
    t.clock.advance(90 * SECOND);
    await ok('DELETE', `${base}/on-call/${olivia.id}`);

    // 4:29 after the first edit, 1:59 after the last: nothing has gone.
    t.clock.advance(2 * MINUTE - SECOND);
    expect(await deliver()).toBe(0);
    expect(smtp.received).toEqual([]);
    t.clock.advance(SECOND);
    expect(await deliver()).toBe(2);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual([casey.email, priya.email].sort());

    const rows = await digests();
    expect(rows.map((r) => r.userId).sort()).toEqual([casey.id, priya.id].sort());
    const [digest] = rows;
    expect(digest.content.subject).toBe('Avery Admin made 3 changes to Team C');
    expect(digest.content.text).toContain(
      [
        'Avery Admin made 3 changes to Team C:',
        'Avery Admin added Sam Sullivan to Team C.',
        'Avery Admin changed the turn order of Team C: Sam Sullivan, Priya Patel, Noah Nakamura, Olivia Ortiz.',
        'Avery Admin removed Olivia Ortiz from Team C. Olivia Ortiz held the baton; Sam Sullivan holds it now.',
        'You are told because you manage this rotation and someone else made these changes.',
      ].join('\n\n'),
    );

    // A change after the digest went starts a new one.
    t.clock.advance(MINUTE);
    await ok('POST', `${base}/on-call`, { userId: olivia.id });
    t.clock.advance(2 * MINUTE);
    expect(await deliver()).toBe(2);
    const later = (await digests()).filter((r) => r.userId === casey.id);
    expect(later.map((r) => r.content.subject)).toEqual([
      'Avery Admin made 3 changes to Team C',
      'Avery Admin added Olivia Ortiz to Team C',
    ]);
  });

  test('edits that never pause for two minutes go ten minutes after the first', async () => {
    const c = await teamC();
    // A change every 90 seconds, from 0:00 to 9:00.
    for (let i = 0; i <= 6; i++) {
      if (i > 0) {
        t.clock.advance(90 * SECOND);
        expect([i, await deliver()]).toEqual([i, 0]);
      }
      await reverse(c.id);
    }
    // 10:00 after the first, a minute after the last: the digest of seven changes goes now.
    t.clock.advance(MINUTE - SECOND);
    expect(await deliver()).toBe(0);
    t.clock.advance(SECOND);
    expect(await deliver()).toBe(2);
    const [digest] = await digests();
    expect(digest.content.subject).toBe('Avery Admin made 7 changes to Team C');
  });
});

describe('what announce writes of a rotation change (pure)', () => {
  const baseUrl = 'https://baton.example.test';
  const event0: PersonEventOf<'rotation.changed'> = {
    type: 'rotation.changed',
    key: 'rotation-change:6',
    at: new Date('2026-11-02T12:00:00Z'),
    told: [
      {
        person: {
          id: 5,
          email: 'casey@example.com',
          phone: null,
          notificationPreference: 'both',
          timezone: 'Europe/Berlin',
        },
        as: 'to',
      },
    ],
    rotation: { id: 9, name: 'Payments <&>' },
    actorName: 'Lin',
    change: { kind: 'members_reordered', order: ['Ada', 'Grace'] },
  };
  test("adds a rotation change to each manager's digest of the rotation, by email, written as one message until a second joins", () => {
    const event = event0;
    const { messages, followUps, digests } = personRowsOf([event], baseUrl);
    expect([messages, followUps]).toEqual([[], []]);
    expect(
      digests.map((d) => [d.topic, d.kind, d.key, d.emailOnly, d.quiet, d.delayMs / 60_000]),
    ).toEqual([
      [`rotation:${event.rotation.id}`, 'rotation.changed', 'rotation-change:6', true, true, 2],
    ]);
    const [digest] = digests;
    // One change reads exactly as the message of one change always did.
    expect(digest.render([digest.item])).toEqual(
      personMessageOf(event, event.told[0], { baseUrl, timeZone: 'UTC' }),
    );
    const two = digest.render([
      digest.item,
      { actorName: 'Ada', change: { kind: 'member_added', memberName: 'Grace' } },
    ]);
    expect(two.subject).toBe('Someone who does not manage it made 2 changes to Payments <&>');
    expect(two.text).toContain(
      'Lin changed the turn order of Payments <&>: Ada, Grace.\n\nAda added Grace to Payments <&>.',
    );
  });
});
