import { type APIRequestContext, type APIResponse, request } from '@playwright/test';
import { switchMode } from './accessibility-support';
import { axeColourRules, axeEveryRule } from './axe';
import { expect, openDashboard, test } from './fixtures';
import { accounts, E2E_PASSWORD, keepScreenshot, ownOrigin } from './support';

/**
 * The demo inbox (decision 186), on the server playwright.config.ts starts, which is in demo
 * mode (no identity provider, not production) with no email or SMS channel: what Baton would have
 * sent is kept, and each person reads their own in the Inbox, administrators everyone's.
 */

async function ok(res: APIResponse, status = 200) {
  expect(res.status(), await res.text()).toBe(status);
  return res.json();
}

/** apiAs signs in through the API (local password) on a connection of its own. */
async function apiAs(baseURL: string, email: string) {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: ownOrigin(baseURL) });
  const { user } = await ok(
    await api.post('/api/auth/login', { data: { email, password: E2E_PASSWORD } }),
  );
  return { api, user: user as { id: number; name: string } };
}

/** invite has an administrator invite a new person; their first sign-in creates the account. */
async function invite(admin: APIRequestContext, who: string, name: string) {
  const email = `${who}.${Date.now()}@example.com`;
  await ok(await admin.post('/api/invitations', { data: { email, name, role: 'member' } }), 201);
  return email;
}

test('after a pass of the baton, the new holder reads the handoff email in the demo inbox', async ({
  page,
  baseURL,
  login,
}, testInfo) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  // Its own data: two new members of a new rotation; Pat holds the baton and passes it to Ivy.
  const admin = await apiAs(baseURL, accounts.admin.email);
  const patEmail = await invite(admin.api, 'pat.passer', 'Pat Passer');
  const ivyEmail = await invite(admin.api, 'ivy.inbox', 'Ivy Inbox');
  const pat = await apiAs(baseURL, patEmail);
  const ivy = await apiAs(baseURL, ivyEmail);
  const rotation = await ok(
    await admin.api.post('/api/rotations', {
      data: { name: `Inbox Desk ${Date.now()}`, description: '', type: 'fixed' },
    }),
    201,
  );
  for (const [order, who] of [pat, ivy].entries()) {
    await ok(
      await admin.api.post(`/api/rotations/${rotation.id}/on-call`, {
        data: { userId: who.user.id, order },
      }),
    );
  }
  await ok(await pat.api.post(`/api/rotations/${rotation.id}/take-oncall`));
  const notes = `Disk on db-2 at 91%, watch it (${Date.now()})`;
  await ok(
    await pat.api.post(`/api/rotations/${rotation.id}/handoff`, {
      data: { toUserId: ivy.user.id, notes },
    }),
  );
  await Promise.all([pat.api.dispose(), ivy.api.dispose(), admin.api.dispose()]);

  // Ivy finds the Inbox in the sidebar, and the email there once the worker has kept it.
  const subject = `You are now on call for ${rotation.name}`;
  await login({ email: ivyEmail, name: 'Ivy Inbox' });
  await openDashboard(page);
  await page.getByRole('link', { name: 'Inbox', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(async () => {
    await page.reload();
    await expect(messages.getByRole('button', { name: subject })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  // Only Ivy's own: Pat's notice of the pass is not in her inbox. (Being added to the rotation
  // may also have brought her "Your on-call shifts … changed", decision 219.)
  await expect(messages.getByRole('button', { name: subject })).toHaveCount(1);
  await expect(
    messages.getByRole('button', { name: `You are no longer on call for ${rotation.name}` }),
  ).toHaveCount(0);
  await messages.getByRole('button', { name: subject }).click();

  // The email, rendered in a frame that runs no script, quotes the handoff notes.
  const reader = page.getByRole('article');
  await expect(reader.getByRole('heading', { name: subject, level: 2 })).toBeVisible();
  await expect(reader.getByText(`Ivy Inbox <${ivyEmail}>`)).toBeVisible();
  // A demo server kept it rather than sent it, and says so (decision 262).
  await expect(reader.getByRole('term').filter({ hasText: 'Kept (demo)' })).toBeVisible();
  await expect(reader.getByRole('term').filter({ hasText: /^Sent$/ })).toHaveCount(0);
  const frame = page.getByTitle(`Email: ${subject}`);
  await expect(frame).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
  const email = frame.contentFrame();
  await expect(email.getByText(notes)).toBeVisible();
  await expect(email.getByRole('link', { name: /rotation/i }).first()).toBeVisible();
  await reader.getByText('Plain-text version').click();
  await expect(reader.getByText(notes).first()).toBeVisible();
  await expect(page.getByText(/^Times in /)).toBeVisible();

  // Screens as Ivy sees them: wide and narrow, light and dark; and clean for axe. Each width is
  // a reload in light mode, then the app's own toggle to dark, where the rules that read colours
  // check the same document again.
  for (const width of [1366, 390]) {
    await page.evaluate(() => localStorage.setItem('darkMode', 'false'));
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    if (width === 390) {
      await expect(messages.getByRole('button', { name: subject })).toBeVisible();
      await messages.getByRole('button', { name: subject }).click();
      await expect(messages).toBeHidden();
    } else {
      await messages.getByRole('button', { name: subject }).click();
    }
    for (const dark of [false, true]) {
      if (dark) await switchMode(page, true);
      await expect(frame.contentFrame().getByText(notes)).toBeVisible();
      const name = `demo-inbox-${dark ? 'dark' : 'light'}-${width}.png`;
      // The viewport, not the full page: a full-page capture leaves the email's frame (an
      // out-of-process, opaque-origin frame) unpainted, which no reader ever sees.
      await keepScreenshot(page, testInfo.outputPath(name));
      // axe cannot run inside the email's frame, which runs no script (its title is checked
      // above): it checks the screen around it.
      const results = await (dark ? axeColourRules(page) : axeEveryRule(page))
        .exclude('iframe[sandbox]')
        .analyze();
      expect(results.violations, JSON.stringify(results.violations, null, 2)).toEqual([]);
    }
    if (width === 390) {
      await page.getByRole('button', { name: 'Back to messages' }).click();
      await expect(messages).toBeVisible();
    }
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.evaluate(() => localStorage.setItem('darkMode', 'false'));

  // An administrator opens the Inbox from the avatar menu and switches to everyone's, where
  // Ivy's email is, with the recipient named.
  await page.context().clearCookies();
  await login(accounts.admin);
  await openDashboard(page);
  // The dashboard says where messages go: kept, not failing.
  const setup = page.getByRole('alert').filter({ hasText: 'messages are kept in the demo inbox' });
  await expect(setup).toContainText(
    'No notification channel is configured: messages are kept in the demo inbox',
  );
  await expect(setup.getByRole('link', { name: 'open the Inbox' })).toHaveAttribute(
    'href',
    '/inbox',
  );
  await keepScreenshot(page, testInfo.outputPath('demo-inbox-admin-dashboard.png'));
  await page.getByRole('button', { name: /User menu$/ }).click();
  await page.getByRole('menuitem', { name: 'Inbox' }).click();
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expect(messages.or(page.getByText('No messages yet.', { exact: false }))).toBeVisible();
  await expect(messages.getByRole('button', { name: subject })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Everyone' }).click();
  const ivysEmail = messages.getByRole('button', { name: subject });
  await expect(ivysEmail).toBeVisible();
  await expect(ivysEmail).toContainText('To Ivy Inbox');
  await ivysEmail.click();
  await expect(page.getByTitle(`Email: ${subject}`).contentFrame().getByText(notes)).toBeVisible();
  await keepScreenshot(page, testInfo.outputPath('demo-inbox-admin-everyone.png'));
});
