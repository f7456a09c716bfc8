import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

// Multi-instance and fault tests: real Baton processes (dist/server/main.js) against PGlite
// directories and the local PostgreSQL. FAULTS_SCALE=ci runs a shorter version for .ci/run;
// the default is the full size (`npm run test:faults`).
const merged = mergeConfig(
  base,
  defineConfig({
    test: {
      testTimeout: 600_000,
      hookTimeout: 120_000,
      fileParallelism: false,
      // Some set process.env for the processes they start: each file in a fresh worker.
      isolate: true,
    },
  }),
);
// mergeConfig concatenates arrays: the base's include and its exclusion of tests/faults are
// replaced here, not merged.
merged.test = {
  ...merged.test,
  include: ['tests/faults/**/*.test.ts'],
  exclude: ['**/node_modules/**'],
};
export default merged;
