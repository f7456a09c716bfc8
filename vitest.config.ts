import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import packageJson from './package.json' with { type: 'json' };

/**
 * The unit and API suite's order (decision 245): the files known to be slow first, longest
 * first, then the rest in Vitest's own order (by the last run's durations where it has them, by
 * size on a clean clone).
 *
 * The two workers take the next file as they free up, so the suite ends when its last file
 * does. On a clean clone Vitest knows no durations and starts the largest files first: the input
 * fuzz (a small file, 25 s) started last and ran alone for its whole length while the other
 * worker had nothing left. Dealt longest first, the long files overlap each other and the short
 * ones fill in behind them.
 */

/**
 * Seconds each slow file took in one run of the suite on PGlite (2026-11-30, the 2-core machine,
 * two workers). Only the order matters: a wrong figure costs a little time, never a test. A file
 * that grows past a few seconds belongs here (Vitest's JSON report, VITEST_JSON, has each file's
 * start and end).
 */
const SECONDS: Record<string, number> = {
  'src/server/modules/handoffs/two-engines.test.ts': 31,
  'src/server/input-fuzz.test.ts': 25,
  'src/server/bootstrap.test.ts': 22,
  'src/server/db/client.test.ts': 18,
  'src/server/modules/incidents/incident-engine.test.ts': 13,
  'src/server/maintenance/backup.test.ts': 11,
  'src/server/modules/imports/import-command.test.ts': 8,
  'src/server/modules/imports/import-sources.test.ts': 8,
  'src/server/maintenance/key-rotation.test.ts': 7,
  'src/server/db/delivery-answers-migration.test.ts': 7,
  'src/server/modules/token-sync/token-sync.test.ts': 7,
  'tests/lint/boundaries.test.ts': 7,
  'src/server/modules/paging/paging-race.test.ts': 7,
  'src/server/modules/alerts/alertmanager-real.test.ts': 6,
  'src/server/modules/alerts/alert-email.test.ts': 6,
  'src/server/route-access.test.ts': 6,
  'src/server/db/integration-source-migration.test.ts': 6,
  'src/server/db/incidents-migration.test.ts': 5,
  'src/server/db/escalation-policies-migration.test.ts': 5,
  'src/server/db/audit-append-only-migration.test.ts': 5,
  'src/server/modules/alerts/alert-storm-routes.test.ts': 5,
  'src/server/modules/rotations/rotation-layers-routes.test.ts': 5,
  'src/server/modules/sms-replies/sms-reply-routes.test.ts': 5,
  'src/server/modules/notifications/outbox.test.ts': 4,
  'src/server/modules/people/reach-the-person.test.ts': 4,
  'src/server/modules/live/live-routes.test.ts': 3,
  'src/server/modules/imports/import-routes.test.ts': 3,
  'src/server/modules/shift-changes/shift-changes.test.ts': 3,
  'src/server/rotation-scope-access.test.ts': 3,
};

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification) =>
      SECONDS[path.relative(root, file.moduleId).split(path.sep).join('/')] ?? 0;
    const inVitestOrder = await super.sort(files);
    // Array.prototype.sort is stable: files of equal seconds (the unknown ones) keep Vitest's order.
    return [...inVitestOrder].sort((a, b) => seconds(b) - seconds(a));
  }
}

export default defineConfig({
  // As vite.config.ts: client code that shows the version runs in tests too.
  define: { __BATON_VERSION__: JSON.stringify(packageJson.version) },
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src/client'),
      '@shared': path.resolve(import.meta.dirname, 'src/shared'),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    // multi-process fault tests have their own config (vitest.faults.config.ts)
    // *.pg.test.ts need a PostgreSQL server: they run with TEST_DATABASE_URL (npm run test:api:pg)
    exclude: [
      '**/node_modules/**',
      'tests/faults/**',
      ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts']),
    ],
    environment: 'node',
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker's files share its module cache (decision 230): each file used to import the server
    // again, 200 of the PGlite suite's 690 test-seconds and 190 of PostgreSQL's 420. Files share
    // no state that matters: each opens its own database and app, and setup files run per file.
    isolate: false,
    // Vitest's default in a run, one fewer than the cores, is one worker on the 2-core CI machine;
    // two workers there took this suite from 5.5 to 3.9 minutes and the PostgreSQL run from about
    // 6 to 2.5 (decision 215). Each file has its own database, so files share no state.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // The slow files first, longest first, so that none runs alone at the end (decision 245).
    sequence: { sequencer: SlowestFirst },
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
});
