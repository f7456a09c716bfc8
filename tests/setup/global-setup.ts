import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres, wrapPglite } from '../../src/server/db/client';

/**
 * One migrated template per test run (a new PGlite database costs seconds): a PGlite dump every
 * test file loads, and, with TEST_DATABASE_URL, a PostgreSQL template database each file clones.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string | null;
  }
}

const runId = `${process.pid}_${Date.now().toString(36)}`;

export function databaseUrlWithName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const dir = path.resolve('.tmp');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `pglite-template-${runId}.tar.gz`);
  const client = new PGlite();
  const database = wrapPglite(client, 'pglite:template');
  await database.migrate();
  const dump = await client.dumpDataDir('gzip');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide('pgliteTemplate', file);

  const url = process.env.TEST_DATABASE_URL;
  let template: string | null = null;
  if (url) {
    template = `baton_tpl_${runId}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${template}"`);
    const tpl = openPostgres(databaseUrlWithName(url, template), { max: 1 });
    await tpl.migrate();
    await tpl.close();
    await admin.end();
  }
  project.provide('postgresTemplate', template);

  return async () => {
    await rm(file, { force: true });
    if (url && template) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 or datname = $2`,
        [`baton_t_${runId}%`, template],
      );
      for (const { datname } of rows) {
        await admin.query(`drop database if exists "${datname}" with (force)`);
      }
      await admin.end();
    }
  };
}
