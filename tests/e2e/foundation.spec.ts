import { expect, test } from '@playwright/test';
import { accounts, E2E_PASSWORD, signIn } from './support';

test('a signed-out visitor is sent to /login, except on help pages', async ({ page }) => {
  for (const path of ['/', '/rotations', '/admin/users', '/no/such/page']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await page.goto('/help');
  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByRole('heading', { name: 'Help Center' })).toBeVisible();
});

test('without OpenID Connect settings the Google button says sign-in with Google is not configured', async ({
  page,
}) => {
  // The e2e server runs without OIDC_CLIENT_ID: the button is there but disabled, and the
  // button itself carries the reason (its accessible description), as well as the caption.
  await page.goto('/login');
  const google = page.getByRole('button', { name: 'Sign in with Google', exact: true });
  await expect(google).toBeDisabled();
  await expect(google).toHaveAccessibleDescription(
    'Sign-in with Google is not configured on this server.',
  );
  await expect(
    page.getByText('Sign-in with Google is not configured on this server.'),
  ).toBeVisible();
});

test('local sign-in: a wrong password is refused, the right one opens the dashboard', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(accounts.onCall.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Login Failed', { exact: true })).toBeVisible();
  await expect(page.getByText('Invalid credentials', { exact: true })).toBeVisible();

  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Login Successful', { exact: true })).toBeVisible();
  await expect(page.getByText(`Welcome, ${accounts.onCall.name}!`, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // A signed-in user on /login is sent to /.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('the sidebar shows the admin group to administrators only', async ({ page }) => {
  await signIn(page, accounts.onCall.email);
  const nav = page.getByRole('navigation').first();
  for (const link of [
    'Dashboard',
    'Rotations',
    'On-Call Team',
    'Audit Log',
    'Calendar',
    'Help Center',
    'User Roles',
    'Handoff Process',
    'Paging On-Call',
    'Notification Help',
  ]) {
    await expect(nav.getByRole('link', { name: link, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: /Users Forum/ })).toHaveAttribute('target', '_blank');
  await expect(nav.getByRole('link', { name: /Report a Bug/ })).toHaveAttribute('target', '_blank');
  await expect(nav.getByRole('link', { name: 'User Management' })).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/admin/debug');
  await expect(page).toHaveURL(/\/$/);

  await page.context().clearCookies();
  await signIn(page, accounts.admin.email);
  for (const link of ['User Management', 'Settings', 'Debug Tools']) {
    await expect(page.getByRole('link', { name: link, exact: true })).toBeVisible();
  }
  await page.getByRole('link', { name: 'User Management', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
});

test('dark mode is kept in localStorage and survives a reload', async ({ page }) => {
  await signIn(page, accounts.manager.email);
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Toggle dark mode' }).click();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('darkMode'))).toBe('true');
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await page.getByRole('button', { name: 'Toggle dark mode' }).click();
  await expect(html).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('darkMode'))).toBe('false');
});

test('the avatar menu shows who is signed in, links to the profile and signs out', async ({
  page,
}) => {
  await signIn(page, accounts.incidentManager.email);
  await page.getByRole('button', { name: 'User menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText(accounts.incidentManager.name)).toBeVisible();
  await expect(menu.getByText(accounts.incidentManager.email)).toBeVisible();
  await menu.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);

  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Logged Out', { exact: true })).toBeVisible();
  await expect(
    page.getByText('You have been logged out successfully', { exact: true }).first(),
  ).toBeVisible();
  // The session is gone on the server, not just in the page.
  const res = await page.request.get('/api/auth/user');
  expect(res.status()).toBe(401);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
});

test("a failed logout says 'Logout Error' and leaves the user signed in", async ({ page }) => {
  await signIn(page, accounts.manager.email);
  let attempts = 0;
  await page.route('**/api/auth/logout*', (route) => {
    attempts += 1;
    return route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Something went wrong on our side.', code: 'INTERNAL' }),
    });
  });
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  const toastItem = page
    .getByRole('region', { name: /Notifications/ })
    .getByRole('listitem')
    .filter({ hasText: 'Logout Error' });
  await expect(toastItem).toBeVisible();
  await expect(toastItem).toContainText('There was a problem logging out. Please try again.');
  await expect(toastItem).toHaveClass(/destructive/);
  expect(attempts).toBe(1);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // The session still stands on the server.
  expect((await page.request.get('/api/auth/user')).status()).toBe(200);
});

test('an unknown path shows the not-found screen with a way back', async ({ page }) => {
  await signIn(page, accounts.onCall.email);
  await page.goto('/definitely/not/here');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(
    page.getByText("The page you're looking for doesn't exist or has been moved."),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Return to Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('an invalid invitation link says so and disables Google sign-in', async ({ page }) => {
  await page.goto('/invite/not-a-real-token');
  await expect(page.getByText('Invalid Invitation', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
});
