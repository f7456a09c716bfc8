import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Clock } from '../core/clock';
import type { FieldCipher } from '../crypto/field-crypto';
import type { Db } from '../db/client';
import { rateLimitHits } from '../db/schema';

/** How often one process sweeps rows whose window has ended. */
const SWEEP_INTERVAL_MS = 60_000;

/** What @fastify/rate-limit's store calls answer: hits in the window and milliseconds left. */
interface Count {
  current: number;
  ttl: number;
}

/**
 * hitRateLimit counts one hit of `keyHash` and answers the hits in its current window. One
 * statement: an insert that, on conflict, adds one to a live window or starts a new one, so two
 * instances counting at once both count (decision 161).
 */
export async function hitRateLimit(
  db: Db,
  keyHash: string,
  now: Date,
  windowMs: number,
): Promise<Count> {
  const windowEndsAt = new Date(now.getTime() + windowMs);
  const ended = sql`${rateLimitHits.windowEndsAt} <= ${now.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(rateLimitHits)
    .values({ keyHash, hits: 1, windowEndsAt })
    .onConflictDoUpdate({
      target: rateLimitHits.keyHash,
      set: {
        hits: sql`case when ${ended} then 1 else ${rateLimitHits.hits} + 1 end`,
        windowEndsAt: sql`case when ${ended} then excluded.window_ends_at else ${rateLimitHits.windowEndsAt} end`,
      },
    })
    .returning({ hits: rateLimitHits.hits, windowEndsAt: rateLimitHits.windowEndsAt });
  return { current: row.hits, ttl: Math.max(0, row.windowEndsAt.getTime() - now.getTime()) };
}

/** rateLimitHitsOf answers the hits of `keyHash` in its window live at `now`, counting none. */
export async function rateLimitHitsOf(db: Db, keyHash: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ hits: rateLimitHits.hits })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.keyHash, keyHash), gt(rateLimitHits.windowEndsAt, now)));
  return row?.hits ?? 0;
}

/** sweepRateLimitHits deletes the counts whose window has ended by `now` (every scope's). */
export async function sweepRateLimitHits(db: Db, now: Date): Promise<void> {
  await db.delete(rateLimitHits).where(lte(rateLimitHits.windowEndsAt, now));
}

/**
 * databaseRateLimitStore returns a store class for @fastify/rate-limit (its `store` option) that
 * keeps the counts in the database, so a limit holds across every instance on one database, on
 * PostgreSQL and PGlite alike (decision 161). Each route counts on its own (the store's `child`);
 * the client's key (its address) is stored as a keyed hash (HMAC, the cipher's blind index), as
 * addresses are personal data.
 */
export function databaseRateLimitStore(deps: { db: Db; clock: Clock; cipher: FieldCipher }) {
  const { db, clock, cipher } = deps;
  let lastSweep = Number.NEGATIVE_INFINITY;

  async function sweep(now: Date) {
    if (now.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now.getTime();
    await sweepRateLimitHits(db, now);
  }

  return class DatabaseRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly scope = 'app',
    ) {}

    incr(key: string, done: (err: Error | null, count?: Count) => void, timeWindow: number) {
      const now = clock.now();
      const keyHash = cipher.blindIndex(`rate-limit ${this.scope} ${key}`);
      sweep(now)
        .then(() => hitRateLimit(db, keyHash, now, timeWindow))
        .then(
          (count) => done(null, count),
          (err: Error) => done(err),
        );
    }

    /** @fastify/rate-limit calls it per route with the route's merged options (`routeInfo`). */
    child(routeOptions: object) {
      const route =
        (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ??
        {};
      const scope = `${[route.method ?? ''].flat().join(',')} ${route.url ?? ''}`;
      return new DatabaseRateLimitStore(undefined, scope);
    }
  };
}
