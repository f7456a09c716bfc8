import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { CoverageRequestList, CoverageRequestView } from '../../../shared/contracts/coverage';
import type { User } from '../../../shared/contracts/users';
import {
  coverageRequests,
  handoffs,
  notifications,
  rotations,
  scheduleEntries,
} from '../../db/schema';
import { runEngineTick } from '../../engine-tasks';
import { insertRotation } from '../../seed/factories';

let t: TestApp;
let ana: User;
let ben: User;
let cal: User;
let ivy: User;

beforeAll(async () => {
  t = await createTestApp();
  ana = await t.createUser({ name: 'Ana Alvarez', roles: ['on-call'] });
  ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
  cal = await t.createUser({ name: 'Cal Chen', roles: ['manager'] });
  ivy = await t.createUser({ name: 'Ivy Incident', roles: ['incident_manager'] });
});
afterAll(() => t.close());

const tick = () =>
  runEngineTick(
    { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
    t.clock.now(),
  );

async function ask(rotationId: number, from: User, to: User, start: string, end: string) {
  const res = await t.call(from, 'POST', `/api/rotations/${rotationId}/cover`, {
    coveringUserId: to.id,
    startTime: start,
    endTime: end,
    notes: 'Dentist',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
const holderOf = async (id: number) =>
  (await t.database.db.select().from(rotations).where(eq(rotations.id, id)))[0];
const history = (id: number) =>
  t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, id))
    .orderBy(asc(handoffs.occurredAt), asc(handoffs.id));
const kindsSentTo = async (user: User) =>
  (await t.database.db.select().from(notifications).where(eq(notifications.userId, user.id))).map(
    (n) => n.kind,
  );

describe('a coverage window on a fixed rotation', () => {
  test('asked, accepted, held for the window, then back to whom the rotation names', async () => {
    t.clock.set('2026-11-02T06:00:00Z');
    const r = await insertRotation(t.database.db, {
      name: 'Covered Daily',
      cadence: 'daily',
      handoffTime: '09:00',
      memberIds: [ana.id, cal.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    const id = await ask(r.id, ana, ben, '2026-11-02T07:00:00Z', '2026-11-02T11:00:00Z');
    expect(await kindsSentTo(ben)).toContain('coverage.requested');

    const mine: CoverageRequestList = (await t.call(ben, 'GET', '/api/coverage-requests')).json();
    expect(mine.incoming.map((c) => [c.id, c.status, c.rotation.name, c.requester.name])).toEqual([
      [id, 'pending', 'Covered Daily', 'Ana Alvarez'],
    ]);
    expect(mine.outgoing).toEqual([]);
    const theirs: CoverageRequestList = (await t.call(ana, 'GET', '/api/coverage-requests')).json();
    expect(theirs.outgoing.map((c) => c.id)).toEqual([id]);

    // Nothing happens until the covering member accepts.
    t.clock.set('2026-11-02T07:00:00Z');
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(ana.id);

    expect((await t.call(cal, 'POST', `/api/coverage-requests/${id}/accept`)).statusCode).toBe(403);
    expect((await t.call(ivy, 'POST', `/api/coverage-requests/${id}/accept`)).statusCode).toBe(403);
    const accepted = await t.call(ben, 'POST', `/api/coverage-requests/${id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json() as CoverageRequestView).toMatchObject({
      status: 'accepted',
      respondedAt: '2026-11-02T07:00:00.000Z',
      coveringUser: { name: 'Ben Brooks' },
    });
    expect(await kindsSentTo(ana)).toContain('coverage.accepted');
    const twice = await t.call(ben, 'POST', `/api/coverage-requests/${id}/accept`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This coverage request has already been answered.');

    t.clock.set('2026-11-02T07:00:10Z');
    await tick();
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(ben.id);
    const [started] = await t.database.db
      .select()
      .from(coverageRequests)
      .where(eq(coverageRequests.id, id));
    expect(started.status).toBe('active');

    // The 09:00 boundary falls inside the window: no notices, no automatic transfer.
    for (const time of ['2026-11-02T08:30:00Z', '2026-11-02T09:00:00Z', '2026-11-02T10:00:00Z']) {
      t.clock.set(time);
      await tick();
    }
    expect((await holderOf(r.id)).holderUserId).toBe(ben.id);
    const flow = (await t.database.db.select().from(notifications)).filter((n) =>
      n.dedupeKey.startsWith(`handoff-flow:${r.id}:`),
    );
    expect(flow).toEqual([]);

    t.clock.set('2026-11-02T11:00:00Z');
    await tick();
    const after = await holderOf(r.id);
    // One boundary passed in the window: the baton goes to the member after Ana.
    expect(after.holderUserId).toBe(cal.id);
    expect(after.nextHandoffAt).toEqual(new Date('2026-11-03T09:00:00Z'));
    expect(
      (await history(r.id)).map((h) => [
        h.kind,
        h.fromUserId,
        h.toUserId,
        h.occurredAt.toISOString(),
      ]),
    ).toEqual([
      ['coverage', ana.id, ben.id, '2026-11-02T07:00:00.000Z'],
      ['coverage_end', ben.id, cal.id, '2026-11-02T11:00:00.000Z'],
    ]);
    const [done] = await t.database.db
      .select()
      .from(coverageRequests)
      .where(eq(coverageRequests.id, id));
    expect(done.status).toBe('completed');
    expect(await kindsSentTo(cal)).toContain('coverage.ended');
  });

  test('a declined request changes nothing; the requester is told', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    const r = await insertRotation(t.database.db, {
      name: 'Declined Rotation',
      memberIds: [ana.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    const id = await ask(r.id, ana, ben, '2026-11-02T13:00:00Z', '2026-11-02T14:00:00Z');
    const declined = await t.call(ben, 'POST', `/api/coverage-requests/${id}/decline`);
    expect(declined.json()).toMatchObject({ status: 'declined' });
    expect(await kindsSentTo(ana)).toContain('coverage.declined');
    t.clock.set('2026-11-02T13:30:00Z');
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(ana.id);
    expect((await t.call(ana, 'POST', `/api/coverage-requests/${id}/cancel`)).statusCode).toBe(409);
  });

  test('cancelling a running window ends it now; a stranger cannot cancel', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    const r = await insertRotation(t.database.db, {
      name: 'Cancelled Rotation',
      cadence: 'weekly',
      memberIds: [ana.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    const id = await ask(r.id, ana, ben, '2026-11-02T12:00:00Z', '2026-11-02T20:00:00Z');
    await t.call(ben, 'POST', `/api/coverage-requests/${id}/accept`);
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(ben.id);
    t.clock.set('2026-11-02T15:00:00Z');
    expect((await t.call(cal, 'POST', `/api/coverage-requests/${id}/cancel`)).statusCode).toBe(403);
    const cancelled = await t.call(ana, 'POST', `/api/coverage-requests/${id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect((await holderOf(r.id)).holderUserId).toBe(ana.id);
    expect((await history(r.id)).map((h) => [h.kind, h.occurredAt.toISOString()])).toEqual([
      ['coverage', '2026-11-02T12:00:00.000Z'],
      ['coverage_end', '2026-11-02T15:00:00.000Z'],
    ]);
    expect((await t.call(ana, 'POST', '/api/coverage-requests/999999/cancel')).statusCode).toBe(
      404,
    );
  });

  test('a window whose requester no longer holds the baton at its start is cancelled, and both are told', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    const r = await insertRotation(t.database.db, {
      name: 'Moot Rotation',
      memberIds: [ana.id, ben.id, cal.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    const id = await ask(r.id, ana, ben, '2026-11-02T16:00:00Z', '2026-11-02T18:00:00Z');
    await t.call(ben, 'POST', `/api/coverage-requests/${id}/accept`);
    await t.call(ana, 'POST', `/api/rotations/${r.id}/handoff`, { toUserId: cal.id });
    t.clock.set('2026-11-02T16:00:00Z');
    await tick();
    expect((await holderOf(r.id)).holderUserId).toBe(cal.id);
    const [row] = await t.database.db
      .select()
      .from(coverageRequests)
      .where(eq(coverageRequests.id, id));
    expect(row.status).toBe('cancelled');
    expect(await kindsSentTo(ben)).toContain('coverage.cancelled');
  });
});

test('on a scheduled rotation the baton returns to the schedule entry that covers the end', async () => {
  t.clock.set('2026-11-02T12:00:00Z');
  const r = await insertRotation(t.database.db, {
    name: 'Covered Schedule',
    type: 'scheduled',
    memberIds: [ana.id, ben.id, cal.id],
    now: t.clock.now(),
  });
  await t.database.db.insert(scheduleEntries).values([
    {
      rotationId: r.id,
      userId: ana.id,
      startAt: new Date('2026-11-02T12:00:00Z'),
      endAt: new Date('2026-11-02T16:00:00Z'),
    },
    {
      rotationId: r.id,
      userId: cal.id,
      startAt: new Date('2026-11-02T16:00:00Z'),
      endAt: new Date('2026-11-02T22:00:00Z'),
    },
  ]);
  await t.database.db
    .update(rotations)
    .set({ nextHandoffAt: new Date('2026-11-02T12:00:00Z') })
    .where(eq(rotations.id, r.id));
  await tick();
  expect((await holderOf(r.id)).holderUserId).toBe(ana.id);
  const id = await ask(r.id, ana, ben, '2026-11-02T13:00:00Z', '2026-11-02T17:00:00Z');
  await t.call(ben, 'POST', `/api/coverage-requests/${id}/accept`);
  for (const time of ['2026-11-02T13:00:00Z', '2026-11-02T16:00:00Z', '2026-11-02T17:00:00Z']) {
    t.clock.set(time);
    await tick();
  }
  expect((await holderOf(r.id)).holderUserId).toBe(cal.id);
  expect((await history(r.id)).map((h) => [h.kind, h.toUserId])).toEqual([
    ['schedule', ana.id],
    ['coverage', ben.id],
    ['coverage_end', cal.id],
  ]);
});
