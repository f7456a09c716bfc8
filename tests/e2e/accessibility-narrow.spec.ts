import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import {
  alertIncidentRoute,
  audit,
  auditModes,
  type Finding,
  helpAudits,
  rotationRoute,
  SWEEP_ROUTES,
  sweep,
  visit,
} from './accessibility-support';
import { animationsDone } from './axe';
import { accounts, signIn } from './support';

/**
 * The accessibility sweep at phone width (accessibility-support.ts describes the sweep; the
 * desktop width is accessibility.spec.ts): nothing scrolls sideways, and axe finds nothing.
 */

/**
 * The Integrations card opened (issue 17): the add dialog, the one-time key panel with the
 * configurations, the recent alerts with one alert opened to its details and raw payload; light
 * and dark, desktop and phone, where the page must not scroll sideways (the snippets scroll
 * inside their boxes).
 */
test('the opened Integrations card is axe clean and fits a phone', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, accounts.admin.email);
  const route = await rotationRoute(page);
  await alertIncidentRoute(page); // an integration with an alert on this rotation
  const findings: Finding[] = [];
  const overflowing: { state: string; width: number }[] = [];
  for (const [dark, width] of [
    [false, 1280],
    [true, 1280],
    [false, 375],
    [true, 375],
  ] as const) {
    const state = `${route} integrations (${dark ? 'dark' : 'light'}, ${width} px)`;
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate((value) => localStorage.setItem('darkMode', value), String(dark));
    await visit(page, route);
    await page.getByRole('button', { name: 'Add integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add integration' });
    await dialog.getByLabel('Name').fill(`Sweep ${dark ? 'dark' : 'light'} ${width}`);
    findings.push(...(await audit(page, `${state}: add dialog`)));
    await dialog.getByRole('button', { name: 'Add integration' }).click();
    const panel = page.getByRole('region', { name: /^Key of / });
    await expect(panel).toBeVisible();
    const item = page.getByRole('list', { name: 'Integrations' }).getByRole('listitem').first();
    await item.getByRole('button', { name: 'Send test alert' }).click();
    await item.getByRole('button', { name: 'Recent alerts' }).click();
    const alerts = item.getByRole('list', { name: /^Recent alerts of / });
    await alerts.getByRole('listitem').first().getByRole('button').first().click();
    await alerts.getByText('Raw payload').first().click();
    await expect(alerts.getByRole('table').first()).toBeVisible();
    await animationsDone(page);
    findings.push(...(await audit(page, state)));
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > width) overflowing.push({ state, width: scrollWidth });
  }
  expect(overflowing).toEqual([]);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});

/**
 * A phone-sized window: every app screen and help page, light and dark, fits its width (no
 * sideways scrolling of the page) and is kept as a full-page screenshot in narrow/ of the run's
 * output folder (test-results/, or its shard's folder in `npm run test:e2e`) to look at; every
 * app screen, the Help Center and this sweep's share of the articles are axe clean as on the
 * desktop.
 */
const NARROW = { width: 375, height: 800 };

async function narrowSweep(page: Page, route: string, modes: { light: boolean; dark: boolean }) {
  await page.setViewportSize(NARROW);
  const overflowing: { route: string; mode: string; width: number }[] = [];
  const findings = await auditModes(page, route, modes, async (mode) => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > NARROW.width) overflowing.push({ route, mode, width });
    const name = route === '/' ? 'dashboard' : route.slice(1).replaceAll('/', '-');
    await page.screenshot({
      path: path.join(test.info().project.outputDir, 'narrow', `${name}-${mode}.png`),
      fullPage: true,
    });
  });
  expect(overflowing).toEqual([]);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
}

for (const route of SWEEP_ROUTES) {
  sweep(
    `${route.label} fits a narrow window and is axe clean, light and dark`,
    async ({ adminPage: page }) => {
      await narrowSweep(page, await route.resolve(page), { light: true, dark: true });
    },
  );
}

for (const help of helpAudits(true)) {
  const checked = [help.light && 'light', help.dark && 'dark'].filter(Boolean).join(' and ');
  sweep(
    `${help.route} fits a narrow window${checked ? ` and is axe clean (${checked})` : ''}`,
    async ({ adminPage: page }) => {
      await narrowSweep(page, help.route, help);
    },
  );
}
