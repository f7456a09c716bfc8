import { expect, type Page, type PageScreenshotOptions } from '@playwright/test';

/** Where the e2e server's forum and bug-report links point (USERS_FORUM_URL, BUG_REPORT_URL). */
export const E2E_HELP_LINKS = {
  usersForumUrl: 'https://forum.baton-e2e.example/c/baton',
  bugReportUrl: 'https://bugs.baton-e2e.example/projects/ONCALL',
} as const;

export const E2E_PASSWORD = 'e2e-local-password';
/**
 * Debian's full Chromium (the chromium package), for the one spec that needs a notification tray
 * (push.spec.ts, decision 266): the headless shell refuses showNotification. CHROMIUM_FULL_PATH
 * picks another; scripts/ensure-chromium.mjs and .ci/run install the package.
 */
export const FULL_CHROMIUM = process.env.CHROMIUM_FULL_PATH ?? '/usr/bin/chromium';
/** The demo team the e2e server seeds (DEMO=1, COMPANY_DOMAIN default example.com). */
export const accounts = {
  admin: { email: 'avery.admin@example.com', name: 'Avery Admin' },
  manager: { email: 'morgan.manager@example.com', name: 'Morgan Manager' },
  incidentManager: { email: 'iris.incident@example.com', name: 'Iris Incident' },
  onCall: { email: 'olivia.ortiz@example.com', name: 'Olivia Ortiz' },
  /** on-call and manager */
  priya: { email: 'priya.patel@example.com', name: 'Priya Patel' },
  noah: { email: 'noah.nakamura@example.com', name: 'Noah Nakamura' },
  sam: { email: 'sam.sullivan@example.com', name: 'Sam Sullivan' },
};

/**
 * ownOrigin: the Origin header Baton needs on a state change sent through Playwright's API
 * client, which (unlike the browser) sends none (decision 160).
 */
export const ownOrigin = (baseURL: string) => ({ origin: new URL(baseURL).origin });

/** appOrigin: ownOrigin of the server playwright.config.ts starts (the `baseURL` of page.request). */
export const appOrigin = () => ownOrigin(`http://127.0.0.1:${process.env.E2E_PORT}`);

/**
 * signIn signs in through the login form with the local password and waits for the dashboard;
 * `origin` names another server than the one playwright.config.ts starts.
 */
export async function signIn(page: Page, email: string, origin = '') {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * keepScreenshot saves a screenshot of the page at `path` when E2E_SCREENSHOTS is set
 * (`E2E_SCREENSHOTS=1 npm run test:e2e`), and does nothing otherwise: the pictures are for a
 * person to look at, and nobody looks at them during `npm test` (decision 240). What a test
 * asserts does not depend on them.
 */
export async function keepScreenshot(
  page: Page,
  path: string,
  options: Omit<PageScreenshotOptions, 'path'> = {},
) {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ ...options, path });
}
