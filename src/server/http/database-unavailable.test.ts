import { DrizzleQueryError } from 'drizzle-orm/errors';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { testConfig } from '../../../tests/setup/test-app';
import { buildApp } from '../app';
import { ManualClock } from '../core/clock';
import { FieldCipher, parseMasterKey } from '../crypto/field-crypto';
import { openPostgres } from '../db/client';
import { SESSION_COOKIE } from '../modules/sessions/session-service';
import { isDatabaseBusy, isDatabaseUnavailable } from './database-unavailable';

const serverError = (code: string, message: string) =>
  Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
const wrapped = (cause: unknown) => new DrizzleQueryError('select 1', [], cause as Error);
const netError = (code: string) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isDatabaseUnavailable', () => {
  test.each([
    ['connection refused', netError('ECONNREFUSED')],
    ['connection reset', netError('ECONNRESET')],
    ['admin shutdown (57P01)', serverError('57P01', 'terminating connection due to admin')],
    ['crash shutdown (57P02)', serverError('57P02', 'terminating connection')],
    ['starting up (57P03)', serverError('57P03', 'the database system is starting up')],
    ['too many connections (53300)', serverError('53300', 'sorry, too many clients already')],
    ['connection failure (08006)', serverError('08006', 'connection failure')],
    ['connection does not exist (08003)', serverError('08003', 'no connection')],
    ['protocol violation (08P01)', serverError('08P01', 'protocol violation')],
    ['pg: terminated', new Error('Connection terminated unexpectedly')],
    ['pg: pool timeout', new Error('timeout exceeded when trying to connect')],
    [
      'pg: broken client',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['drizzle-wrapped 57P01', wrapped(serverError('57P01', 'terminating connection'))],
    ['drizzle-wrapped refusal', wrapped(netError('ECONNREFUSED'))],
    [
      'an engine task failure',
      new Error('engine task failed', { cause: wrapped(netError('EPIPE')) }),
    ],
  ])('%s: unavailable', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  test.each([
    ['unique violation', wrapped(serverError('23505', 'duplicate key value'))],
    ['syntax error', serverError('42601', 'syntax error at or near')],
    ['serialization failure', wrapped(serverError('40001', 'could not serialize access'))],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: not unavailable', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  test('a cause chain that loops ends', () => {
    const a: Error & { cause?: unknown } = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

describe('isDatabaseBusy', () => {
  test.each([
    [
      'lock time-out (55P03)',
      wrapped(serverError('55P03', 'canceling statement due to lock timeout')),
    ],
    [
      'statement time-out (57014)',
      wrapped(serverError('57014', 'canceling statement due to statement timeout')),
    ],
    [
      'idle in transaction (25P03)',
      serverError('25P03', 'terminating connection due to idle-in-transaction timeout'),
    ],
    ['deadlock (40P01)', wrapped(serverError('40P01', 'deadlock detected'))],
    [
      'an engine task failure',
      new Error('engine task failed', { cause: wrapped(serverError('55P03', 'lock timeout')) }),
    ],
  ])('%s: busy', (_name, err) => {
    expect(isDatabaseBusy(err)).toBe(true);
  });

  test.each([
    ['unique violation', wrapped(serverError('23505', 'duplicate key value'))],
    ['connection refused', netError('ECONNREFUSED')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('%s: not busy', (_name, err) => {
    expect(isDatabaseBusy(err)).toBe(false);
  });
});

describe('the error handler', () => {
  test('a request that cannot reach PostgreSQL answers 503 with a message, not 500', async () => {
    const config = testConfig();
    // Nothing listens on port 1: every query fails with a real ECONNREFUSED from the pool.
    const database = openPostgres('postgres://postgres@127.0.0.1:1/baton', { max: 1 });
    const app = await buildApp({
      config,
      database,
      cipher: new FieldCipher(parseMasterKey(config.encryptionKey!)),
      clock: new ManualClock('2026-11-02T12:00:00Z'),
      logger: false,
    });
    try {
      // The session cookie makes the request hook read the sessions table.
      const res = await app.inject({
        url: '/api/auth/user',
        headers: { cookie: `${SESSION_COOKIE}=abc` },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        message: 'The database is unavailable. Try again shortly.',
        code: 'SERVICE_UNAVAILABLE',
      });
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toBe('Database is not reachable');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
