import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { User } from '../../../shared/contracts/users';
import { handoffs, scheduleEntries } from '../../db/schema';
import { HOUR, people, rotation, setUpRotationApp, t } from './rotation-routes.fixtures';

// Counting SQL statements is switched on only by the query-count test.
let counting = false;
let statements = 0;

setUpRotationApp({
  onQuery: () => {
    if (counting) statements += 1;
  },
});

describe('query counts', () => {
  /**
   * count returns how many SQL statements one request ran that computed its answer: a committed
   * transaction first changes the database snapshot, so the read cache has nothing to reuse.
   */
  async function count(user: User, url: string) {
    await t.call(user, 'GET', url); // warm the session cookie cache
    await t.database.db.execute(sql`select pg_current_xact_id()`);
    statements = 0;
    counting = true;
    const res = await t.call(user, 'GET', url);
    counting = false;
    expect(res.statusCode).toBe(200);
    return { n: statements, body: res.json() as unknown[] };
  }

  async function seed(n: number, member: User) {
    for (let i = 0; i < n; i++) {
      const r = await rotation({
        name: `Count ${i}`,
        type: i % 2 === 0 ? 'fixed' : 'scheduled',
        memberIds: [member.id, people.olivia.id, people.noah.id],
        holderId: i % 3 === 0 ? member.id : null,
      });
      const now = t.clock.now().getTime();
      await t.database.db.insert(scheduleEntries).values({
        rotationId: r.id,
        userId: people.noah.id,
        startAt: new Date(now + (i + 1) * HOUR),
        endAt: new Date(now + (i + 2) * HOUR),
      });
      await t.database.db.insert(handoffs).values({
        rotationId: r.id,
        fromUserId: people.olivia.id,
        toUserId: member.id,
        kind: 'pass',
        occurredAt: new Date(now - i * HOUR),
      });
    }
  }

  test('list endpoints run the same number of statements for 2 and for 20 more rotations', async () => {
    const viewer = await t.createUser({ name: 'Quentin Query', roles: ['on-call'] });
    await seed(2, viewer);
    const few = {
      all: await count(viewer, '/api/rotations'),
      mine: await count(viewer, '/api/user/rotations'),
      handoffs: await count(viewer, '/api/handoffs/recent?limit=100'),
    };
    await seed(18, viewer);
    const many = {
      all: await count(viewer, '/api/rotations'),
      mine: await count(viewer, '/api/user/rotations'),
      handoffs: await count(viewer, '/api/handoffs/recent?limit=100'),
    };
    expect(many.mine.body.length).toBe(20);
    expect(few.mine.body.length).toBe(2);
    expect(many.all.body.length).toBeGreaterThan(few.all.body.length);
    expect(many.handoffs.body.length).toBeGreaterThan(few.handoffs.body.length);
    expect(many.all.n).toBe(few.all.n);
    expect(many.mine.n).toBe(few.mine.n);
    expect(many.handoffs.n).toBe(few.handoffs.n);
    // Session lookup plus at most three reads.
    expect(many.all.n).toBeLessThanOrEqual(4);
  });

  test('each user is decrypted once per request however many rotations they appear in', async () => {
    const viewer = await t.createUser({ name: 'Dora Decrypt', roles: ['on-call'] });
    await seed(3, viewer);
    const decrypt = t.cipher.decrypt.bind(t.cipher);
    const seen = new Map<string, number>();
    t.cipher.decrypt = ((value: string, ctx: { table: string; column: string; rowId: number }) => {
      const key = `${ctx.table}.${ctx.column}:${ctx.rowId}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      return decrypt(value, ctx as never);
    }) as typeof t.cipher.decrypt;
    try {
      const res = await t.call(viewer, 'GET', '/api/user/rotations');
      expect(res.statusCode).toBe(200);
    } finally {
      t.cipher.decrypt = decrypt;
    }
    // Every user exactly once, the viewer included (by the session hook, and not again).
    expect(seen.get(`users.name:${people.olivia.id}`)).toBe(1);
    expect(seen.get(`users.name:${people.noah.id}`)).toBe(1);
    expect(seen.get(`users.name:${viewer.id}`)).toBe(1);
    expect(Math.max(...seen.values())).toBe(1);
  });
});
