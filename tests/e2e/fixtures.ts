import { test as base, expect, type Page } from '@playwright/test';
import { type Account, sessionOf } from './rotation-support';

/*
 * The browser specs' `test`, with a `login` fixture (as epic-stack's): `login(account)` gives the
 * test's page (or another page, or another server's origin) a session of the account that was
 * signed in once per worker through the API and cached as its storage state (`sessionOf`), and
 * opens nothing. A form sign-in costs the sign-in screen's load, the form, a new session on the
 * server and the dashboard's first load; some forty tests paid it only to start signed in
 * (decision 240).
 *
 * The tests about signing in or out (the form, its toasts, OpenID, sign-out) keep `signIn` from
 * support.ts, or their own: a test that signs out ends its session on the server, so it must not
 * use a cached one.
 */

/** Login: the `login` fixture's function, for helpers that sign a page in. */
export type Login = (who: Account, options?: { page?: Page; origin?: string }) => Promise<void>;

export const test = base.extend<{ login: Login }>({
  login: async ({ page, playwright, baseURL }, use) => {
    await use(async (who, options = {}) => {
      const target = options.page ?? page;
      const origin = options.origin ?? baseURL ?? '';
      const state = await sessionOf(playwright.request, origin, who);
      await target.context().addCookies(state.cookies);
    });
  },
});

export { expect };

/** openDashboard opens / on a signed-in page and waits until the dashboard is shown. */
export async function openDashboard(page: Page, origin = '') {
  await page.goto(`${origin}/`);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}
