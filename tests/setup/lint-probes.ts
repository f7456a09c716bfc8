/**
 * tests/lint/boundaries.test.ts proves each import boundary by writing a deliberate breach into a
 * short-lived file inside the folder the rule guards (Biome lints only files that exist there).
 * The tests that read the source tree run beside it in other workers, so they pass over these
 * probes: a probe listed and then removed would fail a read, and one read in time would count as
 * the breach it is (decision 244's checks, the import graph, the one audit writer).
 */
export const LINT_PROBE_PREFIX = 'lint-probe-';

/** isLintProbe says whether a path names one of those probes. */
export const isLintProbe = (file: string): boolean =>
  file.split(/[\\/]/).at(-1)?.startsWith(LINT_PROBE_PREFIX) ?? false;
