import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { type Handoff, HandoffSchema } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { users } from '../../db/schema';
import { insertHandoffs, insertRotation } from '../../seed/factories';

let t: TestApp;
let olivia: User;
let noah: User;
let cookie: string;
let rotationId: number;
const MINUTE = 60_000;

beforeAll(async () => {
  t = await createTestApp();
  olivia = await t.createUser({ name: 'Olivia Ortiz', roles: ['on-call'] });
  noah = await t.createUser({ name: 'Noah Nakamura', roles: ['on-call'] });
  cookie = await t.cookieFor(olivia);
  const rotation = await insertRotation(t.database.db, {
    name: 'Platform Primary',
    memberIds: [olivia.id, noah.id],
    now: t.clock.now(),
  });
  rotationId = rotation.id;
  const now = t.clock.now().getTime();
  // 120 handoffs, one a minute, newest last; every tenth with notes.
  await insertHandoffs(
    t.database.db,
    Array.from({ length: 120 }, (_, i) => ({
      rotationId,
      fromUserId: i % 2 ? olivia.id : noah.id,
      toUserId: i % 2 ? noah.id : olivia.id,
      kind: 'pass',
      status: i === 119 ? 'acknowledged' : 'success',
      notes: i % 10 === 9 ? `Note ${i}` : null,
      occurredAt: new Date(now - (120 - i) * MINUTE),
    })),
  );
});
afterAll(() => t.close());

const recent = (query = '') =>
  t.app.inject({ url: `/api/handoffs/recent${query}`, headers: { cookie } });

test('GET /api/handoffs/recent answers the latest 5 by default, newest first, in the handoff shape', async () => {
  const res = await recent();
  expect(res.statusCode).toBe(200);
  const list = res.json() as Handoff[];
  expect(list).toHaveLength(5);
  for (const item of list) HandoffSchema.parse(item);
  const times = list.map((h) => Date.parse(h.timestamp));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  expect(list[0]).toEqual({
    id: expect.any(Number),
    status: 'acknowledged',
    kind: 'pass',
    fromUser: { id: olivia.id, name: 'Olivia Ortiz', email: olivia.email, phone: null },
    toUser: { id: noah.id, name: 'Noah Nakamura', email: noah.email, phone: null },
    rotation: { id: rotationId, name: 'Platform Primary' },
    timestamp: new Date(t.clock.now().getTime() - MINUTE).toISOString(),
    notes: 'Note 119',
    urgent: false,
    acknowledgedAt: null,
  });
  // Notes are omitted when empty.
  expect(list[1]).not.toHaveProperty('notes');
});

test('limit picks how many (at most 100); a bad limit is 400', async () => {
  expect((await recent('?limit=12')).json()).toHaveLength(12);
  expect((await recent('?limit=100')).json()).toHaveLength(100);
  expect((await recent('?limit=500')).json()).toHaveLength(100);
  for (const bad of ['0', '-1', 'ten', '2.5']) {
    const res = await recent(`?limit=${bad}`);
    expect(res.statusCode, bad).toBe(400);
    expect(res.json().message).toMatch(/limit/);
  }
  expect((await t.app.inject({ url: '/api/handoffs/recent' })).statusCode).toBe(401);
});

test('a deleted user shows as null', async () => {
  const gone = await t.createUser({ name: 'Gone Soon', roles: ['on-call'] });
  await insertHandoffs(t.database.db, [
    {
      rotationId,
      fromUserId: gone.id,
      toUserId: olivia.id,
      kind: 'reassign',
      occurredAt: t.clock.now(),
    },
  ]);
  await t.database.db.delete(users).where(eq(users.id, gone.id));
  const [latest] = (await recent('?limit=1')).json() as Handoff[];
  expect(latest).toMatchObject({ kind: 'reassign', fromUser: null, toUser: { id: olivia.id } });
});
