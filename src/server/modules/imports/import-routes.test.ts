import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { EscalationPolicy } from '../../../shared/contracts/escalation-policies';
import {
  IMPORT_MESSAGES,
  type ImportPlan,
  type ImportVerify,
} from '../../../shared/contracts/imports';
import type { Integration } from '../../../shared/contracts/integrations';
import type { Rotation } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { ManualClock } from '../../core/clock';
import { selectRows } from '../../db/client';
import { findImport } from './import-repository';
import {
  databaseSchedule,
  type FakeAccount,
  fakeAccount,
  IMPORT_NOW,
  platformSchedule,
  readersFor,
} from './import-routes.fixtures';
import { SOURCE_NOT_AVAILABLE } from './readers';
import { renderSchedule } from './snapshot-rendering';
import { ImportSourceError } from './source-snapshot';

/**
 * Imports through the app (issue 34, decision 268): plan from a reader's snapshot, apply once in
 * one transaction, verify against the source's rendering across both spring DST changes, import
 * again without duplicates, and a broken row that writes nothing. PGlite, and PostgreSQL with
 * TEST_DATABASE_URL.
 */

let t: TestApp;
let admin: User;
let manager: User;
let people: Record<'ada' | 'ben' | 'cy', User>;
let account: FakeAccount;
let failure: ImportSourceError | null = null;

beforeAll(async () => {
  account = fakeAccount();
  const readers = readersFor(() => account);
  const pagerduty = readers.pagerduty;
  t = await createTestApp({
    clock: new ManualClock(IMPORT_NOW),
    importReaders: {
      ...readers,
      pagerduty: async (input) => {
        if (failure) throw failure;
        return (pagerduty as NonNullable<typeof pagerduty>)(input);
      },
    },
  });
  admin = await t.createUser({ name: 'Ada Admin', email: 'admin@example.com', roles: ['admin'] });
  manager = await t.createUser({
    name: 'Max Manager',
    email: 'max@example.com',
    roles: ['manager'],
  });
  people = {
    ada: await t.createUser({ name: 'Ada Baton', email: 'ada@example.com', roles: ['on-call'] }),
    ben: await t.createUser({ name: 'Ben Baton', email: 'Ben@Example.com', roles: ['on-call'] }),
    cy: await t.createUser({ name: 'Cy Baton', email: 'cy@example.com', roles: ['on-call'] }),
  };
});
afterAll(async () => {
  await t.close();
});

const count = async (table: string) =>
  (
    await selectRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ${sql.identifier(table)}`,
    )
  )[0].n;

const TABLES = [
  'imports',
  'import_links',
  'rotations',
  'escalation_policies',
  'integrations',
  'invitations',
  'coverage_requests',
] as const;
const counts = async () =>
  Object.fromEntries(await Promise.all(TABLES.map(async (n) => [n, await count(n)])));

async function plan(body: unknown = { source: 'pagerduty', apiKey: 'read-only-key' }) {
  return t.call(admin, 'POST', '/api/imports', body);
}
async function planned(): Promise<ImportPlan> {
  const res = await plan();
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function apply(id: number) {
  return t.call(admin, 'POST', `/api/imports/${id}/apply`);
}
async function verify(id: number): Promise<ImportVerify> {
  const res = await t.call(admin, 'GET', `/api/imports/${id}/verify`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const rotationNamed = async (name: string): Promise<Rotation> => {
  const res = await t.call(admin, 'GET', '/api/rotations');
  const list = res.json() as Rotation[];
  return list.find((r) => r.name === name) as Rotation;
};

describe('refusals write nothing', () => {
  test('only administrators plan', async () => {
    const res = await t.call(manager, 'POST', '/api/imports', { source: 'pagerduty', apiKey: 'k' });
    expect(res.statusCode).toBe(403);
    expect((await t.call(null, 'GET', '/api/imports')).statusCode).toBe(401);
  });

  test('a source with no reader yet, a refused key and a failing source', async () => {
    const before = await counts();
    const none = await plan({ source: 'opsgenie', apiKey: 'k' });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({
      message: SOURCE_NOT_AVAILABLE,
      code: 'IMPORT_SOURCE_REFUSED',
    });
    failure = new ImportSourceError('PagerDuty refused the API key (401): check the key', 'input');
    const refused = await plan();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('PagerDuty refused the API key (401): check the key');
    failure = new ImportSourceError('PagerDuty did not answer within 15 s');
    const failed = await plan();
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({
      message: 'PagerDuty did not answer within 15 s',
      code: 'IMPORT_SOURCE_FAILED',
    });
    failure = null;
    // A calendar or spreadsheet of megabytes reaches the source's reader (none wired here).
    const big = await plan({ source: 'csv', content: 'name,email\n'.repeat(200_000) });
    expect(big.statusCode).toBe(422);
    expect(big.json().message).toBe(SOURCE_NOT_AVAILABLE);
    const missingKey = await plan({ source: 'pagerduty' });
    expect(missingKey.statusCode).toBe(400);
    expect(missingKey.json().message).toBe(`apiKey: ${IMPORT_MESSAGES.apiKey}`);
    expect(await counts()).toEqual(before);
  });

  test('a broken row fails the apply, names the row, and leaves the database as it was', async () => {
    const saved = account;
    const broken = platformSchedule();
    broken.sourceId = 'P999';
    broken.name = 'Broken';
    broken.layers?.[1]?.memberSourceIds.push('PGHOST');
    const long = databaseSchedule();
    long.sourceId = 'P998';
    long.name = 'x'.repeat(201);
    account = { ...fakeAccount(), account: 'https://broken.pagerduty.test' };
    account.schedules = [databaseSchedule(), broken];
    const first = await planned();
    expect(first.notes).toContainEqual({
      level: 'warning',
      subject: 'Cannot be applied',
      message: 'Schedule “Broken” (P999): names a person the source did not list (PGHOST)',
    });
    const before = await counts();
    const res = await apply(first.id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Schedule “Broken” (P999): names a person the source did not list (PGHOST)',
      code: 'IMPORT_ROW_FAILED',
    });
    expect(await counts()).toEqual(before);
    account.schedules = [databaseSchedule(), long];
    const second = await planned();
    const after = await counts();
    const tooLong = await apply(second.id);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().message).toBe(
      `Schedule “${long.name}” (P998): name: Rotation name must be at most 200 characters.`,
    );
    expect(await counts()).toEqual(after);
    expect((await t.call(admin, 'GET', `/api/imports/${second.id}`)).json().status).toBe('planned');
    account = saved;
  });
});

describe('plan, apply, verify, and again', () => {
  let first: ImportPlan;

  test('the plan matches people by email in any case, invites, and skips with a reason', async () => {
    first = await planned();
    expect(first.status).toBe('planned');
    expect(first.window).toEqual({
      from: IMPORT_NOW.replace('Z', '.000Z'),
      to: '2027-05-30T12:00:00.000Z',
    });
    expect(first.people.map((p) => [p.sourceId, p.action, p.userId])).toEqual([
      ['PADA', 'match', people.ada.id],
      ['PBEN', 'match', people.ben.id],
      ['PCY', 'match', people.cy.id],
      ['PDEE', 'invite', null],
      ['PEVE', 'skip', null],
      ['POUT', 'skip', null],
    ]);
    expect(first.people.find((p) => p.sourceId === 'POUT')?.reason).toBe(
      'Email is outside the example.com domain: Baton invites only addresses of that domain',
    );
    expect(first.changes.map((c) => [c.kind, c.action, c.sourceId])).toEqual([
      ['rotation', 'create', 'P123'],
      ['cover', 'create', 'P123/2027-03-20T12:00:00.000Z/2027-03-21T12:00:00.000Z/PCY'],
      ['rotation', 'create', 'P456'],
      ['policy', 'create', 'EP1'],
      ['integration', 'create', 'I1'],
    ]);
    // Dee is invited, and on call from the apply: nothing is left out for her.
    expect(first.summary).toEqual({ create: 5, update: 0, unchanged: 0, invite: 1, warnings: 0 });
    expect(first.people.find((p) => p.sourceId === 'PDEE')?.reason).toBe(
      'No Baton person has this email: invited, and on call in Baton from the apply',
    );
    // The key was used for the read and is kept nowhere: not in the snapshot, not in the plan.
    const stored = await findImport(t.database.db, t.cipher, first.id);
    expect(JSON.stringify(stored)).not.toContain('read-only-key');
    expect(stored?.snapshot.schedules.map((x) => x.sourceId)).toEqual(['P123', 'P456']);
    const listed = await t.call(admin, 'GET', '/api/imports');
    expect(listed.json().map((p: ImportPlan) => p.id)).toContain(first.id);
    expect((await t.call(admin, 'GET', `/api/imports/${first.id}`)).json()).toEqual(first);
  });

  test('verify before apply is refused', async () => {
    const res = await t.call(admin, 'GET', `/api/imports/${first.id}/verify`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(IMPORT_MESSAGES.notApplied);
  });

  test('apply makes the rotations, cover, policy, integration and invitation at once', async () => {
    const res = await apply(first.id);
    expect(res.statusCode, res.body).toBe(200);
    const applied = res.json() as ImportPlan;
    expect(applied.status).toBe('applied');
    expect(applied.changes.every((c) => c.batonId !== null)).toBe(true);
    const platform = await rotationNamed('Platform');
    expect(platform.timeZone).toBe('America/New_York');
    expect(platform.layers.map((l) => [l.name, l.memberIds, l.cadence, l.cadenceEvery])).toEqual([
      ['Around the clock', [people.ada.id, people.ben.id], 'hourly', 12],
      ['Office hours', [people.cy.id, people.ben.id], 'weekly', 1],
    ]);
    const policyId = applied.changes.find((c) => c.kind === 'policy')?.batonId;
    const policy = (
      await t.call(admin, 'GET', `/api/escalation-policies/${policyId}`)
    ).json() as EscalationPolicy;
    expect(policy.repeat).toBe(2);
    // Dee, invited by this apply, has her account and is in the step.
    const dee = (await t.call(admin, 'GET', '/api/users')).json() as User[];
    const deeId = dee.find((u) => u.email === 'dee@example.com')?.id;
    expect(deeId).toBeDefined();
    expect(policy.steps.map((s) => [s.delayMinutes, s.targets])).toEqual([
      [15, [{ type: 'rotation-holder', id: platform.id }]],
      [
        15,
        [
          { type: 'user', id: people.ada.id },
          { type: 'user', id: deeId },
        ],
      ],
    ]);
    const [endpoint] = applied.endpoints;
    expect(endpoint).toMatchObject({ name: 'Platform API', replaces: 'PagerDuty Platform API' });
    expect(endpoint?.url).toMatch(/\/api\/integrations\/pagerduty|enqueue/);
    // The key works: an alert sent with it opens an incident on the policy.
    const integration = (
      await t.call(admin, 'GET', `/api/integrations/${endpoint?.integrationId}`)
    ).json() as Integration;
    expect(integration.keyHint).toBe(endpoint?.key.slice(-4));
    const stored = (await t.call(admin, 'GET', `/api/imports/${first.id}`)).json() as ImportPlan;
    expect(stored.endpoints[0]?.key).toBe(`…${endpoint?.key.slice(-4)}`);
    const invitations = (await t.call(admin, 'GET', '/api/invitations')).json() as {
      email: string;
    }[];
    expect(invitations.map((i) => i.email)).toContain('dee@example.com');
    const audited = await selectRows<{ action: string; actor: number }>(
      t.database.db,
      sql`select action, actor_user_id as actor from audit_events
           where target_type = 'import' and target_id = ${String(first.id)} order by id`,
    );
    expect(audited).toEqual([
      { action: 'import.planned', actor: admin.id },
      { action: 'import.applied', actor: admin.id },
    ]);
    const again = await apply(first.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(IMPORT_MESSAGES.alreadyApplied);
  });

  test('verify: Baton puts the same people on call as the source, over 90 days across DST', async () => {
    const result = await verify(first.id);
    expect(result.differences).toEqual([]);
    expect(result.complete).toBe(true);
  });

  test('importing again changes nothing and duplicates nothing', async () => {
    const before = await counts();
    const second = await planned();
    expect(second.changes.map((c) => c.action)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    // Dee's account was made from her invitation at the first apply: now she is matched.
    expect(second.people.find((p) => p.sourceId === 'PDEE')?.action).toBe('match');
    const res = await apply(second.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().endpoints).toEqual([]);
    const after = await counts();
    expect({ ...after, imports: before.imports }).toEqual(before);
    expect(after.imports).toBe(before.imports + 1);
  });

  test('a change in the source updates only what changed', async () => {
    // Time passes between imports (a rotation's layers changed twice at one instant is refused
    // by the rotations module), but no handoff falls due: no engine runs here to make it.
    t.clock.advance(20 * 60_000);
    const schedule = account.schedules[1];
    if (schedule?.layers?.[0]) schedule.layers[0].handoffTime = '11:00';
    const third = await planned();
    expect(third.changes.map((c) => [c.sourceId, c.action])).toEqual([
      ['P123', 'unchanged'],
      ['P123/2027-03-20T12:00:00.000Z/2027-03-21T12:00:00.000Z/PCY', 'unchanged'],
      ['P456', 'update'],
      ['EP1', 'unchanged'],
      ['I1', 'unchanged'],
    ]);
    const before = await counts();
    expect((await apply(third.id)).statusCode).toBe(200);
    expect({ ...(await counts()), imports: before.imports }).toEqual(before);
    expect((await rotationNamed('Database')).layers[0]?.handoffTime).toBe('11:00');
    expect((await verify(third.id)).differences).toEqual([]);
  });

  test('a layer changed in Baton shows in verify, with both names', async () => {
    t.clock.advance(20 * 60_000);
    const database = await rotationNamed('Database');
    const layers = database.layers.map((l) => ({ ...l, memberIds: [...l.memberIds].reverse() }));
    const res = await t.call(admin, 'PATCH', `/api/rotations/${database.id}`, { layers });
    expect(res.statusCode, res.body).toBe(200);
    const result = await verify(first.id);
    expect(result.complete).toBe(false);
    const [d] = result.differences;
    expect(d).toMatchObject({ rotationId: database.id, rotationName: 'Database' });
    expect([d?.source, d?.baton].sort()).toEqual(['Ada Source', 'Cy Source']);
    expect(result.differences.every((x) => x.rotationName === 'Database')).toBe(true);
  });
});

describe('a pattern Baton keeps as schedule entries', () => {
  test('layers: null becomes a scheduled rotation of the rendered shifts, verified, and again unchanged', async () => {
    t.clock.advance(20 * 60_000);
    const saved = account;
    const support = {
      ...databaseSchedule(),
      sourceId: 'P789',
      name: 'Support',
    };
    const [layer] = support.layers ?? [];
    if (layer) layer.activeWindows = [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }];
    const window = { from: t.clock.now(), to: new Date(t.clock.now().getTime() + 90 * 86_400_000) };
    const rendered = renderSchedule({ ...support, rendered: [] }, window.from, window.to);
    account = {
      account: 'https://scheduled.pagerduty.test',
      // A pattern the reader could not express as layers: its rendering alone (here, what the
      // layer with its weekday window renders).
      schedules: [{ ...support, layers: null, overrides: [], rendered }],
      policies: [],
      integrations: [],
    };
    const plan = await planned();
    expect(plan.changes).toEqual([
      expect.objectContaining({ kind: 'rotation', action: 'create', sourceId: 'P789' }),
    ]);
    expect(plan.changes[0]?.details[0]).toMatch(/^Scheduled rotation: \d+ entries/);
    const res = await apply(plan.id);
    expect(res.statusCode, res.body).toBe(200);
    const rotation = await rotationNamed('Support');
    expect(rotation.type).toBe('scheduled');
    expect(rendered.length).toBeGreaterThan(60);
    const result = await verify(plan.id);
    expect(result.differences).toEqual([]);
    const again = await planned();
    expect(again.changes.map((c) => c.action)).toEqual(['unchanged']);
    account = saved;
  });
});

describe('two plans of one account applied at once', () => {
  test('the second waits for the first and makes nothing twice', async () => {
    t.clock.advance(20 * 60_000);
    const saved = account;
    account = { ...fakeAccount(), account: 'https://twice.pagerduty.test' };
    const [one, two] = [await planned(), await planned()];
    const before = await counts();
    const answers = await Promise.all([apply(one.id), apply(two.id)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const after = await counts();
    expect(after.rotations - before.rotations).toBe(2);
    expect(after.escalation_policies - before.escalation_policies).toBe(3);
    expect(after.integrations - before.integrations).toBe(1);
    account = saved;
  });
});
