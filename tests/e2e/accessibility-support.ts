import { expect, type Page, test } from '@playwright/test';
import { animationsDone, axeEveryRule } from './axe';
import { accounts, appOrigin, signIn } from './support';

/**
 * The accessibility sweep: every route of the app, as an administrator (and the sign-in screens
 * signed out), in light and dark mode, at desktop and phone widths, checked with axe-core: every
 * rule axe runs by default, plus label-content-name-mismatch (WCAG 2.5.3, off by default). No
 * violation of any impact may remain. The sweeps are two spec files, accessibility.spec.ts (desktop
 * width and the other screens) and accessibility-narrow.spec.ts (phone width), so the two halves
 * can run at once in `npm run test:e2e`; the routes and the helpers are here.
 *
 * Each route is a test of its own, on one signed-in page per worker (`sweep`): it is opened once
 * and checked in light mode, then switched to dark with the app's own toggle (`switchMode`) and
 * checked again (decision 230).
 *
 * The help articles all share one layout (HelpArticleLayout and the prose components), so each
 * article is checked with axe in one of the four (mode, width) pairs in turn, a quarter of them in
 * each, while the Help Center index and every app route are checked in all four; every article is
 * still opened at phone width for the no-sideways-scrolling check and its screenshots (decision
 * 215).
 */

export const HELP_ARTICLES = [
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
  // issue 19: the Slack app
  '/help/slack-app',
  // issue 20: personal API tokens
  '/help/api-tokens',
];

/** The four (mode, width) pairs, in the order the articles are dealt to them. */
const PAIRS = [
  { dark: false, narrow: false },
  { dark: true, narrow: false },
  { dark: false, narrow: true },
  { dark: true, narrow: true },
] as const;

export type HelpAudit = { route: string; light: boolean; dark: boolean };

/**
 * helpAudits: the help routes a width's sweep opens, and the modes axe checks each in: the Help
 * Center index in both, each article in the one pair it is dealt to. The desktop sweep opens only
 * the articles it checks; the narrow sweep opens them all.
 */
export function helpAudits(narrow: boolean): HelpAudit[] {
  const checkedIn = (i: number, dark: boolean) =>
    i % PAIRS.length === PAIRS.findIndex((p) => p.dark === dark && p.narrow === narrow);
  const articles = HELP_ARTICLES.map((route, i) => ({
    route,
    light: checkedIn(i, false),
    dark: checkedIn(i, true),
  })).filter((a) => narrow || a.light || a.dark);
  return [{ route: '/help', light: true, dark: true }, ...articles];
}

export const APP_ROUTES = [
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

export type Finding = {
  route: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
};

export async function audit(page: Page, route: string): Promise<Finding[]> {
  // No tag filter: every rule axe enables by default, and one it does not.
  const results = await axeEveryRule(page).analyze();
  return results.violations.map((v) => ({
    route,
    id: v.id,
    impact: v.impact ?? '',
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
}

/** visit opens a route and waits until the page has settled: a heading shown, spinners gone. */
export async function visit(page: Page, route: string) {
  await page.goto(route);
  // A page opening with a dialog (/rotations/new) hides the rest of the page from the tree.
  await expect(
    page.getByRole('heading', { level: 1 }).or(page.getByRole('dialog')).first(),
  ).toBeVisible();
  await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
  await animationsDone(page);
}

export async function rotationRoute(page: Page): Promise<string> {
  const res = await page.request.get('/api/rotations');
  const rotations = (await res.json()) as { id: number }[];
  expect(rotations.length).toBeGreaterThan(0);
  return `/rotations/${rotations[0].id}`;
}

/**
 * incidentRoute: an incident's page (issue 16). The demo seeds none, so the first sweep raises
 * one on the first rotation and later sweeps reuse it.
 */
export async function incidentRoute(page: Page): Promise<string> {
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
export async function alertIncidentRoute(page: Page): Promise<string> {
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
export async function policyRoute(page: Page): Promise<string> {
  const res = await page.request.get('/api/escalation-policies');
  const policies = (await res.json()) as { id: number }[];
  expect(policies.length).toBeGreaterThan(0);
  return `/escalation-policies/${policies[0].id}`;
}

/** SWEEP_ROUTES: every app route a sweep opens, with a rotation's, a policy's and two incidents' pages. */
export const SWEEP_ROUTES: { label: string; resolve: (page: Page) => Promise<string> }[] = [
  ...APP_ROUTES.map((route) => ({ label: route, resolve: async () => route })),
  { label: '/rotations/{id}', resolve: rotationRoute },
  { label: '/escalation-policies/{id}', resolve: policyRoute },
  { label: '/incidents/{id}', resolve: incidentRoute },
  { label: '/incidents/{id} (raised by an alert)', resolve: alertIncidentRoute },
];

/**
 * The sweeps' test: `adminPage` is one page per worker, signed in as the administrator once. Each
 * route's test opens its route on it with page.goto, so no test sees another's screen; a failed
 * test ends its worker, and the next signs in again.
 */
export const sweep = test.extend<object, { adminPage: Page }>({
  adminPage: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      const page = await context.newPage();
      await signIn(page, accounts.admin.email);
      await use(page);
      await context.close();
    },
    { scope: 'worker' },
  ],
});

/**
 * switchMode switches the open page to dark or light with the app's own toggle (a script's click,
 * which reaches it behind an open dialog too), and waits for the colours to settle.
 */
export async function switchMode(page: Page, dark: boolean) {
  const found = await page.evaluate((on) => {
    const toggle = document.querySelector<HTMLButtonElement>(
      'button[aria-label="Toggle dark mode"]',
    );
    if (toggle && (toggle.getAttribute('aria-pressed') === 'true') !== on) toggle.click();
    return toggle !== null;
  }, dark);
  expect(found, 'the page has the dark mode toggle').toBe(true);
  await expect(page.locator('html')).toHaveClass(dark ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  await animationsDone(page);
}

/**
 * auditModes opens a route in light mode and checks it with axe in the modes asked, switching to
 * dark for the second; `each` runs in each mode after its check (the narrow sweep's screenshots).
 * The page is left in light mode.
 */
export async function auditModes(
  page: Page,
  route: string,
  modes: { light: boolean; dark: boolean },
  each?: (mode: 'light' | 'dark') => Promise<void>,
): Promise<Finding[]> {
  await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
  await visit(page, route);
  const findings: Finding[] = [];
  if (modes.light) findings.push(...(await audit(page, `${route} (light)`)));
  await each?.('light');
  if (modes.dark || each) {
    await switchMode(page, true);
    if (modes.dark) findings.push(...(await audit(page, `${route} (dark)`)));
    await each?.('dark');
    await switchMode(page, false);
  }
  return findings;
}
