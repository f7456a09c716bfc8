import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { sourceFiles } from '../setup/import-graph';

/*
 * The audit trail has one writer (decision 243): `recordAuditEvent` in
 * src/server/modules/audit/audit-events.ts is the only code that inserts into `audit_events`, so
 * the hash chain (decision 172) sees every event through one door. Tests are exempt: they insert
 * by hand on purpose, to probe the database's own triggers or to write an incident's history as
 * the engine would; so are the set-ups split suites share beside them (`*.fixtures.ts`).
 */

const root = path.resolve(import.meta.dirname, '../..');
const OWNER = 'src/server/modules/audit/audit-events.ts';

const INSERTS_AUDIT = /\.insert\(\s*(schema\.)?auditEvents\s*\)|insert\s+into\s+"?audit_events"?/i;

/** auditWriters lists the files, of (path, text) pairs, that insert into the audit table. */
function auditWriters(files: Iterable<[string, string]>): string[] {
  return [...files].filter(([, text]) => INSERTS_AUDIT.test(text)).map(([file]) => file);
}

/** codeFiles lists the TypeScript files below `dir` (relative to the root) but tests' own. */
function codeFiles(dir: string): string[] {
  return sourceFiles(path.join(root, dir))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .filter((file) => !/\.(test|spec)\.tsx?$|\.fixtures\.ts$/.test(file));
}

describe('one writer of the audit trail (decision 243)', () => {
  test.each([
    ['a Drizzle insert', 'await tx.insert(auditEvents).values({ action });'],
    ['a Drizzle insert over lines', 'await tx\n  .insert(schema.auditEvents)\n  .values(v);'],
    ['raw SQL', "await tx.execute(sql`INSERT INTO audit_events (action) values ('x')`);"],
  ])('finds %s', (_what, text) => {
    expect(auditWriters([['src/server/modules/x/x-repository.ts', text]])).toEqual([
      'src/server/modules/x/x-repository.ts',
    ]);
  });

  test('a read of the table is no write', () => {
    expect(auditWriters([['a.ts', 'await db.select().from(auditEvents);']])).toEqual([]);
  });

  test('nothing but recordAuditEvent inserts into audit_events', () => {
    const files = ['src', 'scripts', 'tests'].flatMap(codeFiles);
    expect(files.length).toBeGreaterThan(100);
    const texts = files.map((file): [string, string] => [
      file,
      readFileSync(path.join(root, file), 'utf8'),
    ]);
    expect(auditWriters(texts)).toEqual([OWNER]);
  });
});
