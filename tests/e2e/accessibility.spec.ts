import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { accounts, appOrigin, E2E_PASSWORD, ownOrigin, signIn } from './support';

/**
 * The accessibility sweep: every route of the app, as an administrator (and the sign-in screens
 * signed out), in light and dark mode, at desktop and phone widths, checked with axe-core: every
 * rule axe runs by default, plus label-content-name-mismatch (WCAG 2.5.3, off by default). No
 * violation of any impact may remain.
 */

const HELP_ROUTES = [
  '/help',
  '/help/user-roles',
  '/help/handoff-process',
  '/help/paging-oncall',
  '/help/security-disclosures',
  '/help/encryption',
  '/help/welcome',
  '/help/profile-setup',
  '/help/rotations-intro',
  '/help/create-rotation',
  '/help/manage-oncall',
  '/help/coverage-requests',
  '/help/notification-methods',
  '/help/sms-setup',
  '/help/email-notifications',
  '/help/inviting-users',
  '/help/user-access',
  '/help/audit-logs',
  '/support',
  '/notification-help',
  // issue 17: each alert source, and the moving guides
  '/help/integrations',
  '/help/alerts-alertmanager',
  '/help/alerts-grafana',
  '/help/alerts-pagerduty-format',
  '/help/alerts-opsgenie-format',
  '/help/alerts-generic',
  '/help/alerts-email',
  '/help/moving-from-opsgenie',
  '/help/moving-from-pagerduty',
];

const APP_ROUTES = [
  '/',
  '/profile',
  '/rotations',
  '/rotations/new',
  '/on-call-team',
  '/audit-log',
  '/calendar',
  '/settings',
  '/pages',
  '/incidents',
  '/inbox',
  '/admin/users',
  '/admin/debug',
  '/admin/notifications',
  '/escalation-policies',
  '/escalation-policies/new',
  '/no/such/page',
];

type Finding = { route: string; id: string; impact: string; help: string; targets: string[] };

async function audit(page: Page, route: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page })
    // No tag filter: every rule axe enables by default, and this one, which it does not.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations.map((v) => ({
    route,
    id: v.id,
    impact: v.impact ?? '',
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
}

/** visit opens a route and waits until the page has settled: a heading shown, spinners gone. */
async function visit(page: Page, route: string) {
  await page.goto(route);
  // A page opening with a dialog (/rotations/new) hides the rest of the page from the tree.
  await expect(
    page.getByRole('heading', { level: 1 }).or(page.getByRole('dialog')).first(),
  ).toBeVisible();
  await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
  // axe measures colour contrast as painted: a dialog still fading in reads as low contrast.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

async function rotationRoute(page: Page): Promise<string> {
  const res = await page.request.get('/api/rotations');
  const rotations = (await res.json()) as { id: number }[];
  expect(rotations.length).toBeGreaterThan(0);
  return `/rotations/${rotations[0].id}`;
}

/**
 * incidentRoute: an incident's page (issue 16). The demo seeds none, so the first sweep raises
 * one on the first rotation and later sweeps reuse it.
 */
async function incidentRoute(page: Page): Promise<string> {
  const res = await page.request.get('/api/incidents?limit=1');
  expect(res.status(), await res.text()).toBe(200);
  const list = (await res.json()) as { incidents: { id: number }[] };
  if (list.incidents.length > 0) return `/incidents/${list.incidents[0].id}`;
  const rotations = (await (await page.request.get('/api/rotations')).json()) as { id: number }[];
  const raised = await page.request.post('/api/incidents', {
    headers: appOrigin(),
    data: {
      title: 'Accessibility sweep: checkout errors',
      severity: 'P2',
      description: 'Raised by the accessibility sweep.',
      rotationId: rotations[0].id,
    },
  });
  expect(raised.status(), await raised.text()).toBe(201);
  return `/incidents/${((await raised.json()) as { id: number }).id}`;
}

/**
 * alertIncidentRoute: an incident an integration raised (issue 17), with its Alerts section. The
 * first sweep adds an integration to the first rotation and sends its test alert; later sweeps
 * reuse it.
 */
async function alertIncidentRoute(page: Page): Promise<string> {
  const rotations = (await (await page.request.get('/api/rotations')).json()) as { id: number }[];
  const listed = await page.request.get(`/api/integrations?rotationId=${rotations[0].id}`);
  expect(listed.status(), await listed.text()).toBe(200);
  const { integrations } = (await listed.json()) as { integrations: { id: number }[] };
  let integrationId = integrations[0]?.id;
  if (integrationId === undefined) {
    const made = await page.request.post('/api/integrations', {
      headers: appOrigin(),
      data: { name: 'Accessibility sweep monitor', rotationId: rotations[0].id },
    });
    expect(made.status(), await made.text()).toBe(201);
    integrationId = ((await made.json()) as { id: number }).id;
  }
  const sent = await page.request.post(`/api/integrations/${integrationId}/test`, {
    headers: appOrigin(),
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const { incidentId } = (await sent.json()) as { incidentId: number };
  return `/incidents/${incidentId}`;
}

/** policyRoute: the editor of the first policy, with its live preview (decision 203). */
async function policyRoute(page: Page): Promise<string> {
  const res = await page.request.get('/api/escalation-policies');
  const policies = (await res.json()) as { id: number }[];
  expect(policies.length).toBeGreaterThan(0);
  return `/escalation-policies/${policies[0].id}`;
}

for (const dark of [false, true]) {
  const mode = dark ? 'dark' : 'light';

  test(`every route as an administrator is axe clean (${mode})`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.addInitScript((value) => localStorage.setItem('darkMode', value), String(dark));
    await signIn(page, accounts.admin.email);
    const routes = [
      ...APP_ROUTES,
      await rotationRoute(page),
      await policyRoute(page),
      await incidentRoute(page),
      await alertIncidentRoute(page),
      ...HELP_ROUTES,
    ];
    const findings: Finding[] = [];
    for (const route of routes) {
      await test.step(route, async () => {
        await visit(page, route);
        findings.push(...(await audit(page, route)));
      });
    }
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });

  test(`the sign-in and invitation screens are axe clean (${mode})`, async ({
    page,
    playwright,
    baseURL,
  }) => {
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
  test.setTimeout(120_000);
  await signIn(page, accounts.onCall.email);
  const findings: Finding[] = [];
  for (const dark of [false, true]) {
    await page.evaluate((value) => localStorage.setItem('darkMode', value), String(dark));
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
      await test.step(`${route} (${dark ? 'dark' : 'light'})`, async () => {
        await visit(page, route);
        findings.push(...(await audit(page, `${route} (${dark ? 'dark' : 'light'})`)));
      });
    }
  }
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});

test('opened states of the audit log, settings and debug tools are axe clean', async ({ page }) => {
  test.setTimeout(90_000);
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

/**
 * The Integrations card opened (issue 17): the add dialog, the one-time key panel with the
 * configurations, the recent alerts with one alert opened to its details and raw payload; light
 * and dark, desktop and phone, where the page must not scroll sideways (the snippets scroll
 * inside their boxes).
 */
test('the opened Integrations card is axe clean and fits a phone', async ({ page }) => {
  test.setTimeout(150_000);
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
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    );
    findings.push(...(await audit(page, state)));
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > width) overflowing.push({ state, width: scrollWidth });
  }
  expect(overflowing).toEqual([]);
  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
});

/**
 * A phone-sized window: every app screen and help page, light and dark, fits its width (no
 * sideways scrolling of the page), is axe clean as on the desktop, and is kept as a full-page
 * screenshot in test-results/narrow/ to look at.
 */
for (const dark of [false, true]) {
  const mode = dark ? 'dark' : 'light';
  test(`every screen fits a narrow window without sideways scrolling and is axe clean (${mode})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.addInitScript((value) => localStorage.setItem('darkMode', value), String(dark));
    await signIn(page, accounts.admin.email);
    const routes = [
      ...APP_ROUTES,
      await rotationRoute(page),
      await policyRoute(page),
      await incidentRoute(page),
      await alertIncidentRoute(page),
      ...HELP_ROUTES,
    ];
    const overflowing: { route: string; width: number }[] = [];
    const findings: Finding[] = [];
    for (const route of routes) {
      await test.step(route, async () => {
        await visit(page, route);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > 375) overflowing.push({ route, width });
        findings.push(...(await audit(page, route)));
        const name = route === '/' ? 'dashboard' : route.slice(1).replaceAll('/', '-');
        await page.screenshot({ path: `test-results/narrow/${name}-${mode}.png`, fullPage: true });
      });
    }
    expect(overflowing).toEqual([]);
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  });
}
