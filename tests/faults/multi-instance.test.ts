import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/server/core/config';
import { demoAccounts } from '../../src/server/seed/demo-seed';
import type { Rotation } from '../../src/shared/contracts/rotations';
import {
  nextHandoffAt,
  type ShiftPattern,
  scheduleTransitions,
  type TimeWindow,
} from '../../src/shared/domain/shifts';
import { expectedAutoHandoffs, monthOfShiftsSeeds } from '../setup/month-of-shifts';
import {
  api,
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
import { FAULTS_SCALE, LONG, scale } from './support/scale';
import { createRotation, invitePeople, ok, type Person } from './support/team';

/**
 * Three Baton processes on one PostgreSQL database (issue 8, "Several instances on one
 * PostgreSQL"): concurrent passes of the baton through all three, the engine running on all
 * three through a simulated month, and sessions shared between them.
 */

const ADMIN = 'admin@example.com';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const S = scale.multiInstance;

afterAll(async () => {
  await stopAll();
});

/** startThree starts three instances on one database at once, as a deployment of three would. */
async function startThree(database: TestDatabase, env: Record<string, string> = {}) {
  return Promise.all(
    ['A', 'B', 'C'].map((name) =>
      startBaton({
        name: `instance ${name}`,
        env: { DATABASE_URL: database.url, ADMIN_EMAIL: ADMIN, DATA_DIR: '/nonexistent', ...env },
      }),
    ),
  );
}

describe('three instances, real clock', () => {
  let database: TestDatabase;
  let instances: BatonProcess[];
  let admin: string;

  beforeAll(async () => {
    database = await createDatabase('multi');
    instances = await startThree(database);
    admin = await signIn(instances[0].url, ADMIN);
  }, LONG);
  afterAll(async () => {
    await Promise.all((instances ?? []).map((p) => p.stop()));
    await database?.drop();
  });

  test(
    `${S.passRequests} passes of the baton over ${S.rotations} rotations from ${S.clients} clients on three instances`,
    async () => {
      // Client i works through instance i % 3; rotation r has clients 3r, 3r+1, 3r+2 as members,
      // so each rotation's members race through all three instances.
      const people = await invitePeople(
        instances[0].url,
        admin,
        Array.from({ length: S.clients }, (_, i) => ({
          email: `client${i}@example.com`,
          name: `Client ${i}`,
          signInAt: instances[i % 3].url,
        })),
      );
      const perRotation = S.clients / S.rotations;
      const rotations: { id: number; memberIds: number[] }[] = [];
      for (let r = 0; r < S.rotations; r++) {
        const memberIds = people.slice(r * perRotation, (r + 1) * perRotation).map((p) => p.id);
        const rotation = await createRotation(instances[r % 3].url, admin, {
          name: `Race ${r}`,
          cadence: 'weekly',
          memberIds,
          holderId: memberIds[0],
        });
        expect(rotation.currentOnCallUserId).toBe(memberIds[0]);
        rotations.push({ id: rotation.id, memberIds });
      }
      const rotationOf = new Map<number, { id: number; memberIds: number[] }>();
      for (const r of rotations) for (const id of r.memberIds) rotationOf.set(id, r);
      const ids = rotations.map((r) => r.id);
      const before = await database.pool.query<{ n: number }>(
        'select count(*)::int as n from handoffs where rotation_id = any($1)',
        [ids],
      );

      // A watcher reads the holders all along, from the database and through each instance.
      let running = true;
      const violations: string[] = [];
      let samples = 0;
      const watcher = (async () => {
        let i = 0;
        while (running) {
          const { rows } = await database.pool.query<{ id: number; holder: number | null }>(
            'select id, holder_user_id as holder from rotations where id = any($1)',
            [ids],
          );
          for (const row of rows) {
            const members = rotations.find((r) => r.id === row.id)?.memberIds ?? [];
            if (row.holder === null || !members.includes(row.holder)) {
              violations.push(`database: rotation ${row.id} held by ${row.holder}`);
            }
          }
          const listed = await api<Rotation[]>(instances[i++ % 3].url, 'GET', '/api/rotations', {
            cookie: admin,
          });
          if (listed.status !== 200)
            violations.push(`GET /api/rotations answered ${listed.status}`);
          else {
            for (const r of listed.body.filter((x) => ids.includes(x.id))) {
              const members = rotations.find((x) => x.id === r.id)?.memberIds ?? [];
              if (r.currentOnCallUserId === null || !members.includes(r.currentOnCallUserId)) {
                violations.push(`api: rotation ${r.id} held by ${r.currentOnCallUserId}`);
              }
            }
          }
          samples++;
        }
      })();

      interface Attempt {
        rotationId: number;
        fromId: number;
        toId: number;
        status: number;
        code?: string;
      }
      const attempts: Attempt[] = [];
      const perClient = Math.ceil(S.passRequests / S.clients);
      const started = Date.now();
      await Promise.all(
        people.map(async (person: Person, i) => {
          const url = instances[i % 3].url;
          const rotation = rotationOf.get(person.id) as { id: number; memberIds: number[] };
          const others = rotation.memberIds.filter((id) => id !== person.id);
          for (let n = 0; n < perClient && attempts.length < S.passRequests; n++) {
            const toId = others[Math.floor(Math.random() * others.length)];
            const answer = await api<{ code?: string }>(
              url,
              'POST',
              `/api/rotations/${rotation.id}/handoff`,
              { cookie: person.cookie, body: { toUserId: toId, notes: `pass ${i}.${n}` } },
            );
            attempts.push({
              rotationId: rotation.id,
              fromId: person.id,
              toId,
              status: answer.status,
              code: answer.body?.code,
            });
          }
        }),
      );
      const elapsed = Date.now() - started;
      running = false;
      await watcher;

      expect(attempts).toHaveLength(S.passRequests);
      const statuses = new Map<string, number>();
      for (const a of attempts) {
        const key = `${a.status}${a.code ? ` ${a.code}` : ''}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
      const passed = attempts.filter((a) => a.status === 200);
      console.info(
        `[multi-instance] ${attempts.length} pass requests in ${elapsed} ms: ${JSON.stringify(Object.fromEntries(statuses))}; ${samples} watcher samples`,
      );
      // No 5xx; a refused pass is the documented 409 (the caller no longer holds the baton).
      expect(attempts.filter((a) => a.status >= 500)).toEqual([]);
      expect(attempts.filter((a) => a.status !== 200 && a.status !== 409)).toEqual([]);
      expect(passed.length).toBeGreaterThan(S.passRequests / 10);
      // Exactly one holder, a member, at every moment the watcher looked.
      expect(violations).toEqual([]);
      expect(samples).toBeGreaterThan(5);
      // The database keeps the holder a member (and the single column keeps it one).
      const constraint = await database.pool.query(
        "select 1 from pg_constraint where conname = 'rotations_holder_is_member_fk'",
      );
      expect(constraint.rowCount).toBe(1);

      // Every successful pass recorded once, nothing else written: the handoffs of each rotation
      // are exactly its answered passes, and they chain (each starts where the previous ended).
      const after = await database.pool.query<{
        id: number;
        rotation_id: number;
        from_user_id: number | null;
        to_user_id: number;
        kind: string;
      }>('select * from handoffs where rotation_id = any($1) order by id', [ids]);
      expect(after.rows.length - before.rows[0].n).toBe(passed.length);
      const holders = await database.pool.query<{ id: number; holder: number }>(
        'select id, holder_user_id as holder from rotations where id = any($1)',
        [ids],
      );
      for (const rotation of rotations) {
        const rows = after.rows.filter((h) => h.rotation_id === rotation.id);
        const recorded = rows
          .filter((h) => h.kind === 'pass')
          .map((h) => `${h.from_user_id}->${h.to_user_id}`)
          .sort();
        const answered = passed
          .filter((a) => a.rotationId === rotation.id)
          .map((a) => `${a.fromId}->${a.toId}`)
          .sort();
        expect(recorded, `rotation ${rotation.id}`).toEqual(answered);
        expect(rows[0]).toMatchObject({ kind: 'reassign', to_user_id: rotation.memberIds[0] });
        for (let k = 1; k < rows.length; k++) {
          expect(rows[k].from_user_id, `handoff ${rows[k].id}`).toBe(rows[k - 1].to_user_id);
        }
        expect(holders.rows.find((h) => h.id === rotation.id)?.holder).toBe(
          rows.at(-1)?.to_user_id,
        );
      }
    },
    LONG,
  );

  test(
    'a session started on one instance works on the others; logout on one ends it everywhere',
    async () => {
      const [person] = await invitePeople(instances[0].url, admin, [
        { email: 'roaming@example.com', name: 'Roaming User', signInAt: instances[1].url },
      ]);
      for (const instance of instances) {
        const me = await api<{ user: { email: string } }>(instance.url, 'GET', '/api/auth/user', {
          cookie: person.cookie,
        });
        expect(me.status, instance.name).toBe(200);
        expect(me.body.user.email).toBe('roaming@example.com');
      }
      ok(
        await api(instances[2].url, 'POST', '/api/auth/logout', { cookie: person.cookie }),
        'logout',
      );
      for (const instance of instances) {
        const me = await api(instance.url, 'GET', '/api/auth/user', { cookie: person.cookie });
        expect(me.status, instance.name).toBe(401);
      }
      // The administrator's session, started on the first instance, still works on all three.
      for (const instance of instances) {
        const me = await api(instance.url, 'GET', '/api/auth/user', { cookie: admin });
        expect(me.status, instance.name).toBe(200);
      }
    },
    LONG,
  );
});

test(
  `three instances started at once on an empty database all start, with one administrator and one demo seed (${S.startupRaces} times)`,
  async () => {
    for (let round = 0; round < S.startupRaces; round++) {
      const database = await createDatabase('startup');
      try {
        // Migrated first, so the three reach the first administrator and the seed together.
        const migrator = await startBaton({
          name: 'migrator',
          env: { DATABASE_URL: database.url, DATA_DIR: '/nonexistent' },
        });
        await migrator.stop();
        const instances = await startThree(database, { DEMO: '1' });
        await Promise.all(instances.map((p) => p.stop()));
        const users = await database.pool.query<{ n: number }>(
          'select count(*)::int as n from users',
        );
        expect(users.rows[0].n).toBe(demoAccounts('example.com').length + 1);
        const doubled = await database.pool.query(
          'select name from rotations group by name having count(*) > 1',
        );
        expect(doubled.rows).toEqual([]);
      } finally {
        await database.drop();
      }
    }
  },
  LONG,
);

describe('three engines through a simulated month (file clock, decision 090)', () => {
  const START = new Date(S.month.start);
  const END = new Date(S.month.end);
  const OUTAGE = { from: new Date(S.month.outage.from), to: new Date(S.month.outage.to) };
  let database: TestDatabase;
  let instances: BatonProcess[];
  let clockDir: string;
  let clock: TestClockFile;

  beforeAll(async () => {
    database = await createDatabase('month');
    clockDir = await tempDir('clock');
    clock = new TestClockFile(`${clockDir}/now`);
    await clock.set(START);
    instances = await startThree(database, {
      BATON_TEST_CLOCK_FILE: clock.file,
      ENGINE_INTERVAL_SECONDS: '0.05',
      // Nothing to deliver to: the outbox still records every notification once.
      OUTBOX_INTERVAL_SECONDS: '3600',
    });
  }, LONG);
  afterAll(async () => {
    await Promise.all((instances ?? []).map((p) => p.stop()));
    await database?.drop();
    if (clockDir) await removeDir(clockDir);
  });

  /** tickAll sets the clock and waits until every instance has finished a tick at that time. */
  async function tickAll(at: Date) {
    await clock.set(at);
    const iso = at.toISOString();
    await Promise.all(
      instances.map(async (instance) => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const res = await fetch(`${instance.url}/readyz`);
          const body = (await res.json()) as { engine?: { lastTickAt: string | null } };
          if (res.status === 200 && body.engine?.lastTickAt === iso) return;
          if (Date.now() > deadline) {
            throw new Error(`${instance.name} did not tick at ${iso}: ${JSON.stringify(body)}`);
          }
          await sleep(5);
        }
      }),
    );
  }

  test(
    'each boundary handed off exactly once, as the shared shift functions say',
    async () => {
      const admin = await signIn(instances[0].url, ADMIN);
      const people = await invitePeople(
        instances[0].url,
        admin,
        ['Uma', 'Vik', 'Wes', 'Xia', 'Yan'].map((name, i) => ({
          email: `${name.toLowerCase()}@example.com`,
          name: `${name} Tester`,
          signInAt: instances[i % 3].url,
        })),
      );
      const [uma, vik, , , yan] = people.map((p) => p.id);
      const seeds = monthOfShiftsSeeds(people.map((p) => p.id));
      const fixed: {
        id: number;
        pattern: ShiftPattern;
        memberIds: number[];
        holderId: number | null;
        firstBoundary: Date;
      }[] = [];
      for (const [i, seed] of seeds.entries()) {
        const rotation = await createRotation(instances[i % 3].url, admin, {
          name: `Month fixed ${i + 1}`,
          type: 'fixed',
          ...seed.pattern,
          memberIds: seed.memberIds,
          holderId: seed.holderId,
        });
        expect(rotation.members.map((m) => m.userId)).toEqual(seed.memberIds);
        expect(rotation.currentOnCallUserId).toBe(seed.holderId);
        fixed.push({
          id: rotation.id,
          ...seed,
          firstBoundary: new Date(rotation.nextHandoffTime as string),
        });
      }
      const suspended = await createRotation(instances[1].url, admin, {
        name: 'Month suspended',
        cadence: 'daily',
        memberIds: [uma, vik],
        holderId: uma,
      });
      ok(
        await api(instances[1].url, 'POST', `/api/rotations/${suspended.id}/suspend`, {
          cookie: admin,
        }),
        'suspend',
      );

      const scheduled = await createRotation(instances[2].url, admin, {
        name: 'Month scheduled',
        type: 'scheduled',
        memberIds: [vik, yan],
      });
      // Weekdays 08:00–20:00 UTC alternate between Vik and Yan; nights and weekends are gaps.
      const entries: TimeWindow[] = [];
      const days = Math.ceil((END.getTime() - START.getTime()) / (24 * HOUR));
      for (let day = 0; day < days; day++) {
        const date = new Date(START.getTime() + day * 24 * HOUR);
        if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
        entries.push({
          userId: day % 2 === 0 ? vik : yan,
          start: new Date(date.getTime() + 8 * HOUR),
          end: new Date(date.getTime() + 20 * HOUR),
        });
      }
      for (const [i, e] of entries.entries()) {
        ok(
          await api(instances[i % 3].url, 'POST', `/api/rotations/${scheduled.id}/schedules`, {
            cookie: admin,
            body: {
              userId: e.userId,
              startTime: e.start.toISOString(),
              endTime: e.end.toISOString(),
            },
          }),
          'schedule entry',
        );
      }
      const setupHandoffs = await database.pool.query<{ n: number }>(
        'select count(*)::int as n from handoffs',
      );

      // The engines of the three instances run through the month (every instance finishes a tick
      // at every step), skipping the outage: no tick at all for two days.
      const started = Date.now();
      let steps = 0;
      let lastTick = START;
      for (let now = START.getTime(); now < END.getTime(); now += S.month.stepMs) {
        if (now >= OUTAGE.from.getTime() && now < OUTAGE.to.getTime()) continue;
        lastTick = new Date(now);
        await tickAll(lastTick);
        steps++;
      }
      // One more tick a second later: every instance has run a whole tick at the final time.
      const final = new Date(lastTick.getTime() + 1000);
      await tickAll(final);
      console.info(
        `[multi-instance] ${steps + 1} clock steps of ${S.month.stepMs / MINUTE} min (${START.toISOString()} → ${final.toISOString()}) on three engines in ${Date.now() - started} ms`,
      );

      const t_ = loadConfig({}).handoffTimings;
      const recorded = await database.pool.query<{
        id: number;
        rotation_id: number;
        kind: string;
        from_user_id: number | null;
        to_user_id: number;
        occurred_at: Date;
      }>(
        "select * from handoffs where kind in ('auto', 'schedule') order by rotation_id, occurred_at, id",
      );
      const actual = recorded.rows.map((h) => [
        h.rotation_id,
        h.kind,
        h.from_user_id,
        h.to_user_id,
        h.occurred_at.toISOString(),
      ]);

      const expected: unknown[][] = [];
      for (const f of fixed) {
        const walk = expectedAutoHandoffs(f, final, t_.autoTransferAfterMs);
        expected.push(...walk.rows);
        const { rows } = await database.pool.query<{ holder: number; next: Date }>(
          'select holder_user_id as holder, next_handoff_at as next from rotations where id = $1',
          [f.id],
        );
        expect(rows[0].holder).toBe(walk.holder);
        expect(rows[0].next).toEqual(nextHandoffAt(f.pattern, walk.lastBoundary));
      }
      let holder: number | null = null;
      for (const change of scheduleTransitions(entries, entries[0].start, final)) {
        if (change.userId === holder) continue;
        expected.push([scheduled.id, 'schedule', holder, change.userId, change.at.toISOString()]);
        holder = change.userId;
      }
      expected.sort((a, b) => (a[0] as number) - (b[0] as number));

      expect(actual).toEqual(expected);
      expect(actual.length).toBeGreaterThan(FAULTS_SCALE === 'ci' ? 20 : 100);
      console.info(
        `[multi-instance] engine history: ${actual.length} handoffs (${actual.filter((h) => h[1] === 'auto').length} automatic, ${actual.filter((h) => h[1] === 'schedule').length} scheduled), equal to the shift functions'`,
      );
      // Nothing else was written: no handoff for the suspended rotation, no other kind.
      const all = await database.pool.query<{ n: number }>(
        'select count(*)::int as n from handoffs',
      );
      expect(all.rows[0].n).toBe(setupHandoffs.rows[0].n + actual.length);
      expect(actual.filter((h) => h[0] === suspended.id)).toEqual([]);
      // The daylight-saving boundaries in the run were handed off at their local times.
      const sydney = '2026-10-03T17:00:00.000Z';
      if (lastTick > new Date(sydney)) {
        expect(actual).toContainEqual([
          fixed[2].id,
          'auto',
          expect.any(Number),
          expect.any(Number),
          sydney,
        ]);
      }
      const newYork = '2026-11-01T06:30:00.000Z';
      if (lastTick > new Date(newYork)) {
        expect(actual).toContainEqual([
          fixed[3].id,
          'auto',
          expect.any(Number),
          expect.any(Number),
          newYork,
        ]);
      }

      // Each automatic handoff outside the outage told both people once (only the receiver when
      // nobody held the baton); nothing was sent twice.
      const sent = await database.pool.query<{ dedupe_key: string }>(
        'select dedupe_key from notifications',
      );
      const keys = sent.rows.map((n) => n.dedupe_key);
      expect(new Set(keys).size).toBe(keys.length);
      const upAfter = new Date(OUTAGE.to.getTime() + S.month.stepMs);
      const autos = recorded.rows.filter((r) => r.kind === 'auto' && r.occurred_at > upAfter);
      expect(autos.length).toBeGreaterThan(0);
      for (const h of autos) {
        expect(keys.filter((k) => k.startsWith(`handoff:${h.id}:`)).length, `handoff ${h.id}`).toBe(
          h.from_user_id === null ? 1 : 2,
        );
      }
    },
    LONG,
  );
});
