// The domain's mutation score beside the bench figures (issue 36, decision 281): read from the
// report `npm run test:mutation` leaves (stryker.config.mjs), not measured here, since a run takes
// the better part of an hour on the 2-core machine.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where stryker.config.mjs writes its JSON report, from the repository's root. */
export const MUTATION_REPORT = 'reports/mutation/mutation.json';
/** Issue 36: the domain's own tests kill at least this share of its mutants. */
export const MUTATION_TARGET_PERCENT = 90;

/** One mutant as the mutation-testing report schema has it (only what the score reads). */
interface ReportMutant {
  status: string;
}

interface Report {
  files: Record<string, { mutants: ReportMutant[] }>;
}

/** The score of a report, and the counts it comes from. */
export interface MutationScore {
  /** killed and timed out over the valid mutants, in percent */
  percent: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** when the report was written (its file's modification time) */
  date: Date;
}

/**
 * mutationScoreOf returns a report's score as Stryker computes it: detected (killed or timed out)
 * over valid mutants (detected, survived or without coverage); compile and run-time errors and
 * ignored mutants do not count.
 */
export function mutationScoreOf(report: Report, date: Date): MutationScore {
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 };
  for (const file of Object.values(report.files)) {
    for (const mutant of file.mutants) {
      if (mutant.status in count) count[mutant.status as keyof typeof count] += 1;
    }
  }
  const detected = count.Killed + count.Timeout;
  const valid = detected + count.Survived + count.NoCoverage;
  return {
    percent: valid === 0 ? 0 : (detected / valid) * 100,
    killed: count.Killed,
    timeout: count.Timeout,
    survived: count.Survived,
    noCoverage: count.NoCoverage,
    date,
  };
}

/** readMutationScore returns the score of the report under `root`, or null when there is none. */
export function readMutationScore(root: string): MutationScore | null {
  const file = path.join(root, MUTATION_REPORT);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  return mutationScoreOf(JSON.parse(text) as Report, statSync(file).mtime);
}

/** mutationScoreLine returns the line the bench prints under its figures. */
export function mutationScoreLine(root: string): string {
  const score = readMutationScore(root);
  if (!score) return 'mutation score of src/shared/domain: not run: npm run test:mutation';
  const met = score.percent >= MUTATION_TARGET_PERCENT ? 'met' : 'NOT met';
  return `mutation score of src/shared/domain: ${score.percent.toFixed(1)}% (target ≥ ${MUTATION_TARGET_PERCENT}%: ${met}), from the report of ${score.date.toISOString()}`;
}
