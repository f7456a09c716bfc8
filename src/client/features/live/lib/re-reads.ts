import type { Query, QueryClient } from '@tanstack/react-query';

/*
 * How the live stream's changes become reads (decision 283). Changes heard within BATCH_MS are
 * read again together; after a round of reads the next waits until GAP_MS has passed, so a
 * stream of changes costs each shown query at most one read a second. A read already under way
 * is never cancelled: under a burst of changes a slow server would otherwise never finish one
 * (the outage bench saw thousands cancelled and none answered). Since a read that began before
 * a change may not show it, each such query is read again in the next round.
 */

/** changes that arrive within this many milliseconds are read again together */
export const BATCH_MS = 100;
/** the least time between two rounds of reads */
export const GAP_MS = 1_000;

/** nextRoundDelay: how long from `now` until the next round of reads, the last one at `lastAt`. */
export function nextRoundDelay(now: number, lastAt: number | null): number {
  if (lastAt === null) return BATCH_MS;
  return Math.max(BATCH_MS, lastAt + GAP_MS - now);
}

/**
 * readAgain marks the cached queries `shows` picks as out of date, so the shown ones are read
 * again, without cancelling a read under way; it returns the queries that were being read, to
 * be read again in the next round.
 */
export function readAgain(client: QueryClient, shows: (query: Query) => boolean): Query[] {
  const underWay = client
    .getQueryCache()
    .findAll({ predicate: (query) => shows(query) && query.state.fetchStatus === 'fetching' });
  void client.invalidateQueries({ predicate: shows }, { cancelRefetch: false });
  return underWay;
}
