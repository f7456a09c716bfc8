import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import {
  type Database,
  type OpenOptions,
  openPostgres,
  wrapPglite,
} from '../../src/server/db/client';

function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * createTestDatabase gives a test file its own migrated database: a copy of the PGlite template,
 * or, when TEST_DATABASE_URL is set, a PostgreSQL database cloned from the run's template.
 */
export async function createTestDatabase(options: OpenOptions = {}): Promise<Database> {
  const template = inject('postgresTemplate');
  const url = process.env.TEST_DATABASE_URL;
  if (template && url) {
    const name = `${template.replace('baton_tpl_', 'baton_t_')}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create database "${name}" template "${template}"`);
    } finally {
      await admin.end();
    }
    const database = openPostgres(withDatabaseName(url, name), { ...options, max: 25 });
    const close = database.close;
    return {
      ...database,
      close: async () => {
        await close();
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        await dropper
          .query(`drop database if exists "${name}" with (force)`)
          .finally(() => dropper.end());
      },
    };
  }
  const dump = await readFile(inject('pgliteTemplate'));
  const client = await PGlite.create({ loadDataDir: new Blob([dump]) });
  return wrapPglite(client, 'pglite:memory', options);
}
