import { expect, test } from '@playwright/test';
import { audit, auditStates, type Finding, helpStates, sweep } from './accessibility-support';
import { accounts, E2E_PASSWORD, ownOrigin } from './support';

/**
 * The accessibility sweep of the Help Center and its articles (accessibility-support.ts describes
 * it, and how the articles are dealt to the four (mode, width) pairs), and of the signed-out
 * screens: sign-in and invitations. Each help route is opened once and seen at desktop width
 * where axe checks it there, and at phone width always, where it must not scroll sideways (and
 * is kept as a screenshot of each mode with E2E_SCREENSHOTS=1).
 */

for (const help of helpStates()) {
  const checked = help.states
    .filter((s) => s.check)
    .map((s) => `${s.dark ? 'dark' : 'light'} ${s.narrow ? 'phone' : 'desktop'}`)
    .join(', ');
  sweep(
    `${help.route} fits a narrow window and is axe clean (${checked})`,
    async ({ adminPage: page }) => {
      const found = await auditStates(page, help.route, help.states);
      expect.soft(found.desktop, JSON.stringify(found.desktop, null, 2)).toEqual([]);
      expect.soft(found.narrow, JSON.stringify(found.narrow, null, 2)).toEqual([]);
      expect(found.overflowing).toEqual([]);
    },
  );
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
