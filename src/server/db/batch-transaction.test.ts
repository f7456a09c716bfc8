import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
import { EffectAlreadyDone, eachDueInBatches } from '../engine/due-rows';
import { recordAuditEvent } from '../modules/audit/audit-events';
import { atCommit, batchState, idsKey, inBatch, sharedRead } from './batch-transaction';
import { type Db, selectRows, type Tx } from './client';
import { allocateIds } from './ids';

/** A batch transaction (decision 277): shared reads, ids many at a time, writes at its commit. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('a read is shared within a batch, and only there, as is what the batch keeps', async () => {
  let reads = 0;
  const read = async () => {
    reads += 1;
    return { answer: 42 };
  };
  const [a, b] = await inBatch(t.database.db, async (tx) => {
    // what a batch keeps lasts the batch
    const kept = batchState(tx, 'list', (): number[] => []);
    kept?.push(1);
    expect(batchState(tx, 'list', (): number[] => [])).toEqual([1]);
    return [await sharedRead(tx, 'k', read), await sharedRead(tx, 'k', read)];
  });
  expect(reads).toBe(1);
  expect(a).toBe(b);
  await inBatch(t.database.db, (tx) => sharedRead(tx, 'k', read));
  expect(reads).toBe(2); // a new batch reads again
  await t.database.db.transaction(async (tx) => {
    expect(batchState(tx, 'list', (): number[] => [])).toBeUndefined();
    await sharedRead(tx, 'k', read);
    await sharedRead(tx, 'k', read);
  });
  expect(reads).toBe(4);
  expect(idsKey([3, null, 1, 3, undefined, 2])).toBe('1,2,3');
});

test('ids come many at a time in a batch, each once and in order', async () => {
  const ids = await inBatch(t.database.db, async (tx) => [
    ...(await allocateIds(tx, 'notifications', 2)),
    ...(await allocateIds(tx, 'notifications')),
    ...(await allocateIds(tx, 'notifications', 100)),
  ]);
  expect(ids).toHaveLength(103);
  expect(new Set(ids).size).toBe(103);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  // outside, the sequence goes on past what the batch took
  const [next] = await allocateIds(t.database.db, 'notifications');
  expect(next).toBeGreaterThan(ids[ids.length - 1]);
});

test('the work left for the commit runs before it, once per key; a failed batch writes nothing', async () => {
  const order: string[] = [];
  await inBatch(t.database.db, async (tx) => {
    atCommit(tx, 'x', async () => {
      order.push('x');
    });
    atCommit(tx, 'x', async () => {
      order.push('x again');
    });
    order.push('work');
  });
  expect(order).toEqual(['work', 'x']);
  await expect(
    t.database.db.transaction(async (tx) => atCommit(tx, 'x', async () => {})),
  ).rejects.toThrow('not in a batch transaction');

  const count = async (db: Db | Tx = t.database.db) =>
    Number(
      (
        await selectRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from audit_events where action = 'test.batched'`,
        )
      )[0].n,
    );
  const event = { actorUserId: null, action: 'test.batched', targetType: 'test', targetId: 1 };
  // events recorded in a batch are inserted at its end, with the ids they were given
  const ids = await inBatch(t.database.db, async (tx) => {
    const first = await recordAuditEvent(tx, { ...event, at: t.clock.now() });
    const second = await recordAuditEvent(tx, { ...event, at: t.clock.now() });
    expect(await count(tx)).toBe(0); // not yet written, even in the batch's own transaction
    return [first, second];
  });
  expect(await count()).toBe(2);
  const rows = await selectRows<{ id: number }>(
    t.database.db,
    sql`select id from audit_events where action = 'test.batched' order by chain_seq`,
  );
  expect(rows.map((r) => Number(r.id))).toEqual(ids);
  // a batch that fails after recording writes none of its events
  await expect(
    inBatch(t.database.db, async (tx) => {
      await recordAuditEvent(tx, { ...event, at: t.clock.now() });
      throw new Error('the work failed');
    }),
  ).rejects.toThrow('the work failed');
  expect(await count()).toBe(2);
});

test('due items in batches: a batch that fails is done again item by item, and only its failure stays', async () => {
  const event = { actorUserId: null, action: 'test.each-due', targetType: 'test' };
  const calls = new Map<number, number>();
  const items = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const failed = eachDueInBatches(
    t.database.db,
    items,
    4,
    async (tx, batch) => {
      for (const item of batch) {
        calls.set(item, (calls.get(item) ?? 0) + 1);
        await recordAuditEvent(tx, { ...event, targetId: item, at: t.clock.now() });
        if (item === 3) throw new EffectAlreadyDone(`item:${item}`);
        if (item === 6) throw new Error('item 6 cannot be done');
      }
    },
    2,
  );
  await expect(failed).rejects.toThrow('item 6 cannot be done');
  const rows = await selectRows<{ target_id: number }>(
    t.database.db,
    sql`select target_id from audit_events where action = 'test.each-due'`,
  );
  // every item but the two that failed wrote its event, once
  expect(rows.map((r) => Number(r.target_id)).sort((a, b) => a - b)).toEqual([
    1, 2, 4, 5, 7, 8, 9, 10,
  ]);
  // the batches of 3 and of 6 ran up to their failure, then again one item at a time; the
  // last batch once
  expect(Object.fromEntries(calls)).toEqual({
    1: 2,
    2: 2,
    3: 2,
    4: 1,
    5: 2,
    6: 2,
    7: 1,
    8: 1,
    9: 1,
    10: 1,
  });
});
