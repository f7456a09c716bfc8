import os from 'node:os';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestApp,
  TEST_KEY,
  TEST_PASSWORD,
  type TestApp,
} from '../../../../tests/setup/test-app';
import {
  AuditIntegritySchema,
  ClientCheckSchema,
  DatabaseDiagnosticsSchema,
  type DebugRotation,
  DirectRotationsSchema,
  ProductionFilteringSchema,
  RotationsCompareSchema,
} from '../../../shared/contracts/debug';
import { buildApp } from '../../app';
import { selectRows } from '../../db/client';
import { insertRotation } from '../../seed/factories';
import { fieldDifferences, readRotationsStorage } from './debug-repository';

let t: TestApp;
let cookie: string;
const ids: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.createUser({ roles: ['admin'] });
  const member = await t.createUser();
  cookie = await t.cookieFor(admin);
  for (const seed of [
    { name: 'Diag One', memberIds: [admin.id, member.id], holderId: member.id },
    { name: 'Diag Two', suspended: true },
    { name: 'Diag Three', cadence: 'daily' as const },
    { name: 'Diag Four', suspended: true, memberIds: [member.id] },
  ]) {
    ids.push((await insertRotation(t.database.db, { ...seed, now: t.clock.now() })).id);
  }
});
afterAll(() => t.close());

async function get(path: string) {
  const res = await t.app.inject({ url: path, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  // No secret ever leaves the diagnostics: not the key, not the password, not credentials.
  expect(res.body).not.toContain(TEST_KEY);
  expect(res.body).not.toContain(TEST_PASSWORD);
  expect(res.body).not.toMatch(/postgres(ql)?:\/\/[^/\s"]*@/);
  return res.json();
}

describe('diagnostics', () => {
  test('rotations-compare: the direct SQL read and the storage read agree, with samples and environment', async () => {
    const body = RotationsCompareSchema.parse(await get('/api/debug/rotations-compare?_t=1'));
    expect(body.summary).toEqual({ directCount: 4, storageCount: 4, match: true });
    expect(body.idComparison).toEqual({ onlyInDirect: [], onlyInStorage: [] });
    expect(body.fieldDifferences).toEqual([]);
    expect(body.samples.directFirst.map((r) => r.id)).toEqual(ids.slice(0, 2));
    expect(body.samples.storageFirst).toEqual(body.samples.directFirst);
    expect(body.samples.directFirst[0]).toMatchObject({
      name: 'Diag One',
      suspended: false,
      memberCount: 2,
      cadence: 'weekly',
      type: 'fixed',
    });
    expect(body.samples.directFirst[0].holderUserId).toEqual(expect.any(Number));
    expect(body.environment).toEqual({
      nodeEnv: 'test',
      hostname: expect.any(String),
      dbHost: t.database.location,
      encryptionKeyAvailable: true,
    });
  });

  test('fieldDifferences names each field whose values differ, types included', () => {
    const base: DebugRotation = {
      id: 1,
      name: 'A',
      description: null,
      cadence: 'weekly',
      type: 'fixed',
      suspended: false,
      holderUserId: null,
      nextHandoffAt: '2026-11-02T09:00:00.000Z',
      timeZone: 'UTC',
      handoffTime: '09:00',
      handoffWeekday: 1,
      memberCount: 0,
    };
    expect(fieldDifferences(base, { ...base })).toEqual([]);
    expect(
      fieldDifferences(base, {
        ...base,
        suspended: 'false' as unknown as boolean,
        memberCount: 2,
        description: '',
      }),
    ).toEqual(['description', 'suspended', 'memberCount']);
  });

  test('production-filtering: counts, percentage suspended, and no filtering found', async () => {
    const body = ProductionFilteringSchema.parse(await get('/api/debug/production-filtering'));
    expect(body.environment).toEqual({ environment: 'test', dbHost: t.database.location });
    expect(body.rotationsStats).toEqual({
      total: 4,
      active: 2,
      suspended: 2,
      percentSuspended: 50,
    });
    expect(body.potentialFilteringIssues).toEqual({
      hasFilteringSuspended: false,
      hasFilteringProduction: false,
    });
    expect(body.allRotationsWithStatus).toEqual([
      { id: ids[0], name: 'Diag One', status: 'active' },
      { id: ids[1], name: 'Diag Two', status: 'suspended' },
      { id: ids[2], name: 'Diag Three', status: 'active' },
      { id: ids[3], name: 'Diag Four', status: 'suspended' },
    ]);
  });

  test('rotations: the rotations table read with plain SQL', async () => {
    const body = DirectRotationsSchema.parse(await get('/api/debug/rotations'));
    expect(body.count).toBe(4);
    expect(body.rotations.map((r) => r.name)).toEqual([
      'Diag One',
      'Diag Two',
      'Diag Three',
      'Diag Four',
    ]);
  });

  test('database: engine, location without credentials, version, migrations and row counts', async () => {
    const body = DatabaseDiagnosticsSchema.parse(await get('/api/debug/database'));
    expect(body.engine).toBe(t.database.engine);
    expect(body.dbHost).toBe(t.database.location);
    expect(body.serverVersion).toMatch(/PostgreSQL/);
    expect(body.withheld).toEqual([]);
    expect(body.migrationsApplied).toBeGreaterThan(0);
    expect(body.checkedAt).toBe(t.clock.now().toISOString());
    const rows = Object.fromEntries(body.tables.map((r) => [r.name, r.rows]));
    expect(rows.rotations).toBe(4);
    expect(rows.rotation_members).toBe(3);
    expect(rows.users).toBe(2);
    expect(Object.keys(rows)).toContain('audit_events');
  });

  test('client-check: the rotations as object, array and JSON string, the environment and typed test values', async () => {
    const body = ClientCheckSchema.parse(await get('/api/debug/client-check?_t=2'));
    expect(body.rotations.asObject).toEqual({ count: 4, ids });
    expect(JSON.parse(body.rotations.stringified)).toEqual(body.rotations.jsonArray);
    expect(body.rotations.sampleRotation).toEqual(body.rotations.jsonArray[0]);
    expect(body.environment).toEqual({
      nodeEnv: 'test',
      hostname: os.hostname(),
      isProd: false,
    });
    expect(body.withheld).toEqual([]);
    expect(body.testValues).toMatchObject({
      booleanAsBoolean: true,
      booleanAsString: 'true',
      falseAsBoolean: false,
      falseAsString: 'false',
      nullValue: null,
      zero: 0,
    });
  });

  test('a storage read that drops suspended rotations and alters a field is found out by every check', async () => {
    // The app's own read, broken the way a filtering or mapping bug would break it.
    const app = await buildApp({
      config: t.config,
      database: t.database,
      cipher: t.cipher,
      clock: t.clock,
      logger: false,
      rotationsStorageRead: async (db) =>
        (await readRotationsStorage(db))
          .filter((r) => !r.suspended)
          .map((r) => (r.id === ids[2] ? { ...r, name: 'Diag 3', memberCount: 7 } : r)),
    });
    try {
      const read = async (path: string) =>
        (await app.inject({ url: path, headers: { cookie } })).json();
      const compare = RotationsCompareSchema.parse(await read('/api/debug/rotations-compare'));
      expect(compare.summary).toEqual({ directCount: 4, storageCount: 2, match: false });
      expect(compare.idComparison).toEqual({ onlyInDirect: [ids[1], ids[3]], onlyInStorage: [] });
      expect(compare.fieldDifferences).toEqual([
        {
          id: ids[2],
          differences: ['name', 'memberCount'],
          direct: expect.objectContaining({ name: 'Diag Three', memberCount: 0 }),
          storage: expect.objectContaining({ name: 'Diag 3', memberCount: 7 }),
        },
      ]);
      const filtering = ProductionFilteringSchema.parse(
        await read('/api/debug/production-filtering'),
      );
      expect(filtering.potentialFilteringIssues).toEqual({
        hasFilteringSuspended: true,
        // Only a production server calls a missing row a production filter.
        hasFilteringProduction: false,
      });
      const check = ClientCheckSchema.parse(await read('/api/debug/client-check'));
      expect(check.rotations.asObject).toEqual({ count: 2, ids: [ids[0], ids[2]] });
      expect(check.rotations.jsonArray[1]).toMatchObject({ name: 'Diag 3' });
    } finally {
      await app.close();
    }
  });

  test('the storage read is the one GET /api/rotations answers from', async () => {
    const served = (await t.app.inject({ url: '/api/rotations', headers: { cookie } })).json();
    const storage = await readRotationsStorage(t.database.db);
    expect(storage.map((r) => r.id)).toEqual(
      [...served.map((r: { id: number }) => r.id)].sort((a, b) => a - b),
    );
    for (const rotation of served) {
      expect(storage.find((r) => r.id === rotation.id)).toMatchObject({
        name: rotation.name,
        suspended: rotation.suspended,
        holderUserId: rotation.currentOnCallUserId,
        memberCount: rotation.members.length,
      });
    }
  });

  test('without DEBUG_DETAILS (production) the host, data path and version are withheld, and each answer says so', async () => {
    // loadConfig gives debugDetails false in production unless DEBUG_DETAILS=1 (config.test.ts).
    const app = await buildApp({
      config: { ...t.config, debugDetails: false },
      database: t.database,
      cipher: t.cipher,
      clock: t.clock,
      logger: false,
    });
    try {
      const read = async (path: string) => {
        const res = await app.inject({ url: path, headers: { cookie } });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.body).not.toContain(os.hostname());
        expect(res.body).not.toContain(t.database.location);
        expect(res.body).not.toMatch(/PostgreSQL \d/);
        return res.json();
      };
      const compare = RotationsCompareSchema.parse(await read('/api/debug/rotations-compare'));
      expect(compare.environment).toEqual({
        nodeEnv: 'test',
        hostname: 'withheld',
        dbHost: 'withheld',
        encryptionKeyAvailable: true,
      });
      expect(compare.withheld).toEqual(['hostname', 'dbHost']);
      // The checks themselves still work.
      expect(compare.summary).toEqual({ directCount: 4, storageCount: 4, match: true });

      const filtering = ProductionFilteringSchema.parse(
        await read('/api/debug/production-filtering'),
      );
      expect(filtering.environment).toEqual({ environment: 'test', dbHost: 'withheld' });
      expect(filtering.withheld).toEqual(['dbHost']);
      expect(filtering.rotationsStats.total).toBe(4);

      const database = DatabaseDiagnosticsSchema.parse(await read('/api/debug/database'));
      expect(database).toMatchObject({
        engine: t.database.engine,
        dbHost: 'withheld',
        serverVersion: 'withheld',
        withheld: ['dbHost', 'serverVersion'],
      });
      expect(database.tables.find((r) => r.name === 'rotations')?.rows).toBe(4);

      const check = ClientCheckSchema.parse(await read('/api/debug/client-check'));
      expect(check.environment.hostname).toBe('withheld');
      expect(check.withheld).toEqual(['hostname']);
      expect(check.rotations.asObject.count).toBe(4);

      expect((await read('/api/debug/rotations')).count).toBe(4);
      expect(AuditIntegritySchema.parse(await read('/api/debug/audit-integrity')).status).toBe(
        'intact',
      );
    } finally {
      await app.close();
    }
  });

  test('audit-integrity: the chain verified to its head, and the first broken link named', async () => {
    // Audited changes made through the API, as an administrator makes them.
    for (const name of ['Audit One', 'Audit Two']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/rotations',
        headers: { cookie, origin: 'http://localhost:80' },
        payload: { name, cadence: 'weekly' },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const intact = AuditIntegritySchema.parse(await get('/api/debug/audit-integrity'));
    expect(intact).toMatchObject({ status: 'intact', firstBroken: null });
    expect(intact.eventsChecked).toBe(intact.head.seq);
    expect(intact.eventsChecked).toBeGreaterThanOrEqual(2);
    expect(intact.checkedAt).toBe(t.clock.now().toISOString());

    // Someone who can switch the triggers off edits an event: the check names that event.
    const [victim] = await selectRows<{ id: number | string; chain_seq: number | string }>(
      t.database.db,
      sql`select id, chain_seq from audit_events where action = 'rotation.created'
           order by chain_seq desc limit 1`,
    );
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger user`);
      await tx.execute(
        sql`update audit_events set details = '{"name": "Nothing to see"}' where id = ${victim.id}`,
      );
      await tx.execute(sql`alter table audit_events enable trigger user`);
    });
    const broken = AuditIntegritySchema.parse(await get('/api/debug/audit-integrity'));
    expect(broken).toMatchObject({
      status: 'broken',
      eventsChecked: Number(victim.chain_seq) - 1,
      firstBroken: {
        kind: 'altered',
        chainSeq: Number(victim.chain_seq),
        eventId: Number(victim.id),
      },
    });
  });

  test('an empty database answers zeros, not errors', async () => {
    const empty = await createTestApp();
    try {
      const admin = await empty.createUser({ roles: ['admin'] });
      const res = await empty.app.inject({
        url: '/api/debug/production-filtering',
        headers: { cookie: await empty.cookieFor(admin) },
      });
      expect(res.json().rotationsStats).toEqual({
        total: 0,
        active: 0,
        suspended: 0,
        percentSuspended: 0,
      });
      const check = await empty.app.inject({
        url: '/api/debug/client-check',
        headers: { cookie: await empty.cookieFor(admin) },
      });
      expect(check.json().rotations.sampleRotation).toBeNull();
    } finally {
      await empty.close();
    }
  });
});
