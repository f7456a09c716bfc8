import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
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
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
});
