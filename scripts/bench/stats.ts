// The bench's one percentile: every part's p50, p95 and p99 are read the same way.

/**
 * percentile returns the p-th percentile of ascending `sorted` by nearest rank, or NaN when
 * there is nothing to rank: a figure with no samples is printed as such, never as 0 ms, and
 * compares as missed against any target.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
