import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  buildFuzzApp,
  type EndpointReport,
  type FuzzApp,
  fuzzRoute,
  registeredRoutes,
  writeMark,
} from '../../tests/fuzz/endpoint-fuzz';
import { ENDPOINT_INPUTS } from '../../tests/fuzz/inputs';
import { createTestDatabase } from '../../tests/setup/test-database';

/**
 * Property-based input fuzz of every route (issue 14 §3): never a 5xx, never internals in an
 * answer, nothing written by a refused request. 25 requests per route here, on PGlite, or on
 * PostgreSQL with TEST_DATABASE_URL; tests/faults/input-fuzz.test.ts sends 2,000 per route.
 * FUZZ_SEED replays a run.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);

let fuzz: FuzzApp;
const reports: EndpointReport[] = [];

beforeAll(async () => {
  fuzz = await buildFuzzApp(await createTestDatabase());
});
afterAll(async () => {
  await fuzz?.close();
});

test('every registered route has an input generator, and every generator a route', () => {
  expect(Object.keys(ENDPOINT_INPUTS).sort()).toEqual([...registeredRoutes(fuzz.app)].sort());
});

// fuzzRoute takes the fingerprint again only when this mark moved: a write to a fingerprinted
// table must move it, even a write that changes no value, and one rolled back; a write elsewhere
// (a session, a rate limit's hits) need not.
test(`the write mark moves with every write to a fingerprinted table (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
  const mark = writeMark(fuzz.database);
  const touch = sql`update users set name_enc = name_enc where id = ${fuzz.admin.id}`;
  const before = await mark();
  await fuzz.database.db.execute(touch);
  const afterWrite = await mark();
  expect(afterWrite).not.toBe(before);
  await fuzz.database.db
    .transaction(async (tx) => {
      await tx.execute(touch);
      throw new Error('roll back');
    })
    .catch(() => undefined);
  const afterRollback = await mark();
  expect(afterRollback).not.toBe(afterWrite);
  await fuzz.database.db.execute(sql`update sessions set last_seen_at = last_seen_at`);
  expect(await mark()).toBe(afterRollback);
});

test(`every route, ${RUNS_PER_ROUTE} generated requests each (seed ${SEED})`, {
  timeout: 120_000,
}, async () => {
  const failures: string[] = [];
  for (const route of registeredRoutes(fuzz.app)) {
    try {
      reports.push(await fuzzRoute(fuzz, route, { runs: RUNS_PER_ROUTE, seed: SEED }));
    } catch (err) {
      failures.push(`${route}: ${(err as Error).message}`);
    }
  }
  expect(failures).toEqual([]);
  const requests = reports.reduce((n, r) => n + r.requests, 0);
  expect(requests).toBe(RUNS_PER_ROUTE * reports.length);
});
