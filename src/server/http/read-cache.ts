import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock';

/**
 * The per-process cache of read answers (decision 140). An answer is kept under its route, its
 * viewer (none for an answer that is the same for everyone allowed to read it) and the version of
 * the data it was read at: the database snapshot the viewer's session was read in, where any
 * transaction that commits or aborts changes the snapshot's text, so an equal text means equal
 * data; or, where the process can tell one (`version`, decision 295), a version that moves with
 * every change the answer can show. The kept answer was read after its version was taken, so it
 * is never older than its key. Time is the other input: an answer is reused only from the instant
 * it was computed for until the first instant the passing of time alone could change it, and never
 * longer than `maxAgeMs`.
 */

/** An answer as a read computes it. */
export interface ComputedAnswer {
  body: unknown;
  /** the instant the answer's time-dependent parts were computed for */
  at: Date;
  /** the first instant after `at` at which the same rows could give another answer; null: none */
  changesAt: Date | null;
}

interface Entry {
  json: Buffer;
  /** valid from (inclusive) … until (exclusive), in epoch milliseconds */
  from: number;
  until: number;
}

export interface ReadCacheOptions {
  clock: Clock;
  /** the most bytes of JSON kept; the least recently used answers go first */
  maxBytes: number;
  /** the longest an answer is reused, whatever its next time-dependent change */
  maxAgeMs: number;
  /**
   * the version of the data the cached reads show, taken before they read it; null, or absent:
   * the session's snapshot is the version (decision 295)
   */
  version?: () => string | null;
}

/** READ_CACHE_MAX_AGE_MS bounds how long one answer is reused (decision 140). */
export const READ_CACHE_MAX_AGE_MS = 1_000;

const covers = (entry: Entry, at: number) => entry.from <= at && at < entry.until;

/** ReadCache keeps serialized answers by key, least recently used first out, bounded by bytes. */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Entry>>();
  private bytes = 0;

  constructor(private readonly options: ReadCacheOptions) {}

  /** the bytes of JSON kept */
  get keptBytes(): number {
    return this.bytes;
  }

  /** the number of answers kept */
  get size(): number {
    return this.entries.size;
  }

  /** the data's version now, where the process can tell it (decision 295) */
  version(): string | null {
    return this.options.version?.() ?? null;
  }

  /**
   * answer returns the JSON for `key`: a kept answer that is valid now, else the one `compute`
   * gives. Concurrent callers with the same key share one computation when its answer is valid
   * at their own now; `key` must name everything the answer depends on but the time.
   */
  async answer(key: string, compute: () => Promise<ComputedAnswer>): Promise<Buffer> {
    const now = this.options.clock.now().getTime();
    const kept = this.entries.get(key);
    if (kept && covers(kept, now)) {
      // Most recently used goes last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.json;
    }
    const pending = this.inFlight.get(key);
    if (pending) {
      const shared = await pending.catch(() => undefined);
      if (shared && covers(shared, now)) return shared.json;
    }
    const flight = this.compute(key, compute);
    this.inFlight.set(key, flight);
    try {
      return (await flight).json;
    } finally {
      if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
    }
  }

  private async compute(key: string, compute: () => Promise<ComputedAnswer>): Promise<Entry> {
    const answer = await compute();
    const from = answer.at.getTime();
    const until = Math.min(
      answer.changesAt ? answer.changesAt.getTime() : Number.POSITIVE_INFINITY,
      from + this.options.maxAgeMs,
    );
    const entry: Entry = { json: Buffer.from(JSON.stringify(answer.body)), from, until };
    this.keep(key, entry);
    return entry;
  }

  private keep(key: string, entry: Entry) {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.json.length;
    }
    if (entry.json.length > this.options.maxBytes) return;
    this.entries.set(key, entry);
    this.bytes += entry.json.length;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.json.length;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the app's read cache; null when READ_CACHE_MB is 0 */
    readCache: ReadCache | null;
  }
}

/**
 * sendCachedRead answers a read through the app's read cache, keyed by `route` (with the query
 * it was parsed from), the viewer when the answer is the viewer's own (`for: 'viewer'`; an answer
 * that is the same for `everyone` the route lets read it is shared, decision 295), and the data's
 * version: the cache's where it can tell one, else the session's database snapshot. Call it after
 * the route's permission check: only a request with a session gets here, and its identity and
 * rights were read in this request. Without a cache it answers `compute`'s body as it is.
 */
export async function sendCachedRead(
  req: FastifyRequest,
  reply: FastifyReply,
  read: { route: string; for: 'viewer' | 'everyone' },
  compute: () => Promise<ComputedAnswer>,
): Promise<unknown> {
  const cache = req.server.readCache;
  const principal = req.principal;
  if (!cache || !principal) return (await compute()).body;
  const viewer = read.for === 'viewer' ? principal.user.id : 'everyone';
  const version = cache.version() ?? principal.snapshot;
  const json = await cache.answer(`${read.route}\n${viewer}\n${version}`, compute);
  return reply.type('application/json; charset=utf-8').send(json);
}
