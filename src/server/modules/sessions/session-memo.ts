import { TOUCH_INTERVAL_MS } from './session-service';

/** A session as read from the database, with what decides how long it may be remembered. */
export interface RememberedSession<T> {
  value: T;
  lastSeenAt: Date;
  idleExpiresAt: Date;
  absoluteExpiresAt: Date;
}

/**
 * SessionMemo remembers resolved sessions by token hash while the database's change count stays
 * where it was when they were read (decision 141). Only where this process is the database's one
 * writer (PGlite) does an unchanged count mean an unchanged session and user: a logout, a role
 * change or a deleted user is a write, so it is seen by the next request. A remembered session is
 * given out only while it is live by the clock and needs no last-seen write; otherwise the caller
 * reads the database, which also records the use.
 */
export class SessionMemo<T> {
  private generation: number | undefined;
  private readonly entries = new Map<string, RememberedSession<T>>();

  constructor(
    private readonly changeCount: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  /** count returns the change count now: read it before reading the session from the database. */
  count(): number {
    return this.changeCount();
  }

  /** get returns the remembered session of a token hash if nothing changed since and it is live. */
  get(tokenHash: string, now: Date): T | undefined {
    if (this.generation !== this.changeCount()) {
      this.entries.clear();
      this.generation = undefined;
      return undefined;
    }
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    const at = now.getTime();
    const live =
      at < entry.idleExpiresAt.getTime() &&
      at < entry.absoluteExpiresAt.getTime() &&
      at - entry.lastSeenAt.getTime() <= TOUCH_INTERVAL_MS;
    return live ? entry.value : undefined;
  }

  /** remember keeps a session read at change count `count` (taken before the read). */
  remember(tokenHash: string, count: number, session: RememberedSession<T>): void {
    // Something changed while it was read (its own last-seen write, say): not worth keeping.
    if (count !== this.changeCount()) return;
    if (this.generation !== count) {
      this.entries.clear();
      this.generation = count;
    }
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, session);
  }
}
