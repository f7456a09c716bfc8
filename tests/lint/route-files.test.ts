import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

/*
 * A module's `*-routes.ts` is HTTP only (decisions 190 and 243): no query builder, no table, no
 * transaction. The database is reached through the module's service or repository.
 */

const root = path.resolve(import.meta.dirname, '../..');
const MODULES = 'src/server/modules';

/** Route files still reading the database themselves, each with the reason it waits. */
const WAITING: Record<string, string> = {
  // Rebuilt with the one notification path on its own branch (issue 31); its reads move then.
  'src/server/modules/notifications/notification-routes.ts': 'notifications are being rebuilt',
};

const DATABASE_CALL =
  /from 'drizzle-orm'|\/db\/schema'|\.transaction\(|\bselectRows\(|\.execute\(\s*sql`/;

/** databaseCallers lists the files, of (path, text) pairs, that reach the database themselves. */
function databaseCallers(files: Iterable<[string, string]>): string[] {
  return [...files].filter(([, text]) => DATABASE_CALL.test(text)).map(([file]) => file);
}

describe('route files are HTTP only', () => {
  test.each([
    ['a query builder', "import { eq } from 'drizzle-orm';"],
    ['a table', "import { users } from '../../db/schema';"],
    ['a transaction', 'await deps.database.db.transaction(async (tx) => {});'],
  ])('finds %s', (_what, text) => {
    expect(databaseCallers([['x-routes.ts', text]])).toEqual(['x-routes.ts']);
  });

  test('a call to the module’s service is no database call', () => {
    expect(databaseCallers([['x-routes.ts', 'return readSettings(db, user.id);']])).toEqual([]);
  });

  test('no route file reaches the database but those waiting', () => {
    const files = readdirSync(path.join(root, MODULES), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('-routes.ts'))
      .map((file) => path.join(MODULES, file).split(path.sep).join('/'));
    expect(files.length).toBeGreaterThan(20);
    const texts = files.map((file): [string, string] => [
      file,
      readFileSync(path.join(root, file), 'utf8'),
    ]);
    expect(databaseCallers(texts).sort()).toEqual(Object.keys(WAITING).sort());
  });
});
