// Automatic handoffs' lateness of issue 36 (decision 278): fixed rotations whose holder never
// passes the baton, their automatic transfers falling due over a minute, on a server running the
// production engine interval (15 s) and timings; how late after its due moment each transfer is
// taken, read from beside the server as the moment its commit becomes visible.
import { sql } from 'drizzle-orm';
import type { FieldCipher } from '../../src/server/crypto/field-crypto';
import type { Db } from '../../src/server/db/client';
import { DEFAULT_HANDOFF_TIMINGS } from '../../src/shared/domain/handoff-flow';
import { watchDone } from './escalation-timers';
import { seedOrganisation } from './seed';

/**
 * seedDueTransfers writes `count` fixed rotations of two members, the baton with one, whose
 * boundaries passed an automatic-transfer delay before their due moments: the transfers fall
 * due evenly over `spreadMs`, from `startInMs` after the seed ends. Answers each rotation's due
 * moment (epoch milliseconds) by its id.
 */
export async function seedDueTransfers(
  db: Db,
  cipher: FieldCipher,
  count: number,
  spreadMs: number,
  startInMs: number,
): Promise<Map<number, number>> {
  const org = await seedOrganisation(
    db,
    cipher,
    { users: count * 2, rotations: count, membersPerRotation: 2, handoffs: 0 },
    new Date(),
  );
  const dueFrom = Date.now() + startInMs;
  const dues = new Map(
    org.rotations.map((r, i) => [r.id, dueFrom + Math.floor((i * spreadMs) / count)]),
  );
  const auto = DEFAULT_HANDOFF_TIMINGS.autoTransferAfterMs;
  const rows = [...dues].map(
    ([id, due]) => sql`(${id}::int, ${new Date(due - auto)}::timestamptz)`,
  );
  for (let at = 0; at < rows.length; at += 1_000) {
    await db.execute(
      sql`update rotations r set next_handoff_at = v.boundary
            from (values ${sql.join(rows.slice(at, at + 1_000), sql`, `)}) v(id, boundary)
           where r.id = v.id`,
    );
  }
  return dues;
}

/** watchTransfers: watchDone for the rotations whose baton moved from the holder they had. */
export const watchTransfers = (url: string, dues: Map<number, number>, untilMs: number) =>
  watchDone(
    url,
    dues,
    untilMs,
    `select distinct h.rotation_id as id from handoffs h
      where h.rotation_id = any($1::int[]) and h.kind = 'auto'`,
  );
