import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  changeData,
  type OpenStream,
  openEventStream,
  parseEventStream,
} from '../../../../tests/setup/event-stream';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { LIVE_HEARTBEAT_MS } from '../../../shared/contracts/live-events';
import type { User } from '../../../shared/contracts/users';
import { hashToken } from '../../crypto/bearer-secrets';
import { insertRotation } from '../../seed/factories';
import {
  LiveHub,
  REPLAY_LIMIT,
  REPLAY_MARGIN_MS,
  SHUTDOWN_RETRY_MS,
  STREAMS_PER_SESSION,
} from './live-hub';

// The live stream over a real socket (app.inject does not stream), on PGlite, or on PostgreSQL
// with TEST_DATABASE_URL (decision 220).
let t: TestApp;
let baseUrl: string;
let priya: User;
let noah: User;
const streams: OpenStream[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  priya = await t.createUser({ roles: ['on-call'], name: 'Priya Shah' });
  noah = await t.createUser({ roles: ['on-call'], name: 'Noah Kim' });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.close();
});

async function open(user: User, path = '/api/events', headers: Record<string, string> = {}) {
  const stream = await openEventStream(baseUrl, path, {
    cookie: await t.cookieFor(user),
    ...headers,
  });
  streams.push(stream);
  return stream;
}

const notify = (events: object[]) =>
  t.database.db.execute(sql`select pg_notify('baton_changes', ${JSON.stringify(events)})`);

describe('GET /api/events', () => {
  test('answers an event stream a proxy passes through, opening with the newest id', async () => {
    const stream = await open(priya);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['content-encoding']).toBeUndefined();
    // The app's security headers too.
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    const ready = await stream.waitFor((e) => e.event === 'ready');
    expect(Number(ready.id)).toBeGreaterThan(0);
    expect(stream.text().startsWith('retry: 2000\n\n')).toBe(true);
  });

  test('one session holds at most 10 streams: the 11th closes its oldest, no one else’s (decision 236)', async () => {
    expect(STREAMS_PER_SESSION).toBe(10);
    const other = await open(noah);
    await other.waitFor((e) => e.event === 'ready');
    const cookie = await t.cookieFor(priya);
    const mine: OpenStream[] = [];
    for (let i = 0; i < STREAMS_PER_SESSION + 1; i++) {
      const stream = await openEventStream(baseUrl, '/api/events', { cookie });
      streams.push(stream);
      await stream.waitFor((e) => e.event === 'ready');
      mine.push(stream);
    }
    await mine[0].ended;
    const stillOpen = async (stream: OpenStream) =>
      Promise.race([stream.ended.then(() => false), new Promise((r) => setTimeout(r, 200, true))]);
    for (const stream of [...mine.slice(1), other]) expect(await stillOpen(stream)).toBe(true);
    for (const stream of mine) stream.close();
  });

  test('refuses a signed-out browser', async () => {
    const stream = await openEventStream(baseUrl, '/api/events');
    expect(stream.status).toBe(401);
  });

  test('a pass of the baton reaches another person’s stream at commit, by kind and id only', async () => {
    const rotation = await insertRotation(t.database.db, {
      memberIds: [priya.id, noah.id],
      holderId: priya.id,
    });
    const watcher = await open(noah);
    await watcher.waitFor((e) => e.event === 'ready');
    const passed = await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${rotation.id}/handoff`,
      payload: { toUserId: noah.id, notes: 'Pager is quiet' },
      headers: { cookie: await t.cookieFor(priya) },
    });
    expect(passed.statusCode, passed.body).toBe(200);
    const changed = await watcher.waitFor(
      (e) => e.event === 'change' && changeData(e).kind === 'rotation',
      2_000,
    );
    expect(changeData(changed)).toEqual({
      id: Number(changed.id),
      kind: 'rotation',
      entityId: rotation.id,
      rotationId: rotation.id,
    });
    const handoff = await watcher.waitFor(
      (e) => e.event === 'change' && changeData(e).kind === 'handoff',
    );
    expect(changeData(handoff).rotationId).toBe(rotation.id);
    // Nothing personal: no names, no notes.
    expect(watcher.text()).not.toMatch(/Priya|Noah|Pager is quiet/);
  });

  test('an incident’s change tells each stream whether it concerns its viewer (decision 287)', async () => {
    const mia = await t.createUser({ roles: ['incident_manager'], name: 'Mia Lopez' });
    const rotation = await insertRotation(t.database.db, {
      memberIds: [priya.id],
      holderId: priya.id,
    });
    const holder = await open(priya);
    const bystander = await open(noah);
    await holder.waitFor((e) => e.event === 'ready');
    await bystander.waitFor((e) => e.event === 'ready');
    const raised = await t.app.inject({
      method: 'POST',
      url: '/api/incidents',
      payload: { title: 'Checkout is down', rotationId: rotation.id },
      headers: { cookie: await t.cookieFor(mia) },
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const id = raised.json<{ id: number }>().id;
    const theirs = (e: { event: string; data: string }) =>
      e.event === 'change' && changeData(e).kind === 'incident' && changeData(e).entityId === id;
    expect(changeData(await holder.waitFor(theirs, 2_000))).toMatchObject({
      rotationId: rotation.id,
      concernsYou: true,
    });
    expect(changeData(await bystander.waitFor(theirs, 2_000))).toMatchObject({
      rotationId: rotation.id,
      concernsYou: false,
    });
    // A replay cannot tell: it says nothing, and the screens read as before.
    const lastSeen = Number((await bystander.waitFor(theirs)).id) - 1;
    const replay = await t.app.inject({
      url: '/api/events',
      headers: { cookie: await t.cookieFor(noah), 'last-event-id': String(lastSeen) },
    });
    const replayed = parseEventStream(replay.body).events.filter(theirs).map(changeData);
    expect(replayed.length).toBeGreaterThan(0);
    for (const change of replayed) expect(change).not.toHaveProperty('concernsYou');
  });

  test('a rolled-back change sends nothing', async () => {
    const rotation = await insertRotation(t.database.db, {});
    const watcher = await open(noah);
    await watcher.waitFor((e) => e.event === 'ready');
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update rotations set name = 'Rolled back' where id = ${rotation.id}`);
        throw new Error('roll back');
      })
      .catch(() => {});
    await t.database.db.execute(sql`update rotations set name = 'Kept' where id = ${rotation.id}`);
    const first = await watcher.waitFor((e) => e.event === 'change');
    const rows = await t.database.db.execute(
      sql`select count(*)::int as n from change_events where id = ${Number(first.id)} and kind = 'rotation'`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
    expect(watcher.events.filter((e) => e.event === 'change')).toHaveLength(1);
  });

  test('one statement that changes many rows of a rotation writes one event for it', async () => {
    const rotation = await insertRotation(t.database.db, { memberIds: [priya.id, noah.id] });
    const watcher = await open(noah);
    await watcher.waitFor((e) => e.event === 'ready');
    await t.database.db.execute(
      sql`update rotation_members set "order" = "order" + 10 where rotation_id = ${rotation.id}`,
    );
    // Notifications arrive in commit order: once this one is in, the update's are.
    await notify([{ id: 999_999_001, kind: 'rotation', entityId: -1, rotationId: null }]);
    await watcher.waitFor((e) => e.event === 'change' && changeData(e).entityId === -1);
    const forRotation = watcher.events.filter(
      (e) => e.event === 'change' && changeData(e).entityId === rotation.id,
    );
    expect(forRotation).toHaveLength(1);
  });

  test('admin-only kinds stop when the administrator is demoted; a shift notice goes to its person alone', async () => {
    const boss = await t.createUser({ roles: ['admin'] });
    const watcher = await open(boss);
    const other = await open(noah);
    await watcher.waitFor((e) => e.event === 'ready');
    await other.waitFor((e) => e.event === 'ready');
    await notify([{ id: 999_999_010, kind: 'invitation', entityId: 5, rotationId: null }]);
    await watcher.waitFor((e) => changeData(e).id === 999_999_010);
    await notify([{ id: 999_999_011, kind: 'shift-notice', entityId: boss.id, rotationId: 1 }]);
    await watcher.waitFor((e) => changeData(e).id === 999_999_011);

    await t.database.db.execute(sql`update users set roles = '{on-call}' where id = ${boss.id}`);
    // The user change makes the hub re-read every stream's session (one query).
    await t.app.liveHub.checkSessions();
    await notify([{ id: 999_999_012, kind: 'invitation', entityId: 6, rotationId: null }]);
    await notify([{ id: 999_999_013, kind: 'rotation', entityId: 7, rotationId: 7 }]);
    await watcher.waitFor((e) => e.id === '999999013');
    await other.waitFor((e) => e.id === '999999013');
    expect(watcher.events.some((e) => e.id === '999999012')).toBe(false);
    // Noah never saw the invitation nor Ada's shift notice.
    expect(other.events.map((e) => e.id)).not.toContain('999999010');
    expect(other.events.map((e) => e.id)).not.toContain('999999011');
    // A session end is the server's business, never sent.
    await notify([{ id: 999_999_014, kind: 'session', entityId: null, rotationId: null }]);
    await notify([{ id: 999_999_015, kind: 'rotation', entityId: 8, rotationId: 8 }]);
    await other.waitFor((e) => e.id === '999999015');
    expect(other.events.map((e) => e.id)).not.toContain('999999014');
  });

  test('signing out ends that browser’s stream; a deleted user’s streams end', async () => {
    const cookie = await t.cookieFor(priya);
    const stream = await openEventStream(baseUrl, '/api/events', { cookie });
    streams.push(stream);
    await stream.waitFor((e) => e.event === 'ready');
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    });
    expect(out.statusCode).toBeLessThan(300);
    await expect(within(stream.ended, 3_000)).resolves.toBe('done');

    const leaving = await t.createUser({ roles: ['on-call'] });
    const theirs = await open(leaving);
    await theirs.waitFor((e) => e.event === 'ready');
    await t.database.db.execute(sql`delete from users where id = ${leaving.id}`);
    await expect(within(theirs.ended, 3_000)).resolves.toBe('done');
  });

  test('an expired session’s stream ends at the periodic check', async () => {
    const stream = await open(noah);
    await stream.waitFor((e) => e.event === 'ready');
    const before = t.app.liveHub.size;
    const now = t.clock.now();
    t.clock.advance(40 * 24 * 60 * 60_000);
    try {
      await t.app.liveHub.checkSessions();
    } finally {
      t.clock.set(now);
    }
    await expect(within(stream.ended, 3_000)).resolves.toBe('done');
    expect(t.app.liveHub.size).toBeLessThan(before);
  });
});

describe('reconnecting with Last-Event-ID', () => {
  async function reconnect(user: User, lastEventId: string) {
    // In process the stream answers its opening and ends: the replay, whole.
    const res = await t.app.inject({
      url: '/api/events',
      headers: { cookie: await t.cookieFor(user), 'last-event-id': lastEventId },
    });
    expect(res.statusCode).toBe(200);
    return parseEventStream(res.body).events;
  }

  test('replays what was missed, in order, then says ready', async () => {
    const rotation = await insertRotation(t.database.db, {});
    const [{ id: last }] = await rows<{ id: string }>(sql`select max(id) as id from change_events`);
    await t.database.db.execute(
      sql`update rotations set name = 'Renamed' where id = ${rotation.id}`,
    );
    await t.database.db.execute(sql`update rotations set name = 'Again' where id = ${rotation.id}`);
    const events = await reconnect(noah, String(last));
    const changes = events.filter((e) => e.event === 'change').map(changeData);
    // This rotation's two: the suite's app is shared, and an earlier test's work (a session
    // ended at its periodic check) can commit its own change after `last` was read.
    const ours = (replayed: typeof changes) =>
      replayed.filter((c) => c.rotationId === rotation.id && Number(c.id) > Number(last));
    expect(ours(changes)).toHaveLength(2);
    expect(changes.every((c, i) => i === 0 || c.id > changes[i - 1].id)).toBe(true);
    expect(events.at(-1)?.event).toBe('ready');
    // The query parameter says the same, for a stream the page opened anew.
    const again = await t.app.inject({
      url: `/api/events?lastEventId=${last}`,
      headers: { cookie: await t.cookieFor(noah) },
    });
    const replayedAgain = parseEventStream(again.body).events;
    expect(ours(replayedAgain.filter((e) => e.event === 'change').map(changeData))).toEqual(
      ours(changes),
    );
    expect(replayedAgain.at(-1)?.event).toBe('ready');
  });

  test('an earlier id that committed later is replayed too (the margin)', async () => {
    // Two transactions: A took id n, B took n + 1 and committed first; the browser saw n + 1,
    // then lost its connection, and A committed. A is written just before B.
    const [{ n }] = await rows<{ n: string }>(sql`select nextval('change_events_id_seq') as n`);
    const a = Number(n) + 1;
    await t.database.db.execute(sql`select setval('change_events_id_seq', ${a + 1})`);
    await t.database.db.execute(
      sql`insert into change_events (id, kind, entity_id, rotation_id, created_at)
          values (${a + 1}, 'rotation', 71, 71, now()), (${a}, 'handoff', 70, 71, now() - interval '1 second')`,
    );
    const events = await reconnect(noah, String(a + 1));
    expect(events.filter((e) => e.event === 'change').map((e) => Number(e.id))).toContain(a);
    // Beyond the margin it is not: the browser then had it live (or polls for it).
    await t.database.db.execute(
      sql`update change_events set created_at = now() - make_interval(secs => ${REPLAY_MARGIN_MS / 1000 + 5}) where id = ${a}`,
    );
    const later = await reconnect(noah, String(a + 1));
    expect(later.filter((e) => e.event === 'change').map((e) => Number(e.id))).not.toContain(a);
  });

  test('an id no longer kept, or one never sent, asks the browser to re-read everything', async () => {
    const [{ id: pruned }] = await rows<{ id: string }>(
      sql`delete from change_events where id = (select min(id) from change_events) returning id`,
    );
    for (const id of [String(pruned), 'not-a-number', '999999999999']) {
      const events = await reconnect(noah, id);
      expect(events.map((e) => e.event)).toEqual(['resync']);
      expect(Number(events[0].id)).toBeGreaterThan(0);
    }
  });

  test('more missed than the replay limit asks for a re-read', async () => {
    const [{ id: last }] = await rows<{ id: string }>(sql`select max(id) as id from change_events`);
    await t.database.db.execute(
      sql`insert into change_events (kind, entity_id) select 'user', g from generate_series(1, ${REPLAY_LIMIT + 1}) g`,
    );
    const events = await reconnect(noah, String(last));
    expect(events.map((e) => e.event)).toEqual(['resync']);
  });

  test('refuses a lastEventId that is not an id', async () => {
    const res = await t.app.inject({
      url: '/api/events?lastEventId=abc',
      headers: { cookie: await t.cookieFor(noah) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});

test('the engine’s change-log task keeps ten minutes and the newest event', async () => {
  const { changeLogTask } = await import('./change-log-task');
  await t.database.db.execute(sql`update change_events set created_at = now() - interval '1 hour'`);
  await changeLogTask(t, t.clock.now());
  const left = await rows<{ n: number }>(sql`select count(*)::int as n from change_events`);
  expect(left[0].n).toBe(1);
  const [{ id }] = await rows<{ id: string }>(sql`select max(id) as id from change_events`);
  // A quiet team's browser, whose last event is the newest, is still known to have missed nothing.
  const res = await t.app.inject({
    url: '/api/events',
    headers: { cookie: await t.cookieFor(noah), 'last-event-id': String(id) },
  });
  expect(parseEventStream(res.body).events.map((e) => e.event)).toEqual(['ready']);
});

test('closing the app ends open streams instead of waiting on them, each told when to reconnect', async () => {
  const extra = await createTestApp();
  await extra.app.listen({ port: 0, host: '127.0.0.1' });
  const address = extra.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const user = await extra.createUser({ roles: ['on-call'] });
  const stream = await openEventStream(url, '/api/events', { cookie: await extra.cookieFor(user) });
  await stream.waitFor((e) => e.event === 'ready');
  await expect(within(extra.close(), 5_000)).resolves.toBe('done');
  await expect(within(stream.ended, 1_000)).resolves.toBe('done');
  // After the opening's `retry: 2000`, the shutdown's spread hint (decision 225).
  const retries = [...stream.text().matchAll(/^retry: (\d+)$/gm)].map((m) => Number(m[1]));
  expect(retries).toHaveLength(2);
  expect(retries[0]).toBe(2_000);
  expect(retries[1]).toBeGreaterThanOrEqual(SHUTDOWN_RETRY_MS.min);
  expect(retries[1]).toBeLessThan(SHUTDOWN_RETRY_MS.min + SHUTDOWN_RETRY_MS.spread);
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

function within(promise: Promise<unknown>, ms: number): Promise<string> {
  return Promise.race([
    promise.then(() => 'done'),
    new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), ms)),
  ]);
}

describe('the hub', () => {
  function sink(buffered = 0) {
    const chunks: string[] = [];
    let ended = false;
    return {
      chunks,
      ended: () => ended,
      write: (chunk: string) => {
        chunks.push(chunk);
        return true;
      },
      buffered: () => buffered,
      end: () => {
        ended = true;
      },
    };
  }
  const viewer = async (user: User) => ({
    tokenHash: hashToken((await t.cookieFor(user)).split('=')[1]),
    userId: user.id,
    roles: user.roles,
  });

  test(`writes a heartbeat comment on every stream, at most every ${LIVE_HEARTBEAT_MS / 1000} s`, async () => {
    expect(LIVE_HEARTBEAT_MS).toBeLessThanOrEqual(20_000);
    const hub = new LiveHub({ database: t.database, clock: t.clock, heartbeatMs: 50 });
    await hub.start();
    const quiet = sink();
    await hub.open(quiet, await viewer(noah), undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(quiet.chunks.filter((c) => c === ': heartbeat\n\n').length).toBeGreaterThanOrEqual(2);
    await hub.close();
    expect(quiet.ended()).toBe(true);
  });

  test('lets go of a reader that lags far behind, and keeps the others', async () => {
    const hub = new LiveHub({ database: t.database, clock: t.clock });
    await hub.start();
    const slow = sink(10 * 1024 * 1024);
    const fast = sink();
    await hub.open(slow, await viewer(noah), undefined);
    await hub.open(fast, await viewer(noah), undefined);
    hub.publish([{ id: 999_999_100, kind: 'rotation', entityId: 1, rotationId: 1 }]);
    expect(slow.ended()).toBe(true);
    expect(fast.chunks.some((c) => c.startsWith('id: 999999100\n'))).toBe(true);
    expect(hub.size).toBe(1);
    await hub.close();
  });
});
