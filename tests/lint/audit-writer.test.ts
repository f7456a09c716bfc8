import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { isLintProbe } from '../setup/lint-probes';

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

/** sourceFiles lists the TypeScript files below `dir` (relative to the root) but tests' own. */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.(test|spec)\.tsx?$|\.fixtures\.ts$/.test(file))
    .filter((file) => !isLintProbe(file))
    .map((file) => path.join(dir, file).split(path.sep).join('/'));
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
    const files = ['src', 'scripts', 'tests'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const texts = files.map((file): [string, string] => [
      file,
      readFileSync(path.join(root, file), 'utf8'),
    ]);
    expect(auditWriters(texts)).toEqual([OWNER]);
  });
});
