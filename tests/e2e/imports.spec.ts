import { type BatonServer, freePorts, startBaton } from '../setup/baton-process';
import { type FakePagerDuty, pagerDutyAccount, startFakePagerDuty } from '../setup/fake-pagerduty';
import { axeBuilder } from './axe';
import { expect, test } from './fixtures';
import { E2E_PASSWORD } from './support';

/**
 * Moving in (issue 34, decision 268): an administrator imports a PagerDuty account from Settings →
 * Import. The account is a loopback server that answers as PagerDuty's REST API v2 does and renders
 * its own final schedule; the walk goes through the plan (matches, invitations, notes), the apply
 * (the new alert endpoints) and the verify (where the one person left out was on call), then a
 * spreadsheet whose bad row is listed by number. A server of its own (DEMO=0), so the imported
 * rotations meet no other test's.
 */

const ADMIN = { email: 'ada.admin@acme.example', name: 'Ada Admin' };
const KEY = 'u+readonly-e2e-key';

let pagerduty: FakePagerDuty;
let baton: BatonServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  pagerduty = await startFakePagerDuty({ account: pagerDutyAccount(), key: KEY });
  baton = await startBaton({
    port: (await freePorts(1))[0],
    env: {
      DEMO: '0',
      ADMIN_EMAIL: ADMIN.email,
      LOCAL_LOGIN_PASSWORD: E2E_PASSWORD,
      SIGN_IN_RATE_LIMIT: '1000',
      // The PagerDuty account's company: its contractor at another domain is left out, with why.
      COMPANY_DOMAIN: 'acme.example',
    },
  });
});

test.afterAll(async () => {
  await baton?.stop();
  await pagerduty?.close();
});

test('an administrator imports a PagerDuty account: plan, apply, verify', async ({
  page,
  login,
}) => {
  test.setTimeout(90_000);
  const BASE = baton?.url ?? '';
  await login(ADMIN, { origin: BASE });
  await page.goto(`${BASE}/settings?tab=import`);
  const form = page.getByRole('form', { name: 'Import from' });
  await expect(form.getByRole('radio', { name: 'PagerDuty' })).toBeChecked();

  // A wrong key is refused with words a person can act on, and nothing is planned.
  await form.getByLabel('API key').fill('wrong-key');
  await form.getByLabel('API address').fill(pagerduty.url);
  await form.getByRole('button', { name: 'Make a plan' }).click();
  await expect(page.getByRole('alert')).toContainText('PagerDuty refused the API key (401)');

  // The plan: who is matched or invited, what each schedule becomes, and what could not be kept.
  await form.getByLabel('API key').fill(KEY);
  await form.getByRole('button', { name: 'Make a plan' }).click();
  await expect(page.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible();
  const people = page.getByRole('region', { name: /People/ });
  await expect(people.getByRole('row', { name: /Ada Lovelace/ })).toContainText('Invited');
  await expect(people.getByRole('row', { name: /Eve Stone/ })).toContainText(
    'Email is outside the acme.example domain',
  );
  const rotations = page.getByRole('region', { name: /Rotations/ });
  await expect(rotations.getByText('Platform', { exact: true })).toBeVisible();
  // Schedule C's last layer ends: a layer Baton keeps going, or PagerDuty's own shifts, said so.
  await expect(page.getByRole('region', { name: 'Notes' })).toContainText(
    /the Baton layer goes on|scheduled rotation of PagerDuty/,
  );
  const plan = await axeBuilder(page).include('main').analyze();
  expect(plan.violations).toEqual([]);

  // Apply: everything at once, then the endpoints to point monitoring at.
  await page.getByRole('button', { name: 'Apply plan' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Apply this plan?' });
  await confirm.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Applied', exact: true })).toBeVisible();
  const endpoints = page.getByRole('region', { name: 'Point monitoring here' });
  await expect(endpoints.getByText(/\/api\/alerts\/pagerduty\/v2\/enqueue/).first()).toBeVisible();

  // Verify: Baton's next 90 days against PagerDuty's own rendering, to the minute. The one
  // person left out (a contractor at another domain) is every difference, with both names.
  await page.getByRole('button', { name: 'Verify against the source' }).click();
  const differences = page.getByRole('region', { name: /differences from the source/ });
  const rows = differences.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row).toContainText('Eve Stone');
  const verified = await axeBuilder(page).include('main').analyze();
  expect(verified.violations).toEqual([]);

  // The imported rotation is Baton's own, with its layers.
  await page.goto(`${BASE}/rotations`);
  await expect(page.getByRole('row', { name: /^Platform / })).toBeVisible();
});

test('a spreadsheet imports its good rows and lists a bad one by its row', async ({
  page,
  login,
}) => {
  test.setTimeout(60_000);
  const BASE = baton?.url ?? '';
  await login(ADMIN, { origin: BASE });
  await page.goto(`${BASE}/settings?tab=import`);
  const form = page.getByRole('form', { name: 'Import from' });
  await form.getByRole('radio', { name: 'Spreadsheet (CSV)' }).check();
  await expect(form.getByRole('link', { name: 'Download the template' })).toBeVisible();
  const csv = [
    'kind,name,email,phone,role,time_zone,cadence,handoff_day,handoff_time,members',
    'person,Rita Row,rita@acme.example,,member,Europe/Berlin,,,,',
    'person,Sam Sheet,not-an-email,,member,Europe/Berlin,,,,',
    'person,Tom Table,tom@acme.example,,member,Europe/Berlin,,,,',
    'rotation,Sheet Rotation,,,,Europe/Berlin,weekly,monday,09:00,rita@acme.example;tom@acme.example',
  ].join('\n');
  await form.getByLabel('File', { exact: true }).setInputFiles({
    name: 'team.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await form.getByRole('button', { name: 'Make a plan' }).click();
  await expect(page.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Notes' })).toContainText('Row 3');
  await page.getByRole('button', { name: 'Apply plan' }).click();
  await page
    .getByRole('alertdialog', { name: 'Apply this plan?' })
    .getByRole('button', { name: 'Apply', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Applied', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Verify against the source' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Complete' })).toBeVisible();
});
