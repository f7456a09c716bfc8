import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_KEY, testConfig } from '../../../tests/setup/test-app';
import { createTestDatabase } from '../../../tests/setup/test-database';
import { buildApp } from '../app';
import { ManualClock } from '../core/clock';
import { FieldCipher, parseMasterKey } from '../crypto/field-crypto';
import type { Database } from '../db/client';
import { createSession, SESSION_COOKIE } from '../modules/sessions/session-service';
import { insertUser } from '../seed/factories';
import { serializeLoggedError, statementName } from './error-log';

/**
 * A database error is logged by its statement's name and its code, never with the query's
 * parameters: what people typed (a rotation's name here) stays out of the log (decision 167).
 */

const SECRET = 'Priya Confidential Escalations';
let database: Database;
let app: FastifyInstance;
let cookie: string;
const lines: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const config = testConfig({ LOG_LEVEL: 'trace' });
  const clock = new ManualClock('2026-11-02T12:00:00Z');
  const cipher = new FieldCipher(parseMasterKey(TEST_KEY));
  app = await buildApp({
    config,
    database,
    cipher,
    clock,
    logStream: { write: (line: string) => void lines.push(line) },
  });
  await app.ready();
  const admin = await insertUser(database.db, cipher, { roles: ['admin'] });
  const session = await createSession(database.db, clock, config.session, admin.id);
  cookie = `${SESSION_COOKIE}=${session.token}`;
  // A constraint the schemas do not know: inserting this name fails in the database itself.
  await database.db.execute(
    sql.raw(`alter table rotations add constraint fuzz_forced_failure check (name <> '${SECRET}')`),
  );
});
afterAll(async () => {
  await app.close();
  await database.close();
});

test("a failed insert answers 500 and logs the statement and code, not the rotation's name", async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/rotations',
    headers: { cookie, origin: 'http://localhost:80' },
    payload: { name: SECRET, description: 'Call Priya first' },
  });
  expect(res.statusCode, res.body).toBe(500);
  expect(res.body).not.toContain('Priya');

  const failure = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((entry) => entry.msg === 'unhandled error');
  expect(failure, lines.join('\n')).toBeDefined();
  expect((failure?.err as Record<string, unknown> | undefined)?.database).toEqual({
    statement: 'insert rotations',
    code: '23514',
    constraint: 'fuzz_forced_failure',
    table: 'rotations',
  });
  const all = lines.join('\n');
  expect(all).not.toContain('Priya');
  expect(all).not.toContain('Confidential');
  expect(all).not.toContain('params');
});

describe('serializeLoggedError', () => {
  const failedQuery = () => {
    const driver = Object.assign(new Error('value "2147483648" is out of range for type integer'), {
      code: '22003',
      severity: 'ERROR',
      detail: 'Failing row contains (Priya Shah)',
    });
    const query = Object.assign(
      new Error('Failed query: select "id" from "pages" where "id" = $1\nparams: Priya Shah'),
      { query: 'select "id" from "pages" where "id" = $1', params: ['Priya Shah'], cause: driver },
    );
    return query;
  };

  test('an engine task wrapping a failed query keeps its own words, not the query', () => {
    const inner = failedQuery();
    const wrapped = new Error(`engine task 'page timers' failed: ${inner.message}`, {
      cause: inner,
    });
    const logged = serializeLoggedError(wrapped);
    expect(logged.message).toBe(
      "engine task 'page timers' failed: <database error>: database error 22003",
    );
    expect(logged.database).toEqual({ statement: 'select pages', code: '22003' });
    expect(JSON.stringify(logged)).not.toMatch(/Priya|2147483648|params/);
  });

  test('each error of an aggregate is logged the same way', () => {
    const logged = serializeLoggedError(new AggregateError([failedQuery()], 'engine tasks failed'));
    expect(JSON.stringify(logged)).not.toMatch(/Priya|2147483648/);
    expect(logged.aggregateErrors).toHaveLength(1);
  });

  test('other errors are logged as pino logs them', () => {
    const logged = serializeLoggedError(new TypeError('x is not a function'));
    expect(logged).toMatchObject({ type: 'TypeError', message: 'x is not a function' });
  });

  test.each([
    ['insert into "handoffs" ("id") values ($1)', 'insert handoffs'],
    ['update "rotations" set "name" = $1', 'update rotations'],
    ['delete from "sessions" where "token_hash" = $1', 'delete sessions'],
    ['with x as (select 1) select * from "audit_events"', 'with audit_events'],
    ['select count(*) from users', 'select users'],
  ])('statementName(%s) is %s', (query, name) => {
    expect(statementName(Object.assign(new Error('failed'), { query }))).toBe(name);
  });
});
