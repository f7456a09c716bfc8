// Automatic handoffs' and layered window edges' lateness of issue 36 (decision 278): fixed
// rotations whose holder never passes the baton, their automatic transfers falling due over a
// minute, and layered rotations whose on-duty windows all change at one minute, each on a server
// running the production engine interval (15 s) and timings; how late after its due moment each
// baton moves, read from beside the server as the moment its commit becomes visible.
import { eq, sql } from 'drizzle-orm';
import type { FieldCipher } from '../../src/server/crypto/field-crypto';
import type { Db } from '../../src/server/db/client';
import { rotations } from '../../src/server/db/schema';
import { startLayers } from '../../src/server/modules/rotations/rotation-layer-writes';
import type { RotationLayer } from '../../src/shared/contracts/rotations';
import { DEFAULT_HANDOFF_TIMINGS } from '../../src/shared/domain/handoff-flow';
import { watchDone } from './escalation-timers';
import { seedOrganisation } from './seed';

/** seedPairs: an organisation of `count` rotations of two members each, and no handoffs. */
const seedPairs = (db: Db, cipher: FieldCipher, count: number) =>
  seedOrganisation(
    db,
    cipher,
    { users: count * 2, rotations: count, membersPerRotation: 2, handoffs: 0 },
    new Date(),
  );

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
  const org = await seedPairs(db, cipher, count);
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

const HOUR = 3_600_000;
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
/** hhmm: an instant's UTC wall-clock time, 'HH:MM' */
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * seedWindowEdges writes `count` layered rotations of two members in UTC, each a follow-the-sun
 * pair of 12-hour shifts (decision 247): the first member's layer on duty for the twelve hours
 * before the edge, the second's for the twelve after, so that every rotation's baton is due to
 * move at the one edge, the first whole minute at least `startInMs` after the seed ends (as a
 * company's teams all change at the same hour). The layers start through the rotations' own
 * path (`startLayers`: members, the first holder, the next change). Answers each rotation's due
 * moment (the edge, epoch milliseconds) by its id.
 */
export async function seedWindowEdges(
  db: Db,
  cipher: FieldCipher,
  count: number,
  startInMs: number,
): Promise<Map<number, number>> {
  const org = await seedPairs(db, cipher, count);
  const edge = Math.ceil((Date.now() + startInMs) / 60_000) * 60_000;
  const shift = (name: string, memberId: number, from: number, to: number): RotationLayer => ({
    name,
    memberIds: [memberId],
    cadence: 'daily',
    cadenceEvery: 1,
    handoffTime: '00:00',
    handoffWeekday: 1,
    activeWindows: [{ days: EVERY_DAY, start: hhmm(from), end: hhmm(to) }],
    startsAt: new Date(edge - 7 * 24 * HOUR).toISOString(),
  });
  for (const seeded of org.rotations) {
    const [first, second] = seeded.memberIds;
    const layers = [
      shift('Here', first, edge - 12 * HOUR, edge),
      shift('There', second, edge, edge + 12 * HOUR),
    ];
    await db.transaction(async (tx) => {
      // As a rotation given layers through the API: its clock starts from now (decision 247).
      const now = new Date();
      const [row] = await tx
        .update(rotations)
        .set({ layers, timeZone: 'UTC', nextHandoffAt: now })
        .where(eq(rotations.id, seeded.id))
        .returning();
      await startLayers(tx, { cipher }, row, layers, now);
    });
  }
  return new Map(org.rotations.map((r) => [r.id, edge]));
}

/** watchWindowEdges: watchDone for the rotations whose baton the engine moved at the edge. */
export const watchWindowEdges = (url: string, dues: Map<number, number>, untilMs: number) => {
  const edge = new Date(Math.min(...dues.values())).toISOString();
  return watchDone(
    url,
    dues,
    untilMs,
    `select distinct h.rotation_id as id from handoffs h
      where h.rotation_id = any($1::int[]) and h.kind = 'schedule'
        and h.occurred_at >= '${edge}'::timestamptz`,
  );
};
