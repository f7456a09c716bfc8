// Timer lateness of issue 36 (decision 275): 10,000 open incidents whose next escalation step
// falls due over a minute, on a server running the production engine interval (15 s); how late
// after its due moment each step is taken, read from beside the server as the moment its commit
// becomes visible.
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import type { FieldCipher } from '../../src/server/crypto/field-crypto';
import type { Db } from '../../src/server/db/client';
import { pages, rotations } from '../../src/server/db/schema';
import { raiseIncident } from '../../src/server/modules/incidents/incident-engine';
import { followNewPolicy, stepsReaching } from '../../src/server/seed/factories';
import { seedOrganisation } from './seed';

const MINUTE = 60_000;
/** raised per transaction while seeding */
const BATCH = 250;

/**
 * seedOpenIncidents raises `count` incidents on one rotation whose policy reaches one person,
 * then another a minute later, each raised a minute before its second step's due moment: the
 * due moments are spread evenly over `spreadMs`, from `startInMs` after the seed ends (the steps
 * are moved there in one statement at the end). Answers each incident's due moment (epoch
 * milliseconds) by its id.
 */
export async function seedOpenIncidents(
  db: Db,
  cipher: FieldCipher,
  count: number,
  spreadMs: number,
  startInMs: number,
): Promise<Map<number, number>> {
  const dueFrom = Date.now();
  const org = await seedOrganisation(
    db,
    cipher,
    { users: 3, rotations: 1, membersPerRotation: 2, handoffs: 0 },
    new Date(),
  );
  const [first, second] = org.users;
  const rotationId = org.rotations[0].id;
  const policyId = await followNewPolicy(db, rotationId, stepsReaching([first, second]), {
    name: 'Bench timers',
    createdById: org.admin.id,
    now: new Date(),
  });
  const [rotation] = await db
    .select({ id: rotations.id, name: rotations.name })
    .from(rotations)
    .where(eq(rotations.id, rotationId));
  const dues = new Map<number, number>();
  for (let from = 0; from < count; from += BATCH) {
    await db.transaction(async (tx) => {
      for (let i = from; i < Math.min(count, from + BATCH); i++) {
        const due = dueFrom + Math.floor((i * spreadMs) / count);
        const raised = await raiseIncident(
          tx,
          { cipher },
          {
            rotation: { ...rotation, escalationPolicyId: policyId },
            raisedBy: null,
            source: 'system',
            message: `Bench incident ${i}`,
            severity: 'P2',
            urgency: 'high',
            now: new Date(due - MINUTE),
          },
        );
        dues.set(raised.id, due);
      }
    });
  }
  const shiftMs = Date.now() + startInMs - dueFrom;
  await db
    .update(pages)
    .set({ stepStartedAt: sql`${pages.stepStartedAt} + make_interval(secs => ${shiftMs / 1000})` })
    .where(inArray(pages.id, [...dues.keys()]));
  return new Map([...dues].map(([id, due]) => [id, due + shiftMs]));
}

/**
 * watchDone reads, every 50 ms on a connection of its own, which of `dues`' ids `doneQuery` (SQL
 * whose $1 is the ids still waiting, answering the ids done) finds done, until all are or
 * `untilMs` (epoch) passes; answers each one's lateness (seen minus due, milliseconds) and how
 * many were never seen.
 */
export async function watchDone(
  url: string,
  dues: Map<number, number>,
  untilMs: number,
  doneQuery: string,
): Promise<{ lateMs: number[]; missing: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const waiting = new Set(dues.keys());
  const lateMs: number[] = [];
  try {
    while (waiting.size > 0 && Date.now() < untilMs) {
      const started = Date.now();
      const { rows } = await client.query<{ id: number }>(doneQuery, [[...waiting]]);
      const seen = Date.now();
      for (const { id } of rows) {
        waiting.delete(id);
        lateMs.push(seen - (dues.get(id) as number));
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 50 - (Date.now() - started))));
    }
  } finally {
    await client.end();
  }
  return { lateMs, missing: waiting.size };
}

/** watchSteps: watchDone for the incidents' second steps. */
export const watchSteps = (url: string, dues: Map<number, number>, untilMs: number) =>
  watchDone(
    url,
    dues,
    untilMs,
    'select id from pages where step_index >= 1 and id = any($1::int[])',
  );
