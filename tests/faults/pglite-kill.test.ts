import { sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { openPglite, selectRows } from '../../src/server/db/client';
import type { Invitation, InvitationListItem } from '../../src/shared/contracts/invitations';
import type { Page } from '../../src/shared/contracts/paging';
import type { Handoff, Rotation } from '../../src/shared/contracts/rotations';
import {
  api,
  type BatonProcess,
  removeDir,
  signIn,
  spawnBaton,
  stopAll,
  tempDir,
  waitReady,
} from './support/processes';
import { LONG, scale } from './support/scale';
import { createRotation, invitePeople, ok, type Person } from './support/team';

/**
 * SIGKILL of a Baton process on a PGlite directory in the middle of writes (issue 14, §5). Several
 * writers at once pass batons, page rotations and invite people through the API; the process is
 * killed at a random moment and started again at once, scale.pgliteKill.kills times. Each time the
 * restart must start on the first try (the dead process's lock is taken over, decision 170) and
 * every write answered 2xx must be there; at the end the directory is opened here and checked row
 * by row: nothing half-written.
 */

const SIZE = scale.pgliteKill;
const ADMIN = 'admin@example.com';
const ROTATION_NAMES = ['Alpha crash', 'Bravo crash', 'Charlie crash', 'Delta crash'];

/** A request's outcome: answered 2xx, refused with a 4xx, or cut off by the kill (unknown). */
type Outcome = 'acked' | 'refused' | 'unknown';

interface PassWrite {
  round: number;
  rotationId: number;
  fromUserId: number;
  toUserId: number;
  notes: string;
  outcome: Outcome;
}
interface PageWrite {
  round: number;
  rotationId: number;
  message: string;
  outcome: Outcome;
}
interface InvitationWrite {
  round: number;
  email: string;
  outcome: Outcome;
  id?: number;
}

/** mulberry32: a small seeded generator, so a failing run can be repeated with its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** send makes one request; a request the kill cut off (no answer) is `unknown`. */
async function send<T>(
  url: string,
  method: string,
  route: string,
  options: { cookie: string; body?: unknown },
): Promise<{ outcome: Outcome; status: number; body?: T }> {
  try {
    const answer = await api<T>(url, method, route, options);
    if (answer.status >= 500) {
      throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return {
      outcome: answer.status < 300 ? 'acked' : 'refused',
      status: answer.status,
      body: answer.body,
    };
  } catch (err) {
    if ((err as Error).message.startsWith(`${method} ${route}:`)) throw err;
    return { outcome: 'unknown', status: 0 };
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

afterAll(async () => {
  await stopAll();
});

test(
  `${SIZE.kills} SIGKILLs during passes, pages and invitations: each restart starts at once, no acknowledged write lost, nothing half-written`,
  async () => {
    const dataDir = await tempDir('pglite-kill');
    const env = { DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN };
    const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);
    const rand = random(seed);
    console.info(`[pglite-kill] seed ${seed} (FAULTS_SEED=${seed} repeats the kill moments)`);

    let proc: BatonProcess = await startAt(env, 'first');
    try {
      const admin = await signIn(proc.url, ADMIN);
      const people = await invitePeople(
        proc.url,
        admin,
        Array.from({ length: SIZE.rotations * 3 }, (_, i) => ({
          email: `member${i + 1}@example.com`,
          name: `Member ${i + 1}`,
        })),
      );
      const rotations: { id: number; name: string; members: Person[]; holder: number }[] = [];
      for (let r = 0; r < SIZE.rotations; r++) {
        const members = people.slice(r * 3, r * 3 + 3);
        const rotation = await createRotation(proc.url, admin, {
          name: ROTATION_NAMES[r],
          cadence: 'weekly',
          timeZone: 'UTC',
          memberIds: members.map((m) => m.id),
          holderId: members[0].id,
        });
        rotations.push({ id: rotation.id, name: rotation.name, members, holder: members[0].id });
      }
      const cookieOf = new Map(people.map((p) => [p.id, p.cookie]));

      const passes: PassWrite[] = [];
      const pages: PageWrite[] = [];
      const invitations: InvitationWrite[] = [];
      const restartMs: number[] = [];
      const readyMs: number[] = [];
      let invitationSeq = 0;

      for (let round = 1; round <= SIZE.kills; round++) {
        const url = proc.url;
        let cutOff = false;
        const running = () => !cutOff;

        // One writer per rotation passes the baton on, from the holder to the next member.
        const passWriters = rotations.map(async (rotation) => {
          let n = 0;
          while (running()) {
            const from = rotation.holder;
            const at = rotation.members.findIndex((m) => m.id === from);
            const to = rotation.members[(at + 1) % rotation.members.length].id;
            const notes = `round ${round} pass ${++n} on ${rotation.name}`;
            const answer = await send(url, 'POST', `/api/rotations/${rotation.id}/handoff`, {
              cookie: cookieOf.get(from) as string,
              body: { toUserId: to, notes },
            });
            passes.push({
              round,
              rotationId: rotation.id,
              fromUserId: from,
              toUserId: to,
              notes,
              outcome: answer.outcome,
            });
            if (answer.outcome === 'acked') rotation.holder = to;
            if (answer.outcome === 'refused')
              throw new Error(`pass refused: ${JSON.stringify(answer.body)}`);
            if (answer.outcome === 'unknown') return;
          }
        });
        // Page writers page the rotations in turn, as the administrator.
        const pageWriters = Array.from({ length: SIZE.pageWriters }, async (_, w) => {
          let n = 0;
          while (running()) {
            const rotation = rotations[(n + w) % rotations.length];
            const message = `round ${round} page ${w}.${++n}`;
            const answer = await send(url, 'POST', `/api/rotations/${rotation.id}/page`, {
              cookie: admin,
              body: { message, urgency: 'high' },
            });
            pages.push({ round, rotationId: rotation.id, message, outcome: answer.outcome });
            if (answer.outcome === 'refused')
              throw new Error(`page refused: ${JSON.stringify(answer.body)}`);
            if (answer.outcome === 'unknown') return;
          }
        });
        const invitationWriters = Array.from({ length: SIZE.invitationWriters }, async () => {
          while (running()) {
            const email = `invitee${++invitationSeq}@example.com`;
            const answer = await send<Invitation>(url, 'POST', '/api/invitations', {
              cookie: admin,
              body: { email, name: `Invitee ${invitationSeq}`, role: 'member' },
            });
            invitations.push({ round, email, outcome: answer.outcome, id: answer.body?.id });
            if (answer.outcome === 'refused')
              throw new Error(`invitation refused: ${JSON.stringify(answer.body)}`);
            if (answer.outcome === 'unknown') return;
          }
        });

        const { min, max } = SIZE.killAfterMs;
        await new Promise((resolve) => setTimeout(resolve, min + rand() * (max - min)));
        await proc.kill();
        cutOff = true;
        const killedAt = performance.now();
        await Promise.all([...passWriters, ...pageWriters, ...invitationWriters]);

        // Restart at once: the first attempt must start (no waiting for a lock to go stale).
        proc = await startAt(env, `restart ${round}`);
        restartMs.push(performance.now() - killedAt);
        await waitReady(proc.url);
        readyMs.push(performance.now() - killedAt);

        await checkRound(proc.url, admin, round, rotations, { passes, pages, invitations });
      }

      // Every acknowledged page of every round is still there, once.
      for (const rotation of rotations) {
        await checkPages(
          proc.url,
          admin,
          rotation.id,
          pages.filter((p) => p.rotationId === rotation.id),
        );
      }
      await proc.kill();
      const rows = await checkRows(dataDir, rotations, { passes, pages, invitations });

      const count = (list: { outcome: Outcome }[], o: Outcome) =>
        list.filter((w) => w.outcome === o).length;
      console.info(
        `[pglite-kill] ${SIZE.kills} kills; acknowledged: ${count(passes, 'acked')} passes, ${count(pages, 'acked')} pages, ${count(invitations, 'acked')} invitations; cut off by a kill: ${count(passes, 'unknown')} / ${count(pages, 'unknown')} / ${count(invitations, 'unknown')}, of which committed anyway: ${rows.passes - count(passes, 'acked')} / ${rows.pages - count(pages, 'acked')} / ${rows.invitations - count(invitations, 'acked')}`,
      );
      console.info(
        `[pglite-kill] kill → listening: median ${(percentile(restartMs, 50) / 1000).toFixed(2)} s, p95 ${(percentile(restartMs, 95) / 1000).toFixed(2)} s, max ${(Math.max(...restartMs) / 1000).toFixed(2)} s; kill → ready: median ${(percentile(readyMs, 50) / 1000).toFixed(2)} s, max ${(Math.max(...readyMs) / 1000).toFixed(2)} s`,
      );
    } finally {
      await stopAll();
      await removeDir(dataDir);
    }
  },
  LONG,
);

/** startAt starts Baton on the directory; one attempt, no retry: a refusal fails the test. */
async function startAt(env: Record<string, string>, name: string): Promise<BatonProcess> {
  const proc = spawnBaton({ name, env });
  try {
    await proc.listening;
  } catch (err) {
    throw new Error(`${name} did not start at once: ${(err as Error).message}`);
  }
  return proc;
}

/**
 * checkRound checks through the API, right after a restart, that the round's acknowledged writes
 * are there and that each rotation's holder is the receiver of its latest handoff.
 */
async function checkRound(
  url: string,
  admin: string,
  round: number,
  rotations: { id: number; name: string; holder: number }[],
  writes: { passes: PassWrite[]; pages: PageWrite[]; invitations: InvitationWrite[] },
) {
  for (const rotation of rotations) {
    const shown = ok(
      await api<Rotation>(url, 'GET', `/api/rotations/${rotation.id}`, { cookie: admin }),
      'rotation',
    );
    // The writer's view catches up with a pass the kill cut off that committed anyway.
    rotation.holder = shown.currentOnCallUserId as number;
    const history: Handoff[] = [];
    let before: string | null | undefined;
    do {
      const query = new URLSearchParams({
        search: rotation.name,
        limit: '100',
        ...(before ? { before } : {}),
      });
      const page = ok(
        await api<{ entries: Handoff[]; nextCursor: string | null }>(
          url,
          'GET',
          `/api/audit-log/handoffs?${query}`,
          { cookie: admin },
        ),
        'handoff history',
      );
      history.push(...page.entries.filter((h) => h.rotation.id === rotation.id));
      before = page.nextCursor;
      // Newest first: stop at the previous round's writes.
    } while (before && !history.some((h) => h.notes?.startsWith(`round ${round - 1} `)));
    expect(history[0]?.toUser?.id, `${rotation.name}: holder and latest handoff`).toBe(
      rotation.holder,
    );
    const notes = new Map<string, number>();
    for (const h of history) if (h.notes) notes.set(h.notes, (notes.get(h.notes) ?? 0) + 1);
    for (const p of writes.passes) {
      if (p.round !== round || p.rotationId !== rotation.id) continue;
      if (p.outcome === 'acked')
        expect(notes.get(p.notes), `acknowledged pass "${p.notes}"`).toBe(1);
      else expect(notes.get(p.notes) ?? 0, `pass cut off "${p.notes}"`).toBeLessThanOrEqual(1);
    }

    await checkPages(
      url,
      admin,
      rotation.id,
      writes.pages.filter((p) => p.round === round && p.rotationId === rotation.id),
    );
  }

  const listed = ok(
    await api<InvitationListItem[]>(url, 'GET', '/api/invitations', { cookie: admin }),
    'invitations',
  );
  const byId = new Map(listed.map((i) => [i.id, i]));
  const acked = writes.invitations.filter((i) => i.round === round && i.outcome === 'acked');
  for (const i of acked) {
    const shown = byId.get(i.id as number);
    expect(shown?.email, `acknowledged invitation ${i.id}`).toBe(i.email);
    expect(shown?.inviteUrl, `invitation ${i.id} has its link`).toMatch(/\/invite\/[^/]+$/);
  }
  // The newest acknowledged invitation's link works (the token's hash was written with it).
  const newest = acked.at(-1);
  if (newest) {
    const link = byId.get(newest.id as number)?.inviteUrl as string;
    const token = link.slice(link.lastIndexOf('/') + 1);
    const valid = ok(
      await api<{ invitation: Invitation }>(url, 'GET', `/api/invitations/${token}/validate`, {}),
      'validate the invitation link',
    );
    expect(valid.invitation.id).toBe(newest.id);
  }
}

/**
 * checkPages reads a rotation's page history, newest first, until it has seen every page of
 * `written`: each acknowledged one must be there once, each one cut off by a kill at most once.
 */
async function checkPages(url: string, admin: string, rotationId: number, written: PageWrite[]) {
  const acked = written.filter((p) => p.outcome === 'acked');
  const seen = new Map<string, number>();
  let before: number | undefined;
  for (;;) {
    const list = ok(
      await api<Page[]>(
        url,
        'GET',
        `/api/rotations/${rotationId}/pages?limit=200${before ? `&before=${before}` : ''}`,
        { cookie: admin },
      ),
      'pages',
    );
    for (const p of list) seen.set(p.message, (seen.get(p.message) ?? 0) + 1);
    if (list.length < 200 || acked.every((p) => seen.has(p.message))) break;
    before = list[list.length - 1].id;
  }
  for (const p of written) {
    if (p.outcome === 'acked')
      expect(seen.get(p.message), `acknowledged page "${p.message}"`).toBe(1);
    else expect(seen.get(p.message) ?? 0, `page cut off "${p.message}"`).toBeLessThanOrEqual(1);
  }
}

/**
 * checkRows opens the directory here (after the last kill: the lock is taken over at once again)
 * and checks every row: all acknowledged writes, and nothing half-written by any kill.
 */
async function checkRows(
  dataDir: string,
  rotations: { id: number; holder: number }[],
  writes: { passes: PassWrite[]; pages: PageWrite[]; invitations: InvitationWrite[] },
): Promise<{ passes: number; pages: number; invitations: number }> {
  const database = await openPglite(dataDir, {
    onLockLost: (err) => {
      throw err;
    },
  });
  try {
    const db = database.db;
    let totalPassRows = 0;
    for (const rotation of rotations) {
      const [row] = await selectRows<{ holder: number }>(
        db,
        sql`select holder_user_id as holder from rotations where id = ${rotation.id}`,
      );
      const handoffs = await selectRows<{ from: number | null; to: number; kind: string }>(
        db,
        sql`select from_user_id as "from", to_user_id as "to", kind from handoffs where rotation_id = ${rotation.id} order by id`,
      );
      // Each handoff starts with the holder the one before ended with, and the last one ends with
      // the holder: no holder change without its handoff row, no handoff row without its change.
      for (let i = 1; i < handoffs.length; i++) {
        expect(handoffs[i].from, `rotation ${rotation.id}, handoff ${i}`).toBe(handoffs[i - 1].to);
      }
      expect(handoffs.at(-1)?.to).toBe(row.holder);
      const mine = writes.passes.filter((p) => p.rotationId === rotation.id);
      const passRows = handoffs.filter((h) => h.kind === 'pass').length;
      totalPassRows += passRows;
      expect(passRows).toBeGreaterThanOrEqual(mine.filter((p) => p.outcome === 'acked').length);
      expect(passRows).toBeLessThanOrEqual(mine.filter((p) => p.outcome !== 'refused').length);
    }
    // Every pass handoff told its receiver: its notifications were written in the same transaction.
    const passesWithoutNotice = await selectRows<{ id: number }>(
      db,
      sql`select h.id from handoffs h where h.kind = 'pass' and not exists (
            select 1 from notifications n where n.dedupe_key like 'handoff:' || h.id || ':%')`,
    );
    expect(passesWithoutNotice).toEqual([]);

    // Every page has the notification to the person paged: written in the page's transaction.
    const pageRows = await selectRows<{ id: number; notices: number }>(
      db,
      sql`select p.id, (select count(*)::int from notifications n where n.dedupe_key like 'page:' || p.id || ':sent:%') as notices from pages p`,
    );
    expect(
      pageRows.filter((p) => p.notices === 0),
      'pages without their notifications',
    ).toEqual([]);
    expect(pageRows.length).toBeGreaterThanOrEqual(
      writes.pages.filter((w) => w.outcome === 'acked').length,
    );
    expect(pageRows.length).toBeLessThanOrEqual(
      writes.pages.filter((w) => w.outcome !== 'refused').length,
    );

    const invitationRows = await selectRows<{
      id: number;
      hash: string | null;
      sealed: string | null;
      status: string;
    }>(db, sql`select id, token_hash as hash, token_enc as sealed, status from invitations`);
    const invitationIds = new Set(invitationRows.map((i) => i.id));
    for (const i of writes.invitations.filter((w) => w.outcome === 'acked')) {
      expect(invitationIds.has(i.id as number), `acknowledged invitation ${i.id}`).toBe(true);
    }
    // A pending invitation keeps its token sealed (to show the link again) beside its hash.
    expect(
      invitationRows.filter((i) => !i.hash || (i.status === 'pending' && !i.sealed)),
      'invitations without their token',
    ).toEqual([]);
    expect(invitationRows.length).toBeLessThanOrEqual(
      writes.invitations.filter((w) => w.outcome !== 'refused').length + SIZE.rotations * 3,
    );
    return {
      passes: totalPassRows,
      pages: pageRows.length,
      // The members invited before the kills are not the invitation writer's.
      invitations: invitationRows.length - rotations.length * 3,
    };
  } finally {
    await database.close();
  }
}
