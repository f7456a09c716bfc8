import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { TEST_KEY, testConfig, withOwnOrigin } from '../../tests/setup/test-app';
import { createTestDatabase } from '../../tests/setup/test-database';
import { LOCAL_SIGN_IN_NOTE } from '../shared/contracts/auth';
import { buildApp } from './app';
import { bannerLines, ensureAdmin, NOBODY_YET, type Runtime, startRuntime } from './bootstrap';
import { ManualClock } from './core/clock';
import { BATON_VERSION } from './core/version';
import { FieldCipher, parseMasterKey } from './crypto/field-crypto';
import { countRows } from './db/client';
import { handoffs, rotations, users } from './db/schema';
import { toUser } from './modules/users/user-repository';
import { secretsPath } from './secrets';
import { insertUser } from './seed/factories';

const dirs: string[] = [];
async function freshDataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'baton-data-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const clock = new ManualClock('2026-11-04T15:00:00Z');

describe('start-up on an empty data directory (demo mode)', () => {
  test('generates owner-only secrets, seeds a living demo team, locks the directory', async () => {
    const dataDir = await freshDataDir();
    const runtime = await startRuntime({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, clock);
    try {
      const mode = (await stat(secretsPath(dataDir))).mode & 0o777;
      expect(mode).toBe(0o600);
      expect(runtime.notes).toMatchObject({ demo: true, seeded: true, generatedPassword: true });
      expect(runtime.config.localLoginPassword).toMatch(/^[\w-]{16}$/);

      const all = await runtime.database.db.select().from(rotations);
      expect(all.map((r) => [r.name, r.cadence, r.suspended, r.holderUserId !== null])).toEqual([
        ['Platform Primary', 'weekly', false, true],
        ['Database On-Call', 'daily', false, true],
        ['Legacy Payments', 'weekly', true, false],
      ]);
      expect(all[0].nextHandoffAt?.toISOString()).toBe('2026-11-09T14:00:00.000Z'); // Monday 09:00 New York
      expect((await runtime.database.db.select().from(handoffs)).length).toBeGreaterThan(3);

      const banner = bannerLines(runtime, 'http://localhost:3000').join('\n');
      expect(banner).toContain(runtime.config.localLoginPassword);
      expect(banner).toContain('avery.admin@example.com');
      expect(banner).toContain(`Note: ${LOCAL_SIGN_IN_NOTE}`);
      // No channel is configured: the demo inbox keeps what would be sent (decision 186).
      expect(banner).toContain('read them at http://localhost:3000/inbox.');

      // The demo administrator signs in with the printed password.
      const app = await buildApp({ ...runtime, logger: false });
      withOwnOrigin(app);
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'avery.admin@example.com', password: runtime.config.localLoginPassword },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({
        name: 'Avery Admin',
        role: 'admin',
        roles: ['admin'],
      });
      await app.close();

      await expect(startRuntime({ DATA_DIR: dataDir }, clock)).rejects.toThrow(
        /Another Baton process is already using the data directory/,
      );
    } finally {
      await runtime.database.close();
    }
    // Reopening keeps the data and the same key and password, and seeds nothing twice.
    const again = await startRuntime({ DATA_DIR: dataDir }, clock);
    try {
      expect(again.notes.seeded).toBe(false);
      expect(again.notes.demoTeam).toBe(true);
      expect(again.config.localLoginPassword).toBe(runtime.config.localLoginPassword);
      expect(await countRows(again.database.db, 'rotations')).toBe(3);
    } finally {
      await again.database.close();
    }
  });

  test('DEMO=0 seeds nothing; ADMIN_EMAIL creates the first administrator', async () => {
    const dataDir = await freshDataDir();
    const runtime = await startRuntime(
      { DATA_DIR: dataDir, DEMO: '0', ADMIN_EMAIL: 'first.admin@example.com' },
      clock,
    );
    try {
      expect(runtime.notes.seeded).toBe(false);
      expect(runtime.notes.adminCreated).toBe('first.admin@example.com');
      expect(await countRows(runtime.database.db, 'users')).toBe(1);
      expect(await countRows(runtime.database.db, 'rotations')).toBe(0);
      // The banner names the administrator and the password to sign in with, and no demo account.
      const banner = bannerLines(runtime, 'http://localhost:3000').join('\n');
      expect(banner).toContain('Administrator account: first.admin@example.com');
      expect(banner).toContain(`  password: ${runtime.config.localLoginPassword}`);
      expect(banner).not.toContain('Demo mode');
      expect(banner).not.toContain('avery.admin@example.com');
      expect(banner).not.toContain(NOBODY_YET);
    } finally {
      await runtime.database.close();
    }
  });
});

describe('the start-up banner', () => {
  test('says a configured local password is a shared one for demos, not for real use', () => {
    const config = testConfig({ OIDC_CLIENT_ID: 'baton-client' });
    const runtime = {
      config,
      database: { location: 'PGlite ./data' },
      notes: { demo: false, seeded: false, generatedPassword: false },
    } as unknown as Runtime;
    const banner = bannerLines(runtime, 'http://localhost:3000');
    expect(banner[0]).toBe(
      `Baton is running at http://localhost:3000 (version ${BATON_VERSION}, database: PGlite ./data)`,
    );
    expect(banner).toContain('Local sign-in is on (LOCAL_LOGIN_PASSWORD).');
    expect(banner).toContain(`  Note: ${LOCAL_SIGN_IN_NOTE}`);
    expect(banner.join('\n')).not.toContain(config.localLoginPassword);
    // Not demo mode: no demo inbox.
    expect(banner.join('\n')).not.toContain('/inbox');
    const withoutPassword = { ...runtime, config: { ...config, localLoginPassword: undefined } };
    expect(bannerLines(withoutPassword, 'http://localhost:3000').join('\n')).not.toMatch(
      /password/i,
    );
  });
});

describe('the demo seed follows DEMO', () => {
  test('DEMO=1 seeds the demo team even with an identity provider configured (not demo mode)', async () => {
    const dataDir = await freshDataDir();
    const runtime = await startRuntime(
      {
        DATA_DIR: dataDir,
        DEMO: '1',
        OIDC_CLIENT_ID: 'baton-client',
        OIDC_CLIENT_SECRET: 's3cret',
      },
      clock,
    );
    try {
      expect(runtime.notes).toMatchObject({ demo: false, seeded: true, generatedPassword: false });
      // Not demo mode: no local password is generated; people sign in through the provider.
      expect(runtime.config.localLoginPassword).toBeUndefined();
      expect(bannerLines(runtime, 'http://localhost:3000').join('\n')).not.toContain('password');
      const names = (await runtime.database.db.select().from(rotations)).map((r) => r.name);
      expect(names).toEqual(['Platform Primary', 'Database On-Call', 'Legacy Payments']);
      expect(await countRows(runtime.database.db, 'users')).toBeGreaterThanOrEqual(4);
    } finally {
      await runtime.database.close();
    }
  });

  test('DEMO=0 in demo mode seeds nothing, though local sign-in is on', async () => {
    const dataDir = await freshDataDir();
    const runtime = await startRuntime({ DATA_DIR: dataDir, DEMO: '0' }, clock);
    try {
      expect(runtime.notes).toMatchObject({ demo: true, seeded: false, generatedPassword: true });
      expect(await countRows(runtime.database.db, 'users')).toBe(0);
      expect(await countRows(runtime.database.db, 'rotations')).toBe(0);
      // No demo account exists, so none is listed; the banner says how to make the first account.
      const banner = bannerLines(runtime, 'http://localhost:3000');
      expect(banner.join('\n')).not.toMatch(/Demo mode|avery\.admin|sam\.sullivan/);
      expect(banner).toContain('Local sign-in is on (LOCAL_LOGIN_PASSWORD).');
      expect(banner).toContain(NOBODY_YET);
    } finally {
      await runtime.database.close();
    }
  });
});

describe('ADMIN_EMAIL', () => {
  const cipher = new FieldCipher(parseMasterKey(TEST_KEY));
  const withDatabase = async (
    run: (database: Awaited<ReturnType<typeof createTestDatabase>>) => Promise<void>,
  ) => {
    const database = await createTestDatabase();
    try {
      await run(database);
    } finally {
      await database.close();
    }
  };
  const allUsers = async (database: Awaited<ReturnType<typeof createTestDatabase>>) =>
    (await database.db.select().from(users).orderBy(users.id)).map((row) => toUser(row, cipher));

  test('makes an existing user the first administrator, keeping their roles and name', async () => {
    await withDatabase(async (database) => {
      const casey = await insertUser(database.db, cipher, {
        name: 'Casey Existing',
        email: 'casey.existing@example.com',
        roles: ['manager'],
      });
      const config = testConfig({ ADMIN_EMAIL: 'Casey.Existing@example.com' });
      expect(await ensureAdmin({ config, database, cipher })).toBe('Casey.Existing@example.com');
      expect(await allUsers(database)).toEqual([
        expect.objectContaining({
          id: casey.id,
          name: 'Casey Existing',
          roles: ['admin', 'manager'],
        }),
      ]);
    });
  });

  test('does nothing when an administrator exists, whoever the address belongs to', async () => {
    await withDatabase(async (database) => {
      await insertUser(database.db, cipher, { email: 'avery.admin@example.com', roles: ['admin'] });
      await insertUser(database.db, cipher, {
        email: 'oscar.oncall@example.com',
        roles: ['on-call'],
      });
      const before = await allUsers(database);
      for (const address of ['oscar.oncall@example.com', 'nobody.yet@example.com']) {
        const config = testConfig({ ADMIN_EMAIL: address });
        expect(await ensureAdmin({ config, database, cipher })).toBeUndefined();
      }
      expect(await allUsers(database)).toEqual(before);
    });
  });
});
