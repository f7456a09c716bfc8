import type { Query, QueryClient } from '@tanstack/react-query';

/*
 * How the live stream's changes become reads (decisions 283 and 286). Changes heard within
 * BATCH_MS are read again together; after a round of reads the next waits until the gap has
 * passed, so a stream of changes costs each shown query at most one read a gap. The gap is a
 * second after a quiet spell and doubles, up to MAX_GAP_MS, while changes keep coming faster than
 * it (a round asked for within the gap after the last): in a storm (an outage: changes many times a second, to every open
 * dashboard) each screen reads again every few seconds instead of every second, which bounds what
 * the watchers ask of the server whatever the change rate; the first change after a quiet spell
 * is read again within BATCH_MS, as before. A read already under way is never cancelled: under a
 * burst of changes a slow server would otherwise never finish one (the outage bench saw thousands
 * cancelled and none answered). Since a read that began before a change may not show it, each
 * such query is read again in the next round.
 */

/** changes that arrive within this many milliseconds are read again together */
export const BATCH_MS = 100;
/** the least time between two rounds of reads, after a quiet spell */
export const GAP_MS = 1_000;
/** the most it grows to while changes keep coming */
export const MAX_GAP_MS = 8_000;

/**
 * RoundPace: when the next round of reads is due, from when the last one was and the gap it
 * kept (the clock is passed in).
 */
export class RoundPace {
  private lastAt: number | null = null;
  private gap = GAP_MS;

  /** delay: how long from `now`, when a change (or a read carried over) asks for a round. */
  delay(now: number): number {
    if (this.lastAt === null) return BATCH_MS;
    const since = now - this.lastAt;
    // Quiet for two gaps: back to a second. Asked within the gap (the round would have had to
    // wait): changes come faster than the gap, which doubles. In between: the gap holds.
    if (since >= 2 * this.gap) this.gap = GAP_MS;
    else if (since < this.gap) this.gap = Math.min(MAX_GAP_MS, this.gap * 2);
    return Math.max(BATCH_MS, this.gap - since);
  }

  /** ran: a round of reads ran at `now`. */
  ran(now: number): void {
    this.lastAt = now;
  }

  /** the gap the next round keeps after the last */
  get currentGap(): number {
    return this.gap;
  }
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
