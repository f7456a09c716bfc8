import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildApp } from './app';
import { bannerLines, startRuntime } from './bootstrap';
import { ManualClock } from './clock';
import { countRows } from './db/client';
import { handoffs, rotations } from './db/schema';
import { secretsPath } from './secrets';

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

      // The demo administrator signs in with the printed password.
      const app = await buildApp({ ...runtime, logger: false });
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
    } finally {
      await runtime.database.close();
    }
  });
});
