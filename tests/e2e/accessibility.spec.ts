import { expect, test } from '@playwright/test';
import {
  audit,
  auditModes,
  type Finding,
  helpAudits,
  SWEEP_ROUTES,
  sweep,
  visit,
} from './accessibility-support';
import { accounts, E2E_PASSWORD, ownOrigin, signIn } from './support';

/**
 * The accessibility sweep at desktop width, light and dark: every app route and a quarter of the
 * help articles each (accessibility-support.ts says why), the sign-in screens, a member's screens
 * and the opened states of some screens. The phone width is accessibility-narrow.spec.ts.
 */

/** The width of these sweeps (Playwright's default); the page is shared with the narrow sweep. */
const DESKTOP = { width: 1280, height: 720 };

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
    `${route.label} as an administrator is axe clean, light and dark`,
    async ({ adminPage: page }) => {
      await page.setViewportSize(DESKTOP);
      const path = await route.resolve(page);
      const findings = await auditModes(page, path, { light: true, dark: true });
      expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
    },
  );
}

for (const help of helpAudits(false)) {
  const modes = [help.light && 'light', help.dark && 'dark'].filter(Boolean).join(' and ');
  sweep(`${help.route} is axe clean (${modes})`, async ({ adminPage: page }) => {
    await page.setViewportSize(DESKTOP);
    const findings = await auditModes(page, help.route, help);
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}

for (const dark of [false, true]) {
  const mode = dark ? 'dark' : 'light';

  test(`the sign-in and invitation screens are axe clean (${mode})`, async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    // A valid invitation of this test's own, made through the API by an administrator on a
    // separate connection: the page itself stays signed out.
    const admin = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: baseURL ? ownOrigin(baseURL) : {},
    });
    const login = await admin.post('/api/auth/login', {
      data: { email: accounts.admin.email, password: E2E_PASSWORD },
    });
    expect(login.status(), await login.text()).toBe(200);
    const invited = await admin.post('/api/invitations', {
      data: {
        email: `a11y.${mode}.${Date.now()}@example.com`,
        name: 'Alex Access',
        role: 'member',
      },
    });
    expect(invited.status(), await invited.text()).toBe(201);
    const validInvite = new URL((await invited.json()).inviteUrl).pathname;
    await admin.dispose();

    await page.addInitScript((value) => localStorage.setItem('darkMode', value), String(dark));
    const findings: Finding[] = [];
    for (const route of ['/login', '/invite/not-a-real-token', validInvite, '/help']) {
      await page.goto(route);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.getByText(/Validating/)).toHaveCount(0);
      if (route === validInvite) {
        await expect(page.getByText('Valid Invitation', { exact: true })).toBeVisible();
        await expect(
          page.getByRole('heading', { name: 'Complete Your Registration', level: 1 }),
        ).toBeVisible();
      }
      findings.push(...(await audit(page, route === validInvite ? '/invite/{valid}' : route)));
    }
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}

/**
 * A member's screens, light and dark. Not only the administrator's: axe reads some visible texts
 * as symbols and skips them (the administrator's initials "AA" are one), so the avatar button's
 * name is checked against a member's initials ("OO").
 */
test('a member’s main screens are axe clean, light and dark', async ({ page }) => {
  // 9 screens, each read by axe in both modes.
  test.setTimeout(180_000);
  await signIn(page, accounts.onCall.email);
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

test('opened states of the audit log, settings and debug tools are axe clean', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, accounts.admin.email);
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
