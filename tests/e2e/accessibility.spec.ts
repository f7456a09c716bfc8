import {
  ALL_STATES,
  alertIncidentRoute,
  audit,
  auditModes,
  auditStates,
  type Finding,
  rotationRoute,
  SWEEP_ROUTES,
  sweep,
  switchMode,
  visit,
} from './accessibility-support';
import { animationsDone } from './axe';
import { expect, test } from './fixtures';
import { accounts } from './support';

/**
 * The accessibility sweep of the app's routes (accessibility-support.ts describes it): every app
 * route at desktop and phone width, light and dark, axe clean and not scrolling sideways at phone
 * width; a member's screens, the opened states of some screens and the opened Integrations card.
 * The Help Center, its articles and the signed-out screens are accessibility-help.spec.ts.
 */

/** The sweep can fail: a nameless button and an image without a text alternative are found. */
test('the sweep finds what axe finds', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.evaluate(() => {
    const main = document.querySelector('main') ?? document.body;
    main.insertAdjacentHTML(
      'beforeend',
      '<button id="nameless"></button><img id="no-alt" src="/favicon.ico">',
    );
  });
  const found = (await audit(page, '/login (broken)')).map((f) => `${f.id} ${f.targets.join(' ')}`);
  expect(found).toEqual(expect.arrayContaining(['button-name #nameless', 'image-alt #no-alt']));
});

for (const route of SWEEP_ROUTES) {
  sweep(
    `${route.label} as an administrator is axe clean, light and dark, and fits a narrow window`,
    async ({ adminPage: page }) => {
      const found = await auditStates(page, await route.resolve(page), ALL_STATES);
      expect.soft(found.desktop, JSON.stringify(found.desktop, null, 2)).toEqual([]);
      expect.soft(found.narrow, JSON.stringify(found.narrow, null, 2)).toEqual([]);
      expect(found.overflowing).toEqual([]);
    },
  );
}

/**
 * A member's screens, light and dark. Not only the administrator's: axe reads some visible texts
 * as symbols and skips them (the administrator's initials "AA" are one), so the avatar button's
 * name is checked against a member's initials ("OO").
 */
test('a member’s main screens are axe clean, light and dark', async ({ page, login }) => {
  // 9 screens, each read by axe in both modes.
  test.setTimeout(180_000);
  await login(accounts.onCall);
  // On the app's origin, where auditModes sets the mode each screen opens in.
  await page.goto('/help');
  const findings: Finding[] = [];
  for (const route of [
    '/',
    '/rotations',
    '/on-call-team',
    '/calendar',
    '/pages',
    '/incidents',
    '/inbox',
    '/profile',
    '/escalation-policies',
  ]) {
    await test.step(route, async () => {
      findings.push(...(await auditModes(page, route, { light: true, dark: true })));
    });
  }
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});

test('opened states of the audit log, settings and debug tools are axe clean', async ({
  page,
  login,
}) => {
  test.setTimeout(180_000);
  await login(accounts.admin);
  const findings: Finding[] = [];

  await visit(page, '/audit-log');
  await page.getByRole('tab', { name: 'Administrative Trail' }).click();
  await expect(page.getByRole('heading', { name: 'Administrative Audit Trail' })).toBeVisible();
  findings.push(...(await audit(page, '/audit-log (trail)')));

  await visit(page, '/settings');
  for (const tab of ['Notifications', 'Integrations']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('heading', { name: tab, level: 2 })).toBeVisible();
    findings.push(...(await audit(page, `/settings (${tab})`)));
  }

  await visit(page, '/admin/debug');
  await page.getByRole('button', { name: 'Run Diagnostics' }).click();
  await expect(page.getByRole('tab', { name: 'Samples' })).toBeVisible();
  findings.push(...(await audit(page, '/admin/debug (diagnostics)')));
  await page.getByRole('tab', { name: 'Environment Check' }).click();
  await page.getByRole('button', { name: 'Run Environment Check' }).click();
  await expect(page.getByRole('tab', { name: 'Filtering Issues' })).toBeVisible();
  findings.push(...(await audit(page, '/admin/debug (environment)')));
  await page.getByRole('tab', { name: 'Client Check' }).click();
  await page.getByRole('button', { name: 'Run Client Check' }).click();
  await expect(page.getByRole('tab', { name: 'Type Handling' })).toBeVisible();
  for (const tab of ['Summary', 'Rotations Data', 'Type Handling']) {
    await page.getByRole('tab', { name: tab }).click();
    findings.push(...(await audit(page, `/admin/debug (client check: ${tab})`)));
  }
  await page.getByRole('tab', { name: 'Audit Integrity' }).click();
  await page.getByRole('button', { name: 'Verify Audit Trail' }).click();
  await expect(page.getByText('Events verified')).toBeVisible();
  findings.push(...(await audit(page, '/admin/debug (audit integrity)')));
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});

/**
 * The Integrations card opened (issue 17): the add dialog, the one-time key panel with the
 * configurations, the recent alerts with one alert opened to its details and raw payload; light
 * and dark, desktop and phone, where the page must not scroll sideways (the snippets scroll
 * inside their boxes). One integration is added at each width.
 */
test('the opened Integrations card is axe clean and fits a phone', async ({ page, login }) => {
  test.setTimeout(300_000);
  await login(accounts.admin);
  // On the app's origin, where each state sets the mode its page opens in.
  await page.goto('/help');
  const route = await rotationRoute(page);
  await alertIncidentRoute(page); // an integration with an alert on this rotation
  const findings: Finding[] = [];
  const overflowing: { state: string; width: number }[] = [];
  const stateOf = (dark: boolean, width: number) =>
    `${route} integrations (${dark ? 'dark' : 'light'}, ${width} px)`;
  // Each width once, opened in light mode; each view seen again in dark with the app's toggle,
  // where the rules that read colours check the same document.
  const inBothModes = async (width: number, view: string) => {
    for (const dark of [false, true]) {
      if (dark) await switchMode(page, true);
      const state = stateOf(dark, width);
      findings.push(...(await audit(page, view ? `${state}: ${view}` : state, dark)));
      if (!view) {
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) overflowing.push({ state, width: scrollWidth });
      }
    }
    await switchMode(page, false);
  };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
    await visit(page, route);
    await page.getByRole('button', { name: 'Add integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add integration' });
    await dialog.getByLabel('Name').fill(`Sweep ${width}`);
    await inBothModes(width, 'add dialog');
    await dialog.getByRole('button', { name: 'Add integration' }).click();
    const panel = page.getByRole('region', { name: /^Key of / });
    await expect(panel).toBeVisible();
    const item = page.getByRole('list', { name: 'Integrations' }).getByRole('listitem').first();
    await item.getByRole('button', { name: 'Send test alert' }).click();
    const confirm = page.getByRole('alertdialog', { name: /^Send a test alert through / });
    await expect(confirm.getByText(/^This pages /)).toBeVisible();
    await inBothModes(width, 'test alert warning');
    await confirm.getByRole('button', { name: 'Send test alert' }).click();
    await expect(confirm).toHaveCount(0);
    await item.getByRole('button', { name: 'Recent alerts' }).click();
    const alerts = item.getByRole('list', { name: /^Recent alerts of / });
    await alerts.getByRole('listitem').first().getByRole('button').first().click();
    await alerts.getByText('Raw payload').first().click();
    await expect(alerts.getByRole('table').first()).toBeVisible();
    await animationsDone(page);
    await inBothModes(width, '');
  }
  expect(overflowing).toEqual([]);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});
