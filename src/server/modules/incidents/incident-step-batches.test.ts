import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, notifications, pages } from '../../db/schema';
import { followNewPolicy, insertRotation, stepsReaching } from '../../seed/factories';
import { verifyAuditChain } from '../audit/audit-chain';
import { raiseIncident } from './incident-engine';
import { runIncidentTimers, STEPS_PER_TRANSACTION } from './incident-escalation-task';

/**
 * The escalation engine takes due steps in batches (decision 277): up to STEPS_PER_TRANSACTION in
 * one transaction, sharing their reads, ids and the audit trail's insert; a batch that fails is
 * taken again one step at a time. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const MINUTE = 60_000;
let t: TestApp;
let manager: User;
let ana: User;
let ben: User;
let statements = 0;
let counting = false;
let rotation: { id: number; name: string; escalationPolicyId: number };

beforeAll(async () => {
  t = await createTestApp({
    db: {
      onQuery: () => {
        if (counting) statements += 1;
      },
    },
  });
  manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
  ana = await t.createUser({ name: 'Ana Alvarez' });
  ben = await t.createUser({ name: 'Ben Brooks' });
  const row = await insertRotation(t.database.db, {
    memberIds: [ana.id, ben.id],
    holderId: ana.id,
    createdById: manager.id,
    now: t.clock.now(),
  });
  // Ana first, then Ben a minute later
  const policyId = await followNewPolicy(t.database.db, row.id, stepsReaching([ana, ben]), {
    name: 'Ana then Ben',
    createdById: manager.id,
    now: t.clock.now(),
  });
  rotation = { id: row.id, name: row.name, escalationPolicyId: policyId };
});
afterAll(() => t.close());

/** raises `n` incidents on the rotation at `at`, each paging Ana; answers their ids */
async function raise(n: number, at: Date): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = await t.database.db.transaction((tx) =>
      raiseIncident(
        tx,
        { cipher: t.cipher, config: t.config },
        {
          rotation,
          raisedBy: manager,
          source: 'user',
          message: `Checkout is failing ${i}`,
          severity: 'P2',
          urgency: 'high',
          now: at,
        },
      ),
    );
    ids.push(row.id);
  }
  return ids;
}

const deps = () => ({ database: t.database, cipher: t.cipher, clock: t.clock, config: t.config });
const stepsOf = async (ids: number[]) =>
  (
    await t.database.db
      .select({ id: pages.id, stepIndex: pages.stepIndex })
      .from(pages)
      .where(inArray(pages.id, ids))
      .orderBy(asc(pages.id))
  ).map((r) => r.stepIndex);
const reachedEvents = (ids: number[]) =>
  t.database.db
    .select({ id: auditEvents.id, targetId: auditEvents.targetId, chainSeq: auditEvents.chainSeq })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, 'incident.step_reached'),
        inArray(
          auditEvents.targetId,
          ids.map((id) => String(id)),
        ),
      ),
    )
    .orderBy(asc(auditEvents.id));
const pagesToBen = (ids: number[]) =>
  t.database.db
    .select({ pageId: notifications.pageId })
    .from(notifications)
    .where(and(eq(notifications.userId, ben.id), inArray(notifications.pageId, ids)));

test('a batch of due steps shares its reads: each step costs a few statements, its events chained in order', async () => {
  const raisedAt = t.clock.now();
  const n = STEPS_PER_TRANSACTION + 8; // two batches
  const ids = await raise(n, raisedAt);
  const before = await reachedEvents(ids);
  statements = 0;
  counting = true;
  const report = await runIncidentTimers(deps(), new Date(raisedAt.getTime() + MINUTE));
  counting = false;
  expect(report).toEqual({ reminded: 0, escalated: n, exhausted: 0 });
  expect(await stepsOf(ids)).toEqual(ids.map(() => 1));
  // One step alone reads the incident, the rotation and its members, the people, their rules and
  // the destinations, allocates ids and writes the row, its event and its notifications: a dozen
  // statements. In a batch each step locks and reads its row, writes it and its notifications,
  // and shares the rest.
  expect(statements / n).toBeLessThan(5);
  // Every step has its 'incident.step_reached' event, in the trail's chain in the steps' order,
  // and the chain verifies.
  const events = (await reachedEvents(ids)).slice(before.length);
  expect(events.map((e) => Number(e.targetId))).toEqual(ids);
  const seqs = events.map((e) => Number(e.chainSeq));
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect((await verifyAuditChain(t.database.db, t.cipher)).status).toBe('intact');
  // and Ben was paged for each
  expect((await pagesToBen(ids)).length).toBe(n);
});

test('a step that cannot be taken fails its batch; the batch is taken again one step at a time, and the others are taken', async () => {
  const raisedAt = new Date(t.clock.now().getTime() + 10 * MINUTE);
  const ids = await raise(3, raisedAt);
  const bad = ids[1];
  await t.database.db.execute(
    sql.raw(`create function refuse_step() returns trigger language plpgsql as $$
      begin
        if new.id = ${bad} and new.step_index = 1 then raise exception 'step refused for the test'; end if;
        return new;
      end $$`),
  );
  await t.database.db.execute(
    sql.raw(
      'create trigger refuse_step before update on pages for each row execute function refuse_step()',
    ),
  );
  try {
    await expect(
      runIncidentTimers(deps(), new Date(raisedAt.getTime() + MINUTE)),
    ).rejects.toThrow();
  } finally {
    await t.database.db.execute(sql.raw('drop trigger refuse_step on pages'));
    await t.database.db.execute(sql.raw('drop function refuse_step()'));
  }
  // the first and the third stepped, each once; the refused one stayed, with nothing written
  expect(await stepsOf(ids)).toEqual([1, 0, 1]);
  const events = await reachedEvents(ids);
  expect(events.map((e) => Number(e.targetId)).sort()).toEqual(
    [ids[0], ids[0], ids[1], ids[2], ids[2]].sort(),
  );
  expect((await pagesToBen(ids)).map((r) => r.pageId).sort()).toEqual([ids[0], ids[2]].sort());
  expect((await verifyAuditChain(t.database.db, t.cipher)).status).toBe('intact');
});
