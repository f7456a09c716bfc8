import { expect, type Page, test } from '@playwright/test';
import { switchMode } from './accessibility-support';
import { axeColourRules, axeEveryRule } from './axe';
import { actAs, apiAs, createRotation, toast, uniqueName, userIds } from './rotation-support';
import { accounts } from './support';

// A ceiling: a test here took 43 s under three shards on two cores (30 s is the default off CI).
test.describe.configure({ timeout: 120_000 });

// The browser runs in UTC; the demo accounts' profiles say which zone their times are in.
test.use({ timezoneId: 'UTC', locale: 'en-US' });

/*
 * Issue 15's loose ends (decision 187): a member opens a teammate from On-Call Team (a read-only
 * person view, not a bounce off /admin/users); the receiver's banner quotes the handoff notes;
 * the rotation page shows its own handoff history with 'View all' to the filtered audit log.
 */

/**
 * axeFindings runs every default axe rule plus label-content-name-mismatch, as the sweep does, or
 * with `colourOnly` the ones that read colours (for dark mode on a document checked in light).
 */
async function axeFindings(page: Page, colourOnly = false) {
  const results = await (colourOnly ? axeColourRules(page) : axeEveryRule(page)).analyze();
  return results.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target) }));
}

/**
 * checkEveryLook checks the open screen with axe, light and dark, at 1366 px and 390 px: each
 * width a reload in light mode, then the app's own toggle to dark.
 */
async function checkEveryLook(page: Page, ready: () => Promise<void>) {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
    await page.reload();
    await ready();
    for (const dark of [false, true]) {
      if (dark) await switchMode(page, true);
      // Nothing wider than the window at phone width.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0);
      expect(await axeFindings(page, dark), `${width} px, ${dark ? 'dark' : 'light'}`).toEqual([]);
    }
  }
  await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('a member opens a teammate from On-Call Team: contact, rotations and whom they cover', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E People');
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const rotation = await createRotation(manager, name, [accounts.noah, accounts.sam]);
  const ids = await userIds(manager);
  await manager.dispose();

  // Noah holds the baton and asks Sam to cover tomorrow; Sam accepts.
  const noah = await apiAs(playwright.request, baseURL ?? '', accounts.noah);
  expect((await noah.post(`/api/rotations/${rotation.id}/take-oncall`)).ok()).toBe(true);
  const start = new Date(Date.now() + 24 * 3_600_000);
  const asked = await noah.post(`/api/rotations/${rotation.id}/cover`, {
    data: {
      coveringUserId: ids.get(accounts.sam.email),
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 4 * 3_600_000).toISOString(),
    },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const requestId = ((await asked.json()) as { id: number }).id;
  await noah.dispose();
  const sam = await apiAs(playwright.request, baseURL ?? '', accounts.sam);
  expect((await sam.post(`/api/coverage-requests/${requestId}/accept`)).ok()).toBe(true);
  await sam.dispose();

  // Olivia, an on-call member (no administrator), opens Sam from the team table.
  await actAs(page, playwright.request, baseURL ?? '', accounts.onCall);
  await page.getByRole('link', { name: 'On-Call Team', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search team members' }).fill('Sam Sullivan');
  await page
    .getByRole('row')
    .filter({ hasText: accounts.sam.name })
    .getByRole('link', { name: /^View User/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/people/${ids.get(accounts.sam.email)}$`));
  await expect(page.getByRole('heading', { level: 1, name: accounts.sam.name })).toBeVisible();
  // Times are in Olivia's profile zone, said once under the title.
  await expect(page.getByText(/^Times in /)).toBeVisible();
  await expect(page.getByRole('link', { name: accounts.sam.email })).toHaveAttribute(
    'href',
    `mailto:${accounts.sam.email}`,
  );
  await expect(page.getByText('Time zone', { exact: true })).toBeVisible();
  const rotations = page.getByRole('list', { name: 'Rotations' });
  await expect(rotations.getByRole('link', { name: new RegExp(name) })).toBeVisible();
  const covering = page.getByRole('list', { name: 'Covering' });
  await expect(covering.getByRole('listitem')).toHaveCount(1);
  await expect(covering).toContainText(`Covers ${accounts.noah.name} on ${name}`);
  await expect(covering.getByText('Accepted', { exact: true })).toBeVisible();
  // Read-only: nothing to manage for a member.
  await expect(page.getByRole('link', { name: 'Manage User' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Delete|Edit Roles/ })).toHaveCount(0);

  // Noah, seen the same way, holds the baton there and covers nobody.
  await page.goto(`/people/${ids.get(accounts.noah.email)}`);
  await expect(page.getByRole('heading', { level: 1, name: accounts.noah.name })).toBeVisible();
  await expect(
    page
      .getByRole('list', { name: 'Rotations' })
      .getByRole('listitem')
      .filter({ hasText: name })
      .getByText('On call', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText('Not covering anyone')).toBeVisible();

  await page.getByRole('link', { name: 'Back to On-Call Team' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'On-Call Team' })).toBeVisible();

  await page.goto(`/people/${ids.get(accounts.sam.email)}`);
  await checkEveryLook(page, () =>
    expect(page.getByRole('list', { name: 'Covering' })).toBeVisible(),
  );
});

test('an unknown person reads as not found; an administrator keeps Manage User', async ({
  page,
  playwright,
  baseURL,
}) => {
  await actAs(page, playwright.request, baseURL ?? '', accounts.onCall);
  await page.goto('/people/2147483647');
  await expect(page.getByRole('heading', { level: 1, name: 'Person Not Found' })).toBeVisible();
  await page.goto('/people/not-a-number');
  await expect(page.getByRole('heading', { level: 1, name: 'Person Not Found' })).toBeVisible();

  await actAs(page, playwright.request, baseURL ?? '', accounts.admin);
  await page.goto('/on-call-team');
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: accounts.sam.name })
      .getByRole('link', { name: /^Manage User/ }),
  ).toHaveAttribute('href', '/admin/users');
  const api = await apiAs(playwright.request, baseURL ?? '', accounts.admin);
  const ids = await userIds(api);
  await api.dispose();
  await page.goto(`/people/${ids.get(accounts.sam.email)}`);
  await page.getByRole('link', { name: 'Manage User' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
});

test('the receiver sees the handoff notes quoted; the rotation page keeps its own handoff history', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = uniqueName('E2E Notes');
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const rotation = await createRotation(manager, name, [accounts.noah, accounts.sam]);
  await manager.dispose();

  // Noah takes the baton and passes it to Sam in the dialog, with notes on two lines.
  await actAs(page, playwright.request, baseURL ?? '', accounts.noah);
  await page.goto(`/rotations/${rotation.id}`);
  const history = page.getByRole('list', { name: 'Handoff history' });
  await page.getByRole('button', { name: 'Take On-Call' }).click();
  await expect(toast(page, 'On-call responsibility taken')).toBeVisible();
  // The write refreshed the history: no reload.
  await expect(history.getByRole('listitem')).toHaveCount(1);
  await expect(history).toContainText(
    `Baton passed successfully from no one to ${accounts.noah.name}`,
  );
  await page.getByRole('button', { name: 'Pass Baton' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pass the baton' });
  await dialog.getByLabel('Pass baton to').click();
  await page.getByRole('option', { name: accounts.sam.name, exact: true }).click();
  await dialog
    .getByLabel('Handoff notes (optional)')
    .fill('db-3 disk at 85%\nWatch the nightly backup');
  await dialog.getByRole('button', { name: 'Confirm handoff' }).click();
  await expect(toast(page, 'Baton passed successfully')).toBeVisible();
  await expect(history.getByRole('listitem')).toHaveCount(2);
  const passed = history.getByRole('listitem').first();
  await expect(passed).toContainText(
    `Baton passed successfully from ${accounts.noah.name} to ${accounts.sam.name}`,
  );
  await expect(passed.locator('blockquote')).toHaveText(
    'db-3 disk at 85%\nWatch the nightly backup',
  );
  await expect(passed.getByText(`Handoff notes from ${accounts.noah.name}`)).toBeVisible();

  // Sam, who received it, sees the notes quoted in the banner, with who wrote them.
  await actAs(page, playwright.request, baseURL ?? '', accounts.sam);
  await page.goto(`/rotations/${rotation.id}`);
  const banner = page.getByRole('alert').filter({ hasText: 'You now hold the baton' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('figure')).toContainText(
    `Handoff notes from ${accounts.noah.name}`,
  );
  await expect(banner.locator('blockquote')).toHaveText(
    'db-3 disk at 85%\nWatch the nightly backup',
  );
  await checkEveryLook(page, () => expect(banner.locator('blockquote')).toBeVisible());

  await banner.getByRole('button', { name: 'Accept handoff' }).click();
  await expect(toast(page, 'Handoff acknowledged')).toBeVisible();
  await expect(banner).toBeHidden();
  // The history shows the acknowledgement without a reload.
  await expect(history.getByRole('listitem').first()).toContainText(
    `${accounts.sam.name} acknowledged new on-call duty`,
  );

  // 'View all' leads to the audit log filtered to this rotation.
  await page
    .getByRole('link', { name: 'View all handoffs of this rotation in the audit log' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/audit-log\\?rotationId=${rotation.id}$`));
});

test('an emergency handoff without notes quotes nothing', async ({ page, playwright, baseURL }) => {
  const name = uniqueName('E2E No Notes');
  const manager = await apiAs(playwright.request, baseURL ?? '', accounts.manager);
  const rotation = await createRotation(manager, name, [accounts.noah, accounts.sam]);
  const ids = await userIds(manager);
  await manager.dispose();
  const noah = await apiAs(playwright.request, baseURL ?? '', accounts.noah);
  expect((await noah.post(`/api/rotations/${rotation.id}/take-oncall`)).ok()).toBe(true);
  const passed = await noah.post(`/api/rotations/${rotation.id}/handoff`, {
    data: { toUserId: ids.get(accounts.sam.email), urgent: true },
  });
  expect(passed.ok()).toBe(true);
  await noah.dispose();

  await actAs(page, playwright.request, baseURL ?? '', accounts.sam);
  await page.goto(`/rotations/${rotation.id}`);
  const banner = page
    .getByRole('alert')
    .filter({ hasText: 'Emergency handoff: acknowledge your on-call duty' });
  await expect(banner).toBeVisible();
  await expect(banner.locator('blockquote')).toHaveCount(0);
  await expect(banner.getByText(/Handoff notes/)).toHaveCount(0);
  const history = page.getByRole('list', { name: 'Handoff history' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.locator('blockquote')).toHaveCount(0);
  await expect(history.getByText('Emergency', { exact: true })).toBeVisible();
});
