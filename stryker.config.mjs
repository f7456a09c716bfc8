// Mutation testing of the domain with the domain's own tests (issue 36, decision 281):
// npm run test:mutation. The score must stay at 90% or more; the JSON report is what
// `npm run bench` prints the score from (scripts/bench/mutation-score.ts).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // The domain's code, not its tests nor their shared fixtures.
  mutate: [
    'src/shared/domain/**/*.ts',
    '!src/shared/domain/**/*.test.ts',
    '!src/shared/domain/**/*.fixtures.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: 90 },
  // The machine has two cores, shared.
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  // Not copied into the sandbox: the folders tests, builds and benches write while a run goes on
  // (a test database's template vanishing mid-copy stopped a run).
  ignorePatterns: [
    '.tmp',
    'data',
    'dist',
    '.bench',
    '.ci-results',
    'reports',
    'test-results',
    'playwright-report',
  ],
  incrementalFile: 'reports/stryker-incremental.json',
  cleanTempDir: true,
  // Stryker rewrites the `extends` and `references` of this file in its sandbox with TypeScript's
  // JavaScript API, which TypeScript 7 (the native compiler) no longer has. Ours has neither to
  // rewrite: naming a file that is not there skips the rewrite, and Vitest still finds tsconfig.json.
  tsconfigFile: 'tsconfig.stryker-skip.json',
};
