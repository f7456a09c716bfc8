import type { Database } from '../../db/client';
import { CHANGE_CHANNEL, parseNotification } from './live-hub';

/**
 * The on-call reads' version where this process is the database's one writer (PGlite, decision
 * 295): how many changes the change feed has announced that can change who is on call, when and
 * with whom, which is every kind but an incident's.
 *
 * The read cache (decision 140) keys the rotation lists and the recent handoffs on it instead of
 * the database's whole state, which every alert, page and delivery moves: under an outage's 200
 * alerts a second no answer was ever read twice. It is exact because migration 0016's triggers
 * announce every change to the rows these reads come from (rotations, members, schedule entries,
 * handoffs, cover, time off, people) in the transaction that makes it, and PGlite, in this process,
 * delivers the announcement before the committing statement's caller goes on: a request that
 * changed something and answered has already moved the version its next read keys on. On
 * PostgreSQL an announcement arrives from another connection some time after the commit, perhaps
 * from another instance, so there the cache keeps the snapshot.
 */
export class OnCallChanges {
  /** null until subscribed (or after the subscription failed): no version, the snapshot keys */
  private count: number | null = null;
  private unlisten: (() => Promise<void>) | null = null;

  /** listen subscribes to the change feed; the version exists once it has. */
  static async listen(database: Database): Promise<OnCallChanges> {
    const changes = new OnCallChanges();
    changes.unlisten = await database.listen(CHANGE_CHANNEL, {
      onNotify: (payload) => changes.heard(payload),
      // A feed that is lost (PostgreSQL's connection; PGlite's is in process) gives no version
      // again: what was announced meanwhile is not known.
      onLost: () => {
        changes.count = null;
      },
    });
    changes.count = 0;
    return changes;
  }

  /** heard counts a notification unless every change it names is an incident's */
  heard(payload: string): void {
    if (this.count === null) return;
    const events = parseNotification(payload);
    // One that cannot be read counts: a version moved for nothing costs one read again.
    if (events.length === 0 || events.some((e) => e.kind !== 'incident')) this.count += 1;
  }

  /** version names the on-call reads' data as of now, or null when it cannot be told */
  version(): string | null {
    return this.count === null ? null : `on-call:${this.count}`;
  }

  async close(): Promise<void> {
    this.count = null;
    await this.unlisten?.();
  }
}
