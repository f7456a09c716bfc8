import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
import type { Handoff, Rotation } from '../../shared/contracts/rotations';
import { handoffs, notifications, rotations } from '../db/schema';
import type { EngineDeps } from '../engine/engine-task';
import { runEngineTick } from '../engine-tasks';
import { decryptContent } from '../modules/notifications/outbox';
import { seedDemoData } from './demo-seed';

/**
 * The demo team's 'Platform Primary' (weekly, fixed, New York, Monday 09:00) hands off by itself
 * at its boundary: the notices, the request to pass, the escalation, the automatic transfer and
 * its entry in the audit log, with nobody touching it.
 */

let t: TestApp;
let deps: EngineDeps;
let seeded: Awaited<ReturnType<typeof seedDemoData>>;

beforeAll(async () => {
  t = await createTestApp();
  // Monday 2 November 2026, 07:00 in New York.
  t.clock.set('2026-11-02T12:00:00Z');
  seeded = await seedDemoData({
    db: t.database.db,
    cipher: t.cipher,
    clock: t.clock,
    domain: 'example.com',
  });
  deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
});
afterAll(() => t.close());

test('Platform Primary hands off by itself at its boundary, with the notices and the audit entry', async () => {
  const [platform] = seeded.rotations;
  const [, , , olivia, noah] = seeded.users;
  const names = new Map(seeded.users.map((u) => [u.id, u.name]));
  const queued = async () => {
    const rows = await t.database.db.select().from(notifications).orderBy(asc(notifications.id));
    return rows
      .filter(
        (n) => n.dedupeKey.startsWith(`handoff-flow:${platform.id}:`) || n.kind === 'handoff.auto',
      )
      .map((n) => `${n.kind} → ${names.get(n.userId ?? 0)}`);
  };
  const at = async (iso: string) => {
    t.clock.set(iso);
    await runEngineTick(deps, t.clock.now());
  };
  const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, platform.id));
  expect(row.nextHandoffAt?.toISOString()).toBe('2026-11-02T14:00:00.000Z');

  await at('2026-11-02T13:15:00Z');
  expect(await queued()).toEqual([]);
  await at('2026-11-02T13:30:00Z');
  expect(await queued()).toEqual([
    'handoff.notice → Olivia Ortiz',
    'handoff.notice → Noah Nakamura',
  ]);
  await at('2026-11-02T14:00:00Z');
  await at('2026-11-02T14:30:00Z');
  await at('2026-11-02T14:59:00Z');
  expect(await queued()).toEqual([
    'handoff.notice → Olivia Ortiz',
    'handoff.notice → Noah Nakamura',
    'handoff.due → Olivia Ortiz',
    'handoff.escalate → Olivia Ortiz',
    'handoff.escalate → Noah Nakamura',
  ]);
  await at('2026-11-02T15:00:00Z');
  await at('2026-11-02T15:00:15Z');
  expect((await queued()).slice(5)).toEqual([
    'handoff.auto → Noah Nakamura',
    'handoff.auto → Olivia Ortiz',
  ]);

  // The words of the request to pass, in Olivia's own time zone (Chicago).
  const [due] = (await t.database.db.select().from(notifications)).filter(
    (n) => n.kind === 'handoff.due',
  );
  const content = decryptContent(due, t.cipher);
  expect(content.subject).toBe('Pass the baton for Platform Primary: your shift has ended');
  expect(content.text).toContain('ended at Mon, Nov 2, 2026, 8:00 AM CST');
  expect(content.text).toContain('Times are in America/Chicago.');
  expect(content.text).toContain('Pass the baton to Noah Nakamura now');

  const cookie = await t.cookieFor(noah);
  const rotation: Rotation = (
    await t.app.inject({ url: `/api/rotations/${platform.id}`, headers: { cookie } })
  ).json();
  expect(rotation).toMatchObject({
    currentOnCall: { name: 'Noah Nakamura' },
    nextOnCall: { name: 'Priya Patel' },
    holderSince: '2026-11-02T15:00:00.000Z',
    nextHandoffTime: '2026-11-09T14:00:00.000Z',
    backupUserId: olivia.id,
    unacknowledgedHandoff: { toUserId: noah.id, kind: 'auto', status: 'escalated' },
  });
  const [latest] = (
    await t.app.inject({ url: '/api/handoffs/recent?limit=1', headers: { cookie } })
  ).json() as Handoff[];
  expect(latest).toMatchObject({
    status: 'escalated',
    kind: 'auto',
    fromUser: { name: 'Olivia Ortiz' },
    toUser: { name: 'Noah Nakamura' },
    rotation: { name: 'Platform Primary' },
    timestamp: '2026-11-02T15:00:00.000Z',
  });
  const autos = await t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, platform.id));
  expect(
    autos.filter((h) => h.kind === 'auto' && h.occurredAt > new Date('2026-11-01')),
  ).toHaveLength(1);

  // Noah acknowledges from the rotation page: the audit log keeps 'escalated', the button goes.
  const ack = await t.app.inject({
    method: 'POST',
    url: `/api/handoffs/${latest.id}/acknowledge`,
    headers: { cookie },
  });
  expect(ack.json()).toMatchObject({
    status: 'escalated',
    acknowledgedAt: '2026-11-02T15:00:15.000Z',
  });
  const after: Rotation = (
    await t.app.inject({ url: `/api/rotations/${platform.id}`, headers: { cookie } })
  ).json();
  expect(after.unacknowledgedHandoff).toBeNull();

  // The suspended demo rotation took no part.
  const payments = seeded.rotations[2];
  expect(
    (
      await t.database.db.select().from(handoffs).where(eq(handoffs.rotationId, payments.id))
    ).filter((h) => h.occurredAt > new Date('2026-11-02T12:00:00Z')),
  ).toEqual([]);
});
