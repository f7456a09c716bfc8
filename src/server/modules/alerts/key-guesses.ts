import { isIPv4, isIPv6 } from 'node:net';
import type { Clock } from '../../core/clock';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { hitRateLimit, sweepRateLimitHits } from '../../http/rate-limit-store';

/**
 * Limits for clients that guess (issue 30, decision 235): wrong integration keys are counted per
 * client address, over HTTP (every keyed alert endpoint) and SMTP (RCPT) together, in the shared
 * rate-limit table (decision 161), so every instance on one database adds to one count.
 */

/** Wrong keys a client address may send in a window before it is refused (ALERT_KEY_GUESS_LIMIT). */
export const KEY_GUESS_LIMIT_DEFAULT = 20;
/** The window the wrong keys are counted in (fixed, as the other rate limits' windows). */
export const KEY_GUESS_WINDOW_MS = 60_000;
/** How often one process sweeps ended windows. */
const SWEEP_INTERVAL_MS = 60_000;
/** The most blocked addresses one process remembers (beyond: it forgets, the count stays). */
const REMEMBERED_MAX = 10_000;

/**
 * clientKeyOf names the client an address counts for: an IPv4 address (also when written as
 * IPv4-mapped IPv6), or the /64 network of an IPv6 address, since one host is given a whole /64
 * and could otherwise start a fresh count with every address in it.
 */
export function clientKeyOf(address: string | undefined): string {
  const raw = (address ?? '').trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(raw);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(raw)) return raw;
  if (!isIPv6(raw)) return raw || 'unknown';
  const [head, tail = ''] = raw.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = raw.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * KeyGuesses counts wrong integration keys per client and tells who is blocked. A client past the
 * limit is refused, whatever key it sends, until the window in which it passed the limit ends: a
 * guesser cannot tell a hit from a miss. This process learns of a block when it counts one of the
 * client's wrong keys (the count is shared; the block is remembered here, so a flood of further
 * guesses costs no writes).
 */
export class KeyGuesses {
  private readonly blockedUntil = new Map<string, number>();
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: { db: Db; cipher: FieldCipher; clock: Clock },
    readonly limit: number = KEY_GUESS_LIMIT_DEFAULT,
  ) {}

  /** waitOf returns the seconds a client must still wait (≥ 1) while it is blocked, else 0. */
  waitOf(address: string | undefined): number {
    const client = clientKeyOf(address);
    const until = this.blockedUntil.get(client);
    if (until === undefined) return 0;
    const left = until - this.deps.clock.now().getTime();
    if (left > 0) return Math.ceil(left / 1000);
    this.blockedUntil.delete(client);
    return 0;
  }

  /**
   * wrongKey counts one wrong key of a client and returns the seconds it must wait when that
   * passes the limit (it is then blocked), else 0.
   */
  async wrongKey(address: string | undefined): Promise<number> {
    const { db, cipher, clock } = this.deps;
    const client = clientKeyOf(address);
    const now = clock.now();
    if (now.getTime() - this.lastSweep >= SWEEP_INTERVAL_MS) {
      this.lastSweep = now.getTime();
      await sweepRateLimitHits(db, now);
    }
    // Addresses are personal data: the count is kept under a keyed hash (decision 161).
    const keyHash = cipher.blindIndex(`alert-key-guess ${client}`);
    const count = await hitRateLimit(db, keyHash, now, KEY_GUESS_WINDOW_MS);
    if (count.current <= this.limit) return 0;
    if (this.blockedUntil.size >= REMEMBERED_MAX) this.blockedUntil.clear();
    this.blockedUntil.set(client, now.getTime() + Math.max(count.ttl, 1000));
    return Math.max(1, Math.ceil(count.ttl / 1000));
  }
}
