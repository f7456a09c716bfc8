import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type BatonProcess,
  createDatabase,
  removeDir,
  signIn,
  sleep,
  startBaton,
  stopAll,
  TestClockFile,
  type TestDatabase,
  tempDir,
} from './support/processes';
import { LONG, scale } from './support/scale';
import { createRotation, invitePeople } from './support/team';

/**
 * A Baton process killed (SIGKILL) in the middle of engine work (issue 8, "Faults"): two
 * instances on one PostgreSQL database run the engine on a file clock (decision 090). Each round
 * moves the clock past a shift boundary of every rotation, so both engines hand off hundreds of
 * rotations at once; one of them is killed when a different share of the work is done each time.
 * The other must finish the round within two of its own ticks, and the history must have every
 * handoff once: none lost, none doubled, both notifications of each.
 */

const S = scale.engineKill;
const ADMIN = 'admin@example.com';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The first day; each round is the next day. Rotations hand off daily at 09:00 UTC. */
const DAY0 = Date.parse('2026-03-02T00:00:00Z');
const boundaryOf = (round: number) => new Date(DAY0 + round * DAY + 9 * HOUR);
/** the automatic transfer happens 60 minutes after the boundary (the default flow) */
const roundTime = (round: number) => new Date(boundaryOf(round).getTime() + HOUR + 30_000);

let database: TestDatabase;
let clockDir: string;
let clock: TestClockFile;
const instances: BatonProcess[] = [];
/** every process started, killed ones too, for their logs */
const started: BatonProcess[] = [];
let env: Record<string, string>;
let memberIds: number[];
let rotationIds: number[];

async function start(name: string) {
  const proc = await startBaton({ name, env });
  started.push(proc);
  return proc;
}

beforeAll(async () => {
  database = await createDatabase('kill');
  clockDir = await tempDir('kill-clock');
  clock = new TestClockFile(`${clockDir}/now`);
  await clock.set(new Date(DAY0));
  env = {
    DATABASE_URL: database.url,
    DATA_DIR: '/nonexistent',
    ADMIN_EMAIL: ADMIN,
    BATON_TEST_CLOCK_FILE: clock.file,
    ENGINE_INTERVAL_SECONDS: String(S.engineIntervalSeconds),
    OUTBOX_INTERVAL_SECONDS: '3600',
  };
  instances.push(await start('instance A'));
  instances.push(await start('instance B'));
  const admin = await signIn(instances[0].url, ADMIN);
  const people = await invitePeople(
    instances[0].url,
    admin,
    ['Ana', 'Ben', 'Cid'].map((n) => ({
      email: `${n.toLowerCase()}@example.com`,
      name: `${n} Kill`,
    })),
  );
  memberIds = people.map((p) => p.id);
  rotationIds = [];
  const workers = 6;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; i < S.rotations; i += workers) {
        const rotation = await createRotation(instances[i % 2].url, admin, {
          name: `Kill ${i}`,
          cadence: 'daily',
          timeZone: 'UTC',
          handoffTime: '09:00',
          memberIds,
          holderId: memberIds[0],
        });
        rotationIds.push(rotation.id);
      }
    }),
  );
}, LONG);

afterAll(async () => {
  await stopAll();
  await database?.drop();
  if (clockDir) await removeDir(clockDir);
});

async function autoCount(round: number): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    "select count(*)::int as n from handoffs where kind = 'auto' and occurred_at = $1",
    [new Date(boundaryOf(round).getTime() + HOUR)],
  );
  return rows[0].n;
}

/** tickedAt waits until the instance has finished a tick at `at` (its /readyz says so). */
async function tickedAt(instance: BatonProcess, at: Date, timeoutMs = 30_000): Promise<void> {
  const iso = at.toISOString();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${instance.url}/readyz`);
    const body = (await res.json()) as { engine?: { lastTickAt: string | null } };
    if (res.status === 200 && body.engine?.lastTickAt === iso) return;
    if (Date.now() > deadline) throw new Error(`${instance.name} did not tick at ${iso}`);
    await sleep(2);
  }
}

test(
  `${S.kills} SIGKILLs in the middle of engine work: nothing lost or doubled, the other instance takes over within two ticks`,
  async () => {
    const R = rotationIds.length;
    expect(R).toBe(S.rotations);
    const kills: {
      round: number;
      victim: string;
      target: number;
      doneAtKill: number;
      takeoverMs: number;
    }[] = [];

    for (let round = 0; round < S.kills; round++) {
      const victimIndex = round % 2;
      const victim = instances[victimIndex];
      const survivor = instances[1 - victimIndex];
      // Kill when a different share of the round's handoffs is done each time: from before the
      // first one to nearly all of them.
      const target = Math.floor(((round * 0.6180339887) % 1) * R * 0.95);
      const at = roundTime(round);
      await clock.set(at);
      while ((await autoCount(round)) < target) await sleep(1);
      victim.child.kill('SIGKILL');
      const killedAt = Date.now();
      const doneAtKill = await autoCount(round);
      await victim.kill();

      // Two ticks of the survivor after the kill: the one running (or next) when the clock moves
      // a second on, then one more that started after it ended.
      await clock.set(new Date(at.getTime() + 1000));
      await tickedAt(survivor, new Date(at.getTime() + 1000));
      await clock.set(new Date(at.getTime() + 2000));
      await tickedAt(survivor, new Date(at.getTime() + 2000));
      const takeoverMs = Date.now() - killedAt;
      kills.push({ round, victim: victim.name, target, doneAtKill, takeoverMs });

      // Every rotation handed off once at this boundary, to the next member, and told both people.
      const { rows } = await database.pool.query<{ rotation_id: number; n: number; ids: number[] }>(
        `select rotation_id, count(*)::int as n, array_agg(id) as ids from handoffs
        where kind = 'auto' and effect_key like 'auto:%:' || $1 group by rotation_id`,
        [boundaryOf(round).toISOString()],
      );
      expect(rows.length, `round ${round}: rotations handed off`).toBe(R);
      expect(
        rows.filter((r) => r.n !== 1),
        `round ${round}: doubled`,
      ).toEqual([]);
      const holders = await database.pool.query<{ holder: number; n: number }>(
        'select holder_user_id as holder, count(*)::int as n from rotations where id = any($1) group by 1',
        [rotationIds],
      );
      expect(holders.rows, `round ${round}: holders`).toEqual([
        { holder: memberIds[(round + 1) % memberIds.length], n: R },
      ]);
      const notices = await database.pool.query<{ n: number }>(
        `select count(*)::int as n from notifications where dedupe_key like any($1)`,
        [rows.map((r) => `handoff:${r.ids[0]}:%`)],
      );
      expect(notices.rows[0].n, `round ${round}: notifications`).toBe(2 * R);

      // The killed instance comes back for the next round.
      instances[victimIndex] = await start(victim.name);
    }

    // The whole history: one automatic handoff per rotation and round, chained member to member.
    const all = await database.pool.query<{
      rotation_id: number;
      from_user_id: number;
      to_user_id: number;
    }>(
      "select rotation_id, from_user_id, to_user_id from handoffs where kind = 'auto' order by rotation_id, occurred_at, id",
    );
    expect(all.rows).toHaveLength(R * S.kills);
    for (const rotationId of rotationIds) {
      const chain = all.rows.filter((h) => h.rotation_id === rotationId);
      chain.forEach((h, k) => {
        expect(h.from_user_id).toBe(memberIds[k % memberIds.length]);
        expect(h.to_user_id).toBe(memberIds[(k + 1) % memberIds.length]);
      });
    }
    const dupes = await database.pool.query(
      'select dedupe_key from notifications group by 1 having count(*) > 1',
    );
    expect(dupes.rows).toEqual([]);

    const mid = kills.filter((k) => k.doneAtKill > 0 && k.doneAtKill < R).length;
    const takeover = kills.map((k) => k.takeoverMs).sort((a, b) => a - b);
    console.info(
      `[engine-kill] ${kills.length} kills over ${R} rotations per round; ${mid} with the round partly done (done at kill: ${kills
        .map((k) => k.doneAtKill)
        .join(
          ', ',
        )}); kill → two survivor ticks: median ${takeover[Math.floor(takeover.length / 2)]} ms, max ${takeover.at(-1)} ms`,
    );
    // No engine tick failed anywhere: a dead peer's locks and transactions are simply gone.
    for (const proc of started) {
      expect(proc.stdout() + proc.stderr(), proc.name).not.toMatch(/engine tick failed/);
    }
    // Most kills landed in the middle of the work, not before or after it.
    expect(mid).toBeGreaterThanOrEqual(Math.ceil(kills.length / 2));
  },
  LONG,
);
