import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeGrafanaOnCall } from '../../../../tests/setup/fake-grafana-oncall';
import { OPSGENIE_KEY, startFakeOpsgenie } from '../../../../tests/setup/fake-opsgenie';
import { pagerDutyAccount, startFakePagerDuty } from '../../../../tests/setup/fake-pagerduty';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { ImportPlan, ImportRequest, ImportVerify } from '../../../shared/contracts/imports';
import type { User } from '../../../shared/contracts/users';
import { ManualClock } from '../../core/clock';
import { selectRows } from '../../db/client';
import { IMPORT_READERS } from './readers';

/**
 * The Done-when of issue 34 through the app, with the real readers (decision 268): a PagerDuty,
 * an Opsgenie and a Grafana OnCall account, each from a loopback server built from the vendor's
 * published API document (several schedules with layers, restrictions and overrides across both
 * spring clock changes of 2027; escalation policies; services and integrations), imported by the
 * same calls the screen and `npm run import` make. Verify finds no difference over the 90 days,
 * and importing again changes nothing. Each account's people are Baton people already (matched by
 * email), so every turn has its holder; invitations are the API test's (import-routes.test.ts).
 */

const WINDOW_START = '2027-03-01T00:00:00Z';
const TABLES = ['rotations', 'escalation_policies', 'integrations', 'coverage_requests', 'users'];

let t: TestApp;
let admin: User;

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(WINDOW_START), importReaders: IMPORT_READERS });
  admin = await t.createUser({ name: 'Ida Importer', email: 'ida@example.com', roles: ['admin'] });
});
afterAll(async () => {
  await t.close();
});

const counts = async () =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (table) => {
        const [row] = await selectRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from ${sql.identifier(table)}`,
        );
        return [table, row?.n];
      }),
    ),
  );

/** The source's people as Baton people, so the import matches each of them by email. */
const made = new Set<string>();
async function team(people: { name: string; email: string | null }[]) {
  for (const p of people) {
    if (!p.email || made.has(p.email.toLowerCase())) continue;
    made.add(p.email.toLowerCase());
    await t.createUser({ name: p.name, email: p.email, roles: ['on-call'] });
  }
}

/** Plans, applies and verifies; then plans and applies again, which must change nothing. */
async function importTwice(request: ImportRequest) {
  const planned = await t.call(admin, 'POST', '/api/imports', request);
  expect(planned.statusCode, planned.body).toBe(201);
  const plan = planned.json() as ImportPlan;
  expect(plan.people.filter((p) => p.action === 'invite')).toEqual([]);
  const applied = await t.call(admin, 'POST', `/api/imports/${plan.id}/apply`);
  expect(applied.statusCode, applied.body).toBe(200);
  const verified = await t.call(admin, 'GET', `/api/imports/${plan.id}/verify`);
  expect(verified.statusCode, verified.body).toBe(200);
  const result = verified.json() as ImportVerify;

  const before = await counts();
  const again = (await t.call(admin, 'POST', '/api/imports', request)).json() as ImportPlan;
  expect(again.changes.filter((c) => c.action !== 'unchanged')).toEqual([]);
  const second = await t.call(admin, 'POST', `/api/imports/${again.id}/apply`);
  expect(second.statusCode, second.body).toBe(200);
  expect(await counts()).toEqual(before);
  return { plan: applied.json() as ImportPlan, result };
}

describe('a spreadsheet of 200 people', () => {
  test('imports in one step, each bad row listed by its number, and verifies complete', async () => {
    const header = 'kind,name,email,phone,role,time_zone,cadence,handoff_day,handoff_time,members';
    const lines = [header];
    for (let i = 0; i < 200; i++) {
      // Rows 52 and 103 (the header is row 1) are wrong: an address and a zone.
      const email = i === 50 ? 'not-an-address' : `sheet${i}@example.com`;
      const zone = i === 101 ? 'Mars/Olympus' : 'Europe/London';
      lines.push(`person,Sheet Person ${i},${email},,member,${zone},,,,`);
    }
    for (let r = 0; r < 20; r++) {
      const members = [0, 1, 2, 3].map((k) => `sheet${r * 4 + k + 110}@example.com`).join(';');
      lines.push(`rotation,Sheet ${r},,,,Europe/London,weekly,Monday,09:00,${members}`);
    }
    const before = await counts();
    const planned = await t.call(admin, 'POST', '/api/imports', {
      source: 'csv',
      content: lines.join('\n'),
    });
    expect(planned.statusCode, planned.body).toBe(201);
    const plan = planned.json() as ImportPlan;
    expect(plan.summary.invite).toBe(198);
    const rows = plan.notes.filter((n) => n.level === 'warning').map((n) => n.message);
    expect(rows).toEqual([expect.stringMatching(/^Row 52: /), expect.stringMatching(/^Row 103: /)]);
    const applied = await t.call(admin, 'POST', `/api/imports/${plan.id}/apply`);
    expect(applied.statusCode, applied.body).toBe(200);
    const after = await counts();
    expect(after.users - before.users).toBe(198);
    expect(after.rotations - before.rotations).toBe(20);
    const verified = (
      await t.call(admin, 'GET', `/api/imports/${plan.id}/verify`)
    ).json() as ImportVerify;
    expect(verified.differences).toEqual([]);
  });
});

describe('importing an account from each vendor’s API', () => {
  test('PagerDuty: no difference over 90 days, and again changes nothing', async () => {
    const account = pagerDutyAccount();
    const pagerduty = await startFakePagerDuty({ account, key: 'pd-read-key' });
    try {
      await team(account.users);
      const { plan, result } = await importTwice({
        source: 'pagerduty',
        apiUrl: pagerduty.url,
        apiKey: 'pd-read-key',
      });
      expect(plan.changes.filter((c) => c.kind === 'rotation')).toHaveLength(
        account.schedules.length,
      );
      expect(plan.endpoints.length).toBeGreaterThan(0);
      expect(result.differences).toEqual([]);
      expect(result.complete).toBe(true);
    } finally {
      await pagerduty.close();
    }
  });

  test('Opsgenie: no difference over 90 days, and again changes nothing', async () => {
    const opsgenie = await startFakeOpsgenie();
    try {
      await team(
        opsgenie.account.users.map((u) => ({
          name: u.fullName,
          email: u.username.includes('@') ? u.username : null,
        })),
      );
      const { plan, result } = await importTwice({
        source: 'opsgenie',
        apiUrl: opsgenie.url,
        apiKey: OPSGENIE_KEY,
      });
      expect(plan.changes.filter((c) => c.kind === 'rotation')).toHaveLength(
        opsgenie.account.schedules.length,
      );
      expect(result.differences).toEqual([]);
      expect(result.complete).toBe(true);
    } finally {
      await opsgenie.close();
    }
  });

  test('Grafana OnCall: no difference over 90 days, and again changes nothing', async () => {
    const grafana = await startFakeGrafanaOnCall();
    try {
      await team(grafana.account.users.map((u) => ({ name: u.username, email: u.email })));
      const { plan, result } = await importTwice({
        source: 'grafana-oncall',
        apiUrl: grafana.url,
        apiKey: grafana.token,
      });
      expect(plan.changes.filter((c) => c.kind === 'rotation')).toHaveLength(
        grafana.account.schedules.length,
      );
      expect(result.differences).toEqual([]);
      expect(result.complete).toBe(true);
    } finally {
      await grafana.close();
    }
  });
});
