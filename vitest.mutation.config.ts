import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The domain's own tests, for mutation testing (npm run test:mutation, stryker.config.mjs): only
 * `src/shared/domain/**\/*.test.ts`, so a mutant of the domain counts as killed only when the
 * domain's tests notice it, not when an API test far away does. No global setup: the domain
 * needs no database.
 */
export default defineConfig({
  resolve: {
    alias: {
      '@shared': path.resolve(import.meta.dirname, 'src/shared'),
    },
  },
  test: {
    include: ['src/shared/domain/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['tests/setup/fail-on-console-error.ts'],
    testTimeout: 30_000,
  },
});
