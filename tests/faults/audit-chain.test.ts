import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../../src/server/app';
import { ManualClock } from '../../src/server/core/clock';
import { FieldCipher, parseMasterKey } from '../../src/server/crypto/field-crypto';
import { type Database, openPostgres, selectRows } from '../../src/server/db/client';
import { verifyAuditChain } from '../../src/server/modules/audit/audit-chain';
import { createSession, SESSION_COOKIE } from '../../src/server/modules/sessions/session-service';
import { insertRotation, insertUser } from '../../src/server/seed/factories';
import { testConfig } from '../setup/test-app';
import { createLocalDatabase } from './support/outage-postgres';
import { LONG, scale } from './support/scale';

/**
 * The audit chain under concurrency, on PostgreSQL (decision 172). Two instances, each its own
 * app and connection pool, share one database. One writer per rotation alternates between them:
 * audited changes (suspend, activate) race across rotations, so audit events are inserted by both
 * instances at once, and their ids (taken from the sequence before the insert trigger waits for
 * the chain head) often reach the chain in another order. The chain must verify intact, one event
 * per answered change, in one line.
 *
 * It also measures what the chain costs: the same work on a second database whose insert trigger
 * fills the chain columns without the head's lock or a hash (the least any trigger could do),
 * for audited changes and for passes of the baton (which write no audit event).
 */
const S = scale.auditChain;
const config = testConfig();
const cipher = new FieldCipher(parseMasterKey(config.encryptionKey!));
const clock = new ManualClock('2027-02-01T10:00:00Z');
const ORIGIN = 'http://localhost:80';

interface World {
  drop: () => Promise<void>;
  databases: Database[];
  apps: FastifyInstance[];
  rotations: { id: number; members: { id: number; cookie: string }[] }[];
  admin: string;
}

async function makeWorld(prefix: string, chained: boolean): Promise<World> {
  const { url, drop } = await createLocalDatabase(prefix);
  const databases = [openPostgres(url, { max: 8 }), openPostgres(url, { max: 8 })];
  await databases[0].migrate();
  const db = databases[0].db;
  if (!chained) {
    // The least an insert trigger can do for the NOT NULL chain columns: no lock, no hash.
    await db.execute(sql`create sequence unchained_seq`);
    await db.execute(
      sql.raw(`create or replace function audit_events_chain() returns trigger
      language plpgsql as $$ begin
        new.chain_seq := nextval('unchained_seq'); new.prev_hash := ''; new.hash := '';
        return new;
      end $$`),
    );
  }
  const cookieOf = async (userId: number) => {
    const { token } = await createSession(db, clock, config.session, userId);
    return `${SESSION_COOKIE}=${token}`;
  };
  const adminUser = await insertUser(db, cipher, { name: 'Avery Admin', roles: ['admin'] });
  const rotations: World['rotations'] = [];
  for (let r = 0; r < S.rotations; r++) {
    const members = [];
    for (let m = 0; m < 3; m++) {
      const user = await insertUser(db, cipher, { name: `Member ${r}.${m}` });
      members.push({ id: user.id, cookie: await cookieOf(user.id) });
    }
    const rotation = await insertRotation(db, {
      name: `Chain ${r}`,
      memberIds: members.map((m) => m.id),
      holderId: members[0].id,
      createdById: adminUser.id,
      now: clock.now(),
    });
    rotations.push({ id: rotation.id, members });
  }
  const apps = await Promise.all(
    databases.map(async (database) => {
      const app = await buildApp({ config, database, cipher, clock, logger: false });
      await app.ready();
      return app;
    }),
  );
  return { drop, databases, apps, rotations, admin: await cookieOf(adminUser.id) };
}

async function closeWorld(world: World | undefined) {
  if (!world) return;
  for (const app of world.apps) await app.close();
  for (const database of world.databases) await database.close();
  await world.drop();
}

/** auditedChanges: per rotation, suspend and activate in turn, alternating instances; per second. */
async function auditedChanges(world: World, perRotation: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    world.rotations.map(async (rotation, r) => {
      for (let n = 0; n < perRotation; n++) {
        const res = await world.apps[(r + n) % 2].inject({
          method: 'POST',
          url: `/api/rotations/${rotation.id}/${n % 2 === 0 ? 'suspend' : 'activate'}`,
          headers: { cookie: world.admin, origin: ORIGIN },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }),
  );
  return (world.rotations.length * perRotation) / ((performance.now() - started) / 1000);
}

/** passes: per rotation, the holder passes to the next member, alternating instances; per second. */
async function passes(world: World, perRotation: number): Promise<number> {
  const started = performance.now();
  await Promise.all(
    world.rotations.map(async (rotation, r) => {
      for (let n = 0; n < perRotation; n++) {
        const from = rotation.members[n % 3];
        const to = rotation.members[(n + 1) % 3];
        const res = await world.apps[(r + n) % 2].inject({
          method: 'POST',
          url: `/api/rotations/${rotation.id}/handoff`,
          headers: { cookie: from.cookie, origin: ORIGIN },
          payload: { toUserId: to.id, notes: `pass ${r}.${n}` },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }),
  );
  return (world.rotations.length * perRotation) / ((performance.now() - started) / 1000);
}

let chained: World | undefined;
let unchained: World | undefined;

beforeAll(async () => {
  chained = await makeWorld('baton_faults_audit', true);
  unchained = await makeWorld('baton_faults_audit_base', false);
}, LONG);

afterAll(async () => {
  await closeWorld(chained);
  await closeWorld(unchained);
}, LONG);

test(
  'two instances inserting audit events at once keep one valid chain; what the chain costs',
  async () => {
    const c = chained!;
    const u = unchained!;
    // Warm both up (connections, prepared plans) before anything is timed.
    await auditedChanges(c, 2);
    await auditedChanges(u, 2);
    await passes(c, 3);
    await passes(u, 3);

    // Both databases run the same work at the same moment, so a busy machine slows both alike.
    const figures = {
      audited: { chained: [] as number[], unchained: [] as number[] },
      passes: { chained: [] as number[], unchained: [] as number[] },
    };
    for (let round = 0; round < S.rounds; round++) {
      const [ac, au] = await Promise.all([
        auditedChanges(c, S.changesPerRotation),
        auditedChanges(u, S.changesPerRotation),
      ]);
      figures.audited.chained.push(ac);
      figures.audited.unchained.push(au);
      const [pc, pu] = await Promise.all([
        passes(c, S.passesPerRotation),
        passes(u, S.passesPerRotation),
      ]);
      figures.passes.chained.push(pc);
      figures.passes.unchained.push(pu);
    }

    const db = c.databases[1].db;
    const expected = S.rotations * (2 + S.rounds * S.changesPerRotation);
    const result = await verifyAuditChain(db, cipher);
    expect(result).toEqual({
      status: 'intact',
      eventsChecked: expected,
      head: { seq: expected, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      firstBroken: null,
    });
    // Both instances wrote, and concurrently: some events reached the chain before an event
    // with a lower id (the id is taken before the insert waits for the head).
    const [order] = await selectRows<{ out_of_order: number; gaps: number }>(
      db,
      sql`select count(*) filter (where id < prev_id)::int as out_of_order,
                 count(*) filter (where chain_seq <> prev_seq + 1)::int as gaps
            from (select id, chain_seq, lag(id) over w as prev_id, lag(chain_seq) over w as prev_seq
                    from audit_events window w as (order by chain_seq)) e`,
    );
    expect(order.gaps).toBe(0);

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const line = (name: string, f: { chained: number[]; unchained: number[] }) =>
      `${name}: ${median(f.chained).toFixed(0)}/s chained vs ${median(f.unchained).toFixed(0)}/s without the chain (${((median(f.chained) / median(f.unchained)) * 100).toFixed(0)}%)`;
    console.info(
      `[audit-chain] ${expected} events from 2 instances, intact; ${order.out_of_order} reached the chain after a higher id. ` +
        `${line('audited changes', figures.audited)}; ${line('passes', figures.passes)} ` +
        `(${S.rotations} writers, ${S.rounds} rounds, medians)`,
    );
    expect(order.out_of_order).toBeGreaterThan(0);
  },
  LONG,
);
