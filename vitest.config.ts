import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import packageJson from './package.json' with { type: 'json' };

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
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
});
