import path from 'node:path';
import { expect, type Page, type Request, test } from '@playwright/test';
import { animationsDone, axeColourRules, axeEveryRule } from './axe';
import { openDashboard } from './fixtures';
import { sessionOf } from './rotation-support';
import { accounts, appOrigin, keepScreenshot } from './support';

/**
 * The accessibility sweep: every route of the app, as an administrator (and the sign-in screens
 * signed out), in light and dark mode, at desktop and phone widths, checked with axe-core: every
 * rule axe runs by default, plus label-content-name-mismatch (WCAG 2.5.3, off by default). No
 * violation of any impact may remain. The sweeps are two spec files, accessibility.spec.ts (the
 * app's routes and opened states) and accessibility-help.spec.ts (the Help Center, its articles
 * and the signed-out screens), so the two halves can run at once in `npm run test:e2e`; the
 * routes and the helpers are here.
 *
 * Each route is a test of its own, on one signed-in page per worker (`sweep`), and is opened
 * once (`auditStates`): at desktop width in light mode, then dark with the app's own toggle,
 * then at phone width by resizing the window (the layout is CSS and its one listener of the
 * width; tables measure themselves with a ResizeObserver: both follow a resize, and the waits
 * below wait for them), in dark and then light. At phone width each mode is measured for
 * sideways scrolling, and kept as a screenshot with E2E_SCREENSHOTS=1 (decisions 230 and 240).
 * Each width's first check runs every rule; the other mode's, on the same document, runs the
 * rules that read colours, the only ones whose result a mode can change (COLOUR_RULES in axe.ts).
 *
 * The help articles all share one layout (HelpArticleLayout and the prose components), so each
 * article is checked with axe in one of the four (mode, width) pairs in turn, a quarter of them in
 * each, while the Help Center index and every app route are checked in all four; every article is
 * still opened at phone width for the no-sideways-scrolling check (decision 215).
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
  // issue 32: layers and shift patterns
  '/help/rotation-layers',
  // issue 34: importing from another tool
  '/help/importing',
];

/** The four (mode, width) pairs, in the order the articles are dealt to them. */
const PAIRS = [
  { dark: false, narrow: false },
  { dark: true, narrow: false },
  { dark: false, narrow: true },
  { dark: true, narrow: true },
] as const;

/** The widths of the sweeps: Playwright's default desktop, and a phone. */
export const DESKTOP = { width: 1280, height: 720 };
export const NARROW = { width: 375, height: 800 };

/** A state a route is seen in: width, mode, and whether axe checks it there. */
export type SweepState = { narrow: boolean; dark: boolean; check: boolean };

/** ALL_STATES: the order a route is seen in, every state checked (the app's routes). */
export const ALL_STATES: SweepState[] = [
  { narrow: false, dark: false, check: true },
  { narrow: false, dark: true, check: true },
  { narrow: true, dark: true, check: true },
  { narrow: true, dark: false, check: true },
];

/**
 * helpStates: the states each help route is seen in, in ALL_STATES's order: the Help Center
 * index checked in all four; an article checked in the one (mode, width) pair it is dealt to,
 * seen at desktop width only when checked there, and at phone width always.
 */
export function helpStates(): { route: string; states: SweepState[] }[] {
  const dealt = (i: number, s: { narrow: boolean; dark: boolean }) =>
    i % PAIRS.length === PAIRS.findIndex((p) => p.dark === s.dark && p.narrow === s.narrow);
  const articles = HELP_ARTICLES.map((route, i) => ({
    route,
    states: ALL_STATES.map((s) => ({ ...s, check: dealt(i, s) })).filter(
      (s) => s.narrow || s.check,
    ),
  }));
  return [{ route: '/help', states: ALL_STATES }, ...articles];
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
  '/integrations',
  '/time-off',
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

/**
 * audit checks the page with axe: every rule axe enables by default and one it does not, or with
 * `colourOnly` only those of them that read colours (COLOUR_RULES in axe.ts), for a document
 * already checked with every rule in the other mode.
 */
export async function audit(page: Page, route: string, colourOnly = false): Promise<Finding[]> {
  const results = await (colourOnly ? axeColourRules(page) : axeEveryRule(page)).analyze();
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
  const api = watchApi(page);
  try {
    await page.goto(route);
    // A page opening with a dialog (/rotations/new) hides the rest of the page from the tree.
    await expect(
      page.getByRole('heading', { level: 1 }).or(page.getByRole('dialog')).first(),
    ).toBeVisible();
    await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
    // Every read the screen made has answered and been drawn: a card whose read answers later
    // changes its colours after axe began (a button leaving its disabled state fades to full
    // colour, read mid-fade as low contrast).
    await api.settled();
    await animationsDone(page);
  } finally {
    api.stop();
  }
}

/**
 * watchApi counts the page's requests to the API under way (the event stream aside, which stays
 * open); `settled` waits until there are none and none began in the two frames after.
 */
function watchApi(page: Page) {
  const pending = new Set<Request>();
  const begin = (req: Request) => {
    const { pathname } = new URL(req.url());
    if (pathname.startsWith('/api/') && pathname !== '/api/events') pending.add(req);
  };
  const end = (req: Request) => pending.delete(req);
  page.on('request', begin);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return {
    settled: async () => {
      for (;;) {
        await expect.poll(() => pending.size, { intervals: [20] }).toBe(0);
        // an answer's render may start another read
        await page.evaluate(
          () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
        );
        if (pending.size === 0) return;
      }
    },
    stop: () => {
      page.off('request', begin);
      page.off('requestfinished', end);
      page.off('requestfailed', end);
    },
  };
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
 * The sweeps' test: `adminPage` is one page per worker, signed in as the administrator once
 * (the worker's cached session). Each route's test opens its route on it with page.goto, so no
 * test sees another's screen; a failed test ends its worker, and the next signs in again.
 */
export const sweep = test.extend<object, { adminPage: Page }>({
  adminPage: [
    async ({ browser, playwright }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL ?? '';
      const context = await browser.newContext({ baseURL });
      await context.addCookies(
        (await sessionOf(playwright.request, baseURL, accounts.admin)).cookies,
      );
      const page = await context.newPage();
      // On the app's origin, where each test sets the mode its route opens in.
      await openDashboard(page);
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
 * resize sets the window to desktop or phone width and waits until the page has followed: the
 * sidebar's toggle shown (phone) or hidden (desktop), each table's container a tab stop exactly
 * when it scrolls (its ResizeObserver has run), and no animation running.
 */
export async function resize(page: Page, narrow: boolean) {
  await page.setViewportSize(narrow ? NARROW : DESKTOP);
  const toggle = page.getByRole('button', { name: 'Toggle sidebar', includeHidden: true });
  if (narrow) await expect(toggle).toBeVisible();
  else await expect(toggle).toBeHidden();
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>('[data-slot=table-container]')].every(
      (el) => el.scrollWidth > el.clientWidth === (el.tabIndex === 0),
    ),
  );
  await animationsDone(page);
}

export type Overflow = { route: string; mode: string; width: number };

/**
 * auditStates opens a route once, in the first state's width and mode, and goes through the
 * states in order, resizing and switching modes in place: axe checks each state marked `check`
 * (`desktop` and `narrow` findings apart), with every rule at a width's first check and with
 * the rules that read colours at its second (the other mode); at phone width each mode is
 * measured for sideways scrolling and, with E2E_SCREENSHOTS=1, kept as a full-page screenshot in
 * narrow/ of the run's output folder.
 */
export async function auditStates(
  page: Page,
  route: string,
  states: SweepState[],
): Promise<{ desktop: Finding[]; narrow: Finding[]; overflowing: Overflow[] }> {
  const found = {
    desktop: [] as Finding[],
    narrow: [] as Finding[],
    overflowing: [] as Overflow[],
  };
  const [first] = states;
  await page.setViewportSize(first.narrow ? NARROW : DESKTOP);
  await page.evaluate((value) => localStorage.setItem('darkMode', value), String(first.dark));
  await visit(page, route);
  await expect(page.locator('html')).toHaveClass(first.dark ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  let now = first;
  // The widths at which this document has had every rule: the other mode there differs only in
  // colours, so its check runs the rules that read colours.
  const everyRuleAt = new Set<boolean>();
  for (const state of states) {
    if (state.narrow !== now.narrow) await resize(page, state.narrow);
    if (state.dark !== now.dark) await switchMode(page, state.dark);
    now = state;
    const mode = state.dark ? 'dark' : 'light';
    if (state.check) {
      const label = `${route} (${mode}, ${state.narrow ? 'phone' : 'desktop'})`;
      const colourOnly = everyRuleAt.has(state.narrow);
      found[state.narrow ? 'narrow' : 'desktop'].push(...(await audit(page, label, colourOnly)));
      everyRuleAt.add(state.narrow);
    }
    if (state.narrow) {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > NARROW.width) found.overflowing.push({ route, mode, width });
      const name = route === '/' ? 'dashboard' : route.slice(1).replaceAll('/', '-');
      await keepScreenshot(
        page,
        path.join(test.info().project.outputDir, 'narrow', `${name}-${mode}.png`),
        { fullPage: true },
      );
    }
  }
  return found;
}

/**
 * auditModes opens a route at the page's width in light mode and checks it with axe in the modes
 * asked, switching to dark for the second (the member's screens): with every rule in the first
 * mode checked, and in dark after light with the rules that read colours. The page is left in
 * light mode.
 */
export async function auditModes(
  page: Page,
  route: string,
  modes: { light: boolean; dark: boolean },
): Promise<Finding[]> {
  await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
  await visit(page, route);
  const findings: Finding[] = [];
  if (modes.light) findings.push(...(await audit(page, `${route} (light)`)));
  if (modes.dark) {
    await switchMode(page, true);
    findings.push(...(await audit(page, `${route} (dark)`, modes.light)));
    await switchMode(page, false);
  }
  return findings;
}
