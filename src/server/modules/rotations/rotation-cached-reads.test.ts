import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Handoff, Rotation } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { rotations } from '../../db/schema';
import { insertRotation } from '../../seed/factories';

/**
 * The read cache of the rotation lists and the recent handoffs (decisions 140 and 295), through the API
 * on a real database: PGlite, and PostgreSQL with TEST_DATABASE_URL. Statements are counted from
 * the query log: an answer reused from the cache costs the session read alone on PostgreSQL, and
 * nothing on PGlite, where the session is remembered while nothing changed (decision 141). On PostgreSQL a
 * transaction anywhere in the cluster (other test files run at the same time) changes the
 * snapshot, so a read may miss where it would hit on PGlite: a hit is shown by `reused`, and
 * freshness never depends on a miss.
 */
let t: TestApp;
let statements = 0;
const cookies = new Map<number, string>();
let admin: User;
let olivia: User;
let noah: User;
let sam: User;

const MINUTE = 60_000;
/** the statements of a read answered from the cache: the session read, none on PGlite */
const reusedStatements = () => (t.database.engine === 'pglite' ? 0 : 1);
const START = '2026-11-02T12:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp({ db: { onQuery: () => (statements += 1) } });
  admin = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
  olivia = await t.createUser({ name: 'Olivia Ortiz', roles: ['on-call'] });
  noah = await t.createUser({ name: 'Noah Nakamura', roles: ['on-call'] });
  sam = await t.createUser({ name: 'Sam Sullivan', roles: ['on-call'] });
  for (const user of [admin, olivia, noah, sam]) cookies.set(user.id, await t.cookieFor(user));
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(START));

/** read sends one GET as the user and answers its status, body and SQL statements. */
async function read<T>(user: User | null, url: string) {
  statements = 0;
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: user ? { cookie: cookies.get(user.id) as string } : {},
  });
  return {
    status: res.statusCode,
    body: res.json() as T,
    statements,
    raw: res.body,
    type: res.headers['content-type'],
  };
}

/**
 * reused reads `url` twice, `between` in between, until the second read is answered from the
 * cache, and answers both. On PGlite the first pair does it; on PostgreSQL a pair with another
 * transaction of the cluster between its reads is tried again.
 */
async function reused<T>(user: User, url: string, between: () => void = () => {}) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await read<T>(user, url);
    between();
    const again = await read<T>(user, url);
    if (again.statements === reusedStatements()) return { first, again };
  }
  throw new Error(`${url} was never answered from the cache`);
}

async function send(user: User, method: 'POST' | 'DELETE', url: string, payload?: object) {
  const res = await t.app.inject({
    method,
    url,
    payload,
    headers: { cookie: cookies.get(user.id) as string },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
}

async function newRotation(name: string, memberIds: number[], holderId: number) {
  return insertRotation(t.database.db, { name, memberIds, holderId, now: t.clock.now() });
}

const byId = (list: Rotation[], id: number) => list.find((r) => r.id === id) as Rotation;

describe('answers reused', () => {
  test('a repeated read is answered from the cache with the session read at most, byte for byte', async () => {
    await newRotation('Reuse Primary', [olivia.id, noah.id], olivia.id);
    // After a write, the first read computes its answer.
    for (const [user, url] of [
      [admin, '/api/rotations'],
      [olivia, '/api/user/rotations'],
      [admin, '/api/handoffs/recent?limit=5'],
    ] as const) {
      expect((await read(user, url)).statements).toBeGreaterThan(reusedStatements());
    }
    for (const [user, url] of [
      [admin, '/api/rotations'],
      [olivia, '/api/user/rotations'],
      [admin, '/api/handoffs/recent?limit=5'],
    ] as const) {
      const { first, again } = await reused(user, url);
      expect(first.status).toBe(200);
      expect(again.raw).toBe(first.raw);
      expect(again.type).toBe('application/json; charset=utf-8');
    }
  });

  test("the client's timestamp parameter and the default limit share the answer", async () => {
    for (const [url, again] of [
      ['/api/handoffs/recent?_t=1', '/api/handoffs/recent?limit=5&_t=2'],
      ['/api/rotations?_t=3', '/api/rotations?_t=4'],
    ]) {
      let shared = false;
      for (let attempt = 0; attempt < 50 && !shared; attempt++) {
        expect((await read(admin, url)).status).toBe(200);
        shared = (await read(admin, again)).statements === reusedStatements();
      }
      expect(shared).toBe(true);
    }
  });

  test('an answer is reused for at most one second of the clock', async () => {
    const url = '/api/handoffs/recent?limit=5';
    // Computed (or found) at START and reused 999 ms later …
    let kept = false;
    for (let attempt = 0; attempt < 50 && !kept; attempt++) {
      t.clock.set(START);
      await read(admin, url);
      t.clock.set(new Date(Date.parse(START) + 999));
      kept = (await read(admin, url)).statements === reusedStatements();
    }
    expect(kept).toBe(true);
    // … but not a whole second after the instant it was computed for.
    t.clock.set(new Date(Date.parse(START) + 1000));
    expect((await read(admin, url)).statements).toBeGreaterThan(reusedStatements());
  });
});

describe('never older than the data', () => {
  test('a pass through the API is visible in the very next read of each list', async () => {
    const rotation = await newRotation('Visible Primary', [olivia.id, noah.id], olivia.id);
    // Each list read twice, so each is kept.
    for (let i = 0; i < 2; i++) {
      await read(admin, '/api/rotations');
      await read(noah, '/api/user/rotations');
      await read(admin, '/api/handoffs/recent?limit=5');
    }
    await send(olivia, 'POST', `/api/rotations/${rotation.id}/handoff`, {
      toUserId: noah.id,
      notes: 'Pager is quiet',
    });
    const all = await read<Rotation[]>(admin, '/api/rotations');
    expect(byId(all.body, rotation.id).currentOnCallUserId).toBe(noah.id);
    const mine = await read<Rotation[]>(noah, '/api/user/rotations');
    expect(byId(mine.body, rotation.id).currentOnCall?.name).toBe('Noah Nakamura');
    const recent = await read<Handoff[]>(admin, '/api/handoffs/recent?limit=5');
    expect(recent.body[0]).toMatchObject({
      rotation: { id: rotation.id },
      fromUser: { id: olivia.id },
      toUser: { id: noah.id },
      notes: 'Pager is quiet',
    });
  });

  test('adding a member through the API shows in their own list at once', async () => {
    const rotation = await newRotation('Joining Primary', [olivia.id], olivia.id);
    const before = await read<Rotation[]>(sam, '/api/user/rotations');
    expect(before.body.map((r) => r.id)).not.toContain(rotation.id);
    await read(sam, '/api/user/rotations');
    await send(admin, 'POST', `/api/rotations/${rotation.id}/on-call`, { userId: sam.id });
    const after = await read<Rotation[]>(sam, '/api/user/rotations');
    expect(after.body.map((r) => r.id)).toContain(rotation.id);
  });

  test('a change another process writes straight to the database is visible in the next read', async () => {
    const rotation = await newRotation('Renamed Elsewhere', [olivia.id], olivia.id);
    await reused(admin, '/api/rotations');
    await t.database.db
      .update(rotations)
      .set({ name: 'Renamed By Another Instance' })
      .where(eq(rotations.id, rotation.id));
    const after = await read<Rotation[]>(admin, '/api/rotations');
    expect(byId(after.body, rotation.id).name).toBe('Renamed By Another Instance');
  });
});

describe('time-dependent parts', () => {
  test('the answer changes when the clock passes the end of a backup window, even by a millisecond', async () => {
    const rotation = await newRotation('Backup Primary', [olivia.id, noah.id], olivia.id);
    await send(olivia, 'POST', `/api/rotations/${rotation.id}/handoff`, { toUserId: noah.id });
    // The previous holder stays backup for 15 minutes (HANDOFF_BACKUP_MINUTES).
    const end = Date.parse(START) + 15 * MINUTE;
    t.clock.set(new Date(end - 1));
    // The first read after a quiet minute records the session's last use: a write, which
    // changes the snapshot; the next reads can share one.
    await read(admin, '/api/rotations');
    const { first: during } = await reused<Rotation[]>(admin, '/api/rotations');
    expect(byId(during.body, rotation.id).backupOnCall?.id).toBe(olivia.id);
    t.clock.set(new Date(end));
    const after = await read<Rotation[]>(admin, '/api/rotations');
    expect(after.statements).toBeGreaterThan(reusedStatements());
    expect(byId(after.body, rotation.id).backupOnCall).toBeNull();
    expect(byId(after.body, rotation.id).backupUntil).toBeNull();
  });

  test("the answer changes when a rotation's shift boundary comes due", async () => {
    const rotation = await newRotation('Boundary Primary', [olivia.id, noah.id], olivia.id);
    const boundary = (rotation.nextHandoffAt as Date).getTime();
    t.clock.set(new Date(boundary - 1));
    await read(olivia, '/api/user/rotations');
    const { first: before } = await reused<Rotation[]>(olivia, '/api/user/rotations');
    expect(byId(before.body, rotation.id).handoffDue).toBeNull();
    t.clock.set(new Date(boundary));
    const due = await read<Rotation[]>(olivia, '/api/user/rotations');
    expect(byId(due.body, rotation.id).handoffDue?.boundary).toBe(new Date(boundary).toISOString());
  });
});

describe('viewers', () => {
  test("two users never see each other's kept answer", async () => {
    const oliviaOnly = await newRotation('Olivia Only', [olivia.id], olivia.id);
    const samOnly = await newRotation('Sam Only', [sam.id], sam.id);
    // Each kept, then each read again in turn: the second reads are answered from the cache.
    for (let i = 0; i < 2; i++) {
      const forOlivia =
        i === 0
          ? await read<Rotation[]>(olivia, '/api/user/rotations')
          : (await reused<Rotation[]>(olivia, '/api/user/rotations')).again;
      const forSam =
        i === 0
          ? await read<Rotation[]>(sam, '/api/user/rotations')
          : (await reused<Rotation[]>(sam, '/api/user/rotations')).again;
      expect(forOlivia.body.map((r) => r.id)).toContain(oliviaOnly.id);
      expect(forOlivia.body.map((r) => r.id)).not.toContain(samOnly.id);
      expect(forSam.body.map((r) => r.id)).toContain(samOnly.id);
      expect(forSam.body.map((r) => r.id)).not.toContain(oliviaOnly.id);
    }
  });

  test('a request without a live session is refused though an answer is kept', async () => {
    await reused(admin, '/api/rotations');
    expect((await read(null, '/api/rotations')).status).toBe(401);
    expect((await read(null, '/api/handoffs/recent?limit=5')).status).toBe(401);
    const ended = await t.cookieFor(admin);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: ended },
    });
    expect(logout.statusCode).toBeLessThan(300);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/rotations',
      headers: { cookie: ended },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('shared, and keyed on the change feed (decision 295)', () => {
  test('the rotation list and the recent handoffs are computed once for every viewer', async () => {
    for (const url of ['/api/rotations', '/api/handoffs/recent?limit=5']) {
      let shared = false;
      for (let attempt = 0; attempt < 50 && !shared; attempt++) {
        // A change first, so that no one's answer is kept; then Olivia's session read
        // (remembered on PGlite), the administrator's read, which computes the answer, and
        // Olivia's, which is the same one.
        await newRotation(`Shared ${url} ${attempt}`, [olivia.id], olivia.id);
        await read(olivia, '/api/auth/user');
        const first = await read(admin, url);
        expect(first.statements).toBeGreaterThan(reusedStatements());
        const second = await read(olivia, url);
        expect(second.raw).toBe(first.raw);
        shared = second.statements === reusedStatements();
      }
      expect(shared).toBe(true);
    }
  });

  test("an incident's change keeps the on-call reads on PGlite; on PostgreSQL it moves the snapshot", async () => {
    const rotation = await newRotation('Paged Primary', [olivia.id], olivia.id);
    await reused(admin, '/api/rotations');
    await send(admin, 'POST', `/api/rotations/${rotation.id}/page`, {
      message: 'Disk almost full',
    });
    // The session read again after the write, so that the list's own statements are counted.
    await read(admin, '/api/auth/user');
    const after = await read<Rotation[]>(admin, '/api/rotations');
    if (t.database.engine === 'pglite') {
      expect(after.statements).toBe(reusedStatements());
    } else {
      expect(after.statements).toBeGreaterThan(reusedStatements());
    }
    expect(byId(after.body, rotation.id).currentOnCallUserId).toBe(olivia.id);
  });
});

describe('turned off', () => {
  test('with READ_CACHE_MB=0 every read computes its answer', async () => {
    const off = await createTestApp({
      env: { READ_CACHE_MB: '0' },
      db: { onQuery: () => (statements += 1) },
    });
    try {
      const viewer = await off.createUser({ roles: ['on-call'] });
      const cookie = await off.cookieFor(viewer);
      for (let i = 0; i < 3; i++) {
        statements = 0;
        const res = await off.app.inject({ url: '/api/user/rotations', headers: { cookie } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(statements).toBeGreaterThan(reusedStatements());
      }
    } finally {
      await off.close();
    }
  });
});
