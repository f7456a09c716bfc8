import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { type Database, migrationsFolder, wrapPglite } from '../../src/server/db/client';

/**
 * databaseBefore opens a fresh in-memory PGlite database migrated up to, and not including, the
 * migration named `name` (its tag without the number: 'escalation_policies' for
 * 0009_escalation_policies). A migration test then writes the rows that migration must carry
 * over, runs `database.migrate()` (the rest of the migrations, that one first) and checks them.
 * The caller closes the database. Fails when no migration, or the first, has that name.
 */
export async function databaseBefore(name: string): Promise<Database> {
  const folder = await mkdtemp(path.join(os.tmpdir(), `baton-before-${name}-`));
  try {
    await cp(migrationsFolder(), folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
      entries: { tag: string }[];
    };
    const upTo = journal.entries.findIndex((e) => e.tag.replace(/^\d+_/, '') === name);
    if (upTo < 1) throw new Error(`no migration after the first is named ${name}`);
    journal.entries = journal.entries.slice(0, upTo);
    await writeFile(journalPath, JSON.stringify(journal));

    const database = wrapPglite(await PGlite.create(), 'pglite:memory');
    try {
      await migrate(database.db as never, { migrationsFolder: folder });
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
