import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import { switchMode } from './accessibility-support';
import { axeColourRules, axeEveryRule } from './axe';
import { expect, test } from './fixtures';
import { chooseOption } from './rotation-support';
import { accounts, appOrigin, keepScreenshot } from './support';

/*
 * The Audit Log's administrative trail (search, action filter, CSV export, names, details whole
 * with dates in the viewer's zone), the handoff history limited to one rotation by ?rotationId=,
 * and the Settings controls the specification keeps inert (decision 188). Each test makes its
 * own rotations, named uniquely.
 */

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function post(page: Page, url: string, data?: object) {
  const res = await page.request.post(url, { data, headers: appOrigin() });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

async function teamIdOf(page: Page, email: string): Promise<number> {
  const team = (await (await page.request.get('/api/on-call-team')).json()) as {
    id: number;
    email: string;
  }[];
  const found = team.find((p) => p.email === email);
  expect(found, email).toBeTruthy();
  return found!.id;
}

/**
 * shoot checks the page with axe at 1366 px and 390 px, light and dark (every rule axe enables
 * by default, and label-content-name-mismatch; in dark, on the same document, the rules that
 * read colours), and keeps a screenshot of each with E2E_SCREENSHOTS=1. Each width is a reload
 * in light mode and `prepare`, then the app's own toggle to dark.
 */
async function shoot(page: Page, name: string, prepare: () => Promise<void>) {
  const findings: string[] = [];
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
    await page.reload();
    await prepare();
    for (const dark of [false, true]) {
      if (dark) await switchMode(page, true);
      const mode = dark ? 'dark' : 'light';
      // the run's output folder: test-results/, or its shard's folder in `npm run test:e2e`
      await keepScreenshot(
        page,
        path.join(test.info().project.outputDir, 'admin-trail', `${name}-${width}-${mode}.png`),
        { fullPage: true },
      );
      const results = await (dark ? axeColourRules(page) : axeEveryRule(page)).analyze();
      for (const v of results.violations) {
        findings.push(
          `${name} ${width} ${mode}: ${v.id} ${v.nodes.map((n) => n.target).join(' ')}`,
        );
      }
    }
  }
  expect(findings).toEqual([]);
  await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('the administrative trail searches, filters by action, names targets, shows details whole and exports CSV', async ({
  page,
  login,
}) => {
  test.setTimeout(120_000);
  await login(accounts.admin);
  const tag = unique();
  const kept = `Trail Desk ${tag}`;
  const gone = `Trail Gone ${tag}`;
  const olivia = await teamIdOf(page, accounts.onCall.email);
  const { id: keptId } = await post(page, '/api/rotations', { name: kept, type: 'fixed' });
  await post(page, `/api/rotations/${keptId}/on-call`, { userId: olivia });
  const startTime = '2030-03-01T08:00:00.000Z';
  const endTime = '2030-03-02T17:30:00.000Z';
  await post(page, `/api/rotations/${keptId}/schedules`, { userId: olivia, startTime, endTime });
  const { id: goneId } = await post(page, '/api/rotations', { name: gone, type: 'fixed' });
  await post(page, `/api/rotations/${goneId}/on-call`, { userId: olivia });
  const deleted = await page.request.delete(`/api/rotations/${goneId}`, { headers: appOrigin() });
  expect(deleted.ok()).toBe(true);
  const me = (await (await page.request.get('/api/auth/user')).json()).user as {
    timezone: string;
  };

  await page.goto('/audit-log');
  await page.getByRole('tab', { name: 'Administrative Trail' }).click();
  const search = page.getByRole('searchbox', { name: 'Search the audit trail' });
  await search.fill(tag);
  const trail = page.getByRole('table', { name: 'Administrative actions' });
  const rows = trail.getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
  // Created and member added for both, a schedule entry, a deletion: six, newest first.
  await expect(rows).toHaveCount(6);
  await expect(rows.nth(0)).toContainText('Deleted a rotation');
  await expect(rows.nth(0)).toContainText(gone);
  // The deleted rotation's earlier events are named by it, never 'rotation #N'.
  const goneMember = rows.filter({ hasText: 'Added a member' }).filter({ hasText: gone });
  await expect(goneMember).toHaveCount(1);
  await expect(goneMember).toContainText(accounts.onCall.name);
  await expect(trail).not.toContainText(/rotation #\d/);

  // The schedule entry's details: whole, its times in the viewer's zone, opened on demand.
  const scheduled = rows.filter({ hasText: 'Added a schedule entry' });
  const when = (iso: string) =>
    new Intl.DateTimeFormat('en-US', {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: me.timezone,
    }).format(new Date(iso));
  await expect(scheduled).toContainText(`start time: ${when(startTime)}`);
  await expect(scheduled).not.toContainText(startTime);
  const open = scheduled.getByRole('button', { name: 'Show details' });
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  const hide = scheduled.getByRole('button', { name: 'Hide details' });
  // Under a loaded machine a click was once dropped here (CI, 2026-11-25; cause not found): click
  // again until the details are open, as a person would.
  await expect(async () => {
    if (await open.isVisible()) await open.click({ timeout: 2_000 });
    await expect(hide).toHaveAttribute('aria-expanded', 'true', { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  const list = page.locator(`[id="${await hide.getAttribute('aria-controls')}"]`);
  const terms = await list.getByRole('term').allTextContents();
  const values = await list.getByRole('definition').allTextContents();
  const shown = Object.fromEntries(terms.map((term, i) => [term, values[i]]));
  expect(shown).toMatchObject({
    'start time': when(startTime),
    'end time': when(endTime),
    'user name': accounts.onCall.name,
  });
  expect(terms).not.toContain('user id');

  // The action filter, with the search.
  await chooseOption(page, page, 'Filter by action', 'Added a member');
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row).toContainText('Added a member');

  // Search by actor name and by action label (any case), beside the filter.
  await search.fill(`${accounts.admin.name.toUpperCase()}`);
  await expect(rows.first()).toContainText('Added a member');
  await chooseOption(page, page, 'Filter by action', 'All actions');
  await search.fill(`deleted a rotation`);
  await expect(rows.filter({ hasText: gone })).toHaveCount(1);
  await search.fill(`${tag}-nothing-matches`);
  await expect(page.getByText('No actions match your search')).toBeVisible();

  // The export carries the same filters.
  await search.fill(tag);
  await expect(rows).toHaveCount(6);
  await chooseOption(page, page, 'Filter by action', 'Deleted a rotation');
  await expect(rows).toHaveCount(1);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^baton-admin-trail-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile((await download.path())!, 'utf8')).replace(/^\ufeff/, '');
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.data).toEqual([
    expect.objectContaining({
      actor: accounts.admin.name,
      action: 'rotation.deleted',
      action_label: 'Deleted a rotation',
      target_type: 'rotation',
      target_id: String(goneId),
      target: gone,
      details: `name: ${gone}`,
    }),
  ]);

  await shoot(page, 'trail', async () => {
    await page.getByRole('tab', { name: 'Administrative Trail' }).click();
    await page.getByRole('searchbox', { name: 'Search the audit trail' }).fill(tag);
    await expect(rows).toHaveCount(6);
    await rows
      .filter({ hasText: 'Added a schedule entry' })
      .getByRole('button', { name: 'Show details' })
      .click();
  });
});

test('?rotationId= limits the handoff history to that rotation, with a removable chip', async ({
  page,
  login,
}) => {
  test.setTimeout(90_000);
  await login(accounts.admin);
  const name = `Chip Rotation ${unique()}`;
  const { id } = await post(page, '/api/rotations', { name, type: 'fixed' });

  const asked = page.waitForRequest(
    (req) =>
      req.url().includes('/api/audit-log/handoffs?') &&
      new URL(req.url()).searchParams.get('rotationId') === String(id),
  );
  await page.goto(`/audit-log?rotationId=${id}`);
  await asked;
  const chip = page.getByRole('list', { name: 'Active filters' }).getByRole('listitem');
  await expect(chip).toHaveText(`Rotation: ${name}`);
  // The export carries it too.
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    `/api/audit-log/handoffs.csv?rotationId=${id}`,
  );
  await shoot(page, 'history-rotation', async () => {
    await expect(chip).toHaveText(`Rotation: ${name}`);
  });

  const unfiltered = page.waitForRequest(
    (req) =>
      req.url().includes('/api/audit-log/handoffs?') &&
      !new URL(req.url()).searchParams.has('rotationId'),
  );
  await chip.getByRole('button', { name: `Remove filter Rotation: ${name}` }).click();
  await unfiltered;
  await expect(page).toHaveURL(/\/audit-log$/);
  await expect(page.getByRole('list', { name: 'Active filters' })).toHaveCount(0);
});

test('settings the specification keeps inert are disabled and say they are not available yet', async ({
  page,
  login,
}) => {
  test.setTimeout(90_000);
  await login(accounts.onCall);
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Notifications' }).click();
  for (const type of [
    'Baton handoffs',
    'Handoff reminders and escalations',
    'Page alerts',
    'Coverage requests',
  ]) {
    const select = page.getByRole('combobox', { name: type });
    await expect(select).toBeDisabled();
    await expect(select).toHaveText('Both');
    await expect(select).toHaveAccessibleDescription(/^Not available yet\./);
  }
  await expect(page.getByRole('group', { name: /By notification type/ })).toContainText(
    'Not available yet',
  );
  // The preference that is saved stays a live control.
  await expect(page.getByRole('combobox', { name: 'Notification preference' })).toBeEnabled();
  await shoot(page, 'settings-notifications', async () => {
    await page.getByRole('tab', { name: 'Notifications' }).click();
  });

  await page.getByRole('tab', { name: 'Integrations' }).click();
  for (const name of ['Google calendar', 'Outlook', 'PagerDuty', 'Jira Service Desk']) {
    const connect = page.getByRole('button', { name: `Connect ${name}` });
    await expect(connect).toBeDisabled();
    await expect(connect).toHaveAccessibleDescription('Not available yet');
  }
  await shoot(page, 'settings-integrations', async () => {
    await page.getByRole('tab', { name: 'Integrations' }).click();
  });
});
