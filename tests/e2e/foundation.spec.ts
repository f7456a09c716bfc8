import { LOCAL_SIGN_IN_NOTE } from '../../src/shared/contracts/auth';
import { expect, openDashboard, test } from './fixtures';
import { accounts, E2E_HELP_LINKS, E2E_PASSWORD, signIn } from './support';

test('an unknown path under a reserved prefix answers 404 JSON, not the app (decision 182)', async ({
  page,
}) => {
  for (const url of ['/metrics', '/openapi', '/api/nope']) {
    const res = await page.request.get(url);
    expect(res.status(), url).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
  }
});

test('a signed-out visitor is sent to /login, except on help pages', async ({ page }) => {
  for (const path of ['/', '/rotations', '/admin/users', '/no/such/page']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await page.goto('/help');
  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByRole('heading', { name: 'Help Center' })).toBeVisible();
  // Signed out too, the help pages link to the configured forum.
  await expect(page.getByRole('link', { name: /Users forum/ })).toHaveAttribute(
    'href',
    E2E_HELP_LINKS.usersForumUrl,
  );
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
  // The local password is shared by every account: the screen says it is for demos only.
  await expect(page.getByText(LOCAL_SIGN_IN_NOTE, { exact: true })).toBeVisible();
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
});

test('the menu by role: one Incidents entry, Time off, and policies and integrations beside Rotations for those who oversee paging; the admin group for administrators only', async ({
  page,
  login,
}) => {
  await login(accounts.onCall);
  await openDashboard(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const link of [
    'Dashboard',
    'Rotations',
    'On-Call Team',
    'Audit Log',
    'Calendar',
    'Incidents',
    'Time off',
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
  // Where they point is the deployment's configuration (decision 184).
  await expect(nav.getByRole('link', { name: /Users Forum/ })).toHaveAttribute(
    'href',
    E2E_HELP_LINKS.usersForumUrl,
  );
  await expect(nav.getByRole('link', { name: /Report a Bug/ })).toHaveAttribute(
    'href',
    E2E_HELP_LINKS.bugReportUrl,
  );
  // Every page is an incident: one entry, no Pages link (decision 260).
  await expect(nav.getByRole('link', { name: 'Pages', exact: true })).toHaveCount(0);
  for (const link of ['User Management', 'Escalation Policies', 'Integrations']) {
    await expect(nav.getByRole('link', { name: link, exact: true })).toHaveCount(0);
  }
  // The page history stays, reached from the incidents, and the one entry stands for it.
  await nav.getByRole('link', { name: 'Incidents', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Incidents', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Page history' }).click();
  await expect(page).toHaveURL(/\/pages$/);
  await expect(page.getByRole('heading', { name: 'Pages', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Incidents', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.getByRole('link', { name: 'All incidents' }).click();
  await expect(page).toHaveURL(/\/incidents$/);
  await nav.getByRole('link', { name: 'Time off', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Time off', level: 1 })).toBeVisible();

  // A manager owns policies and integrations: they sit under Rotations.
  await page.context().clearCookies();
  await login(accounts.manager);
  await openDashboard(page);
  const rotationsEntry = nav.getByRole('listitem').filter({
    has: page.getByRole('link', { name: 'Rotations', exact: true }),
  });
  await rotationsEntry.getByRole('link', { name: 'Escalation Policies', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Escalation Policies', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Escalation Policies', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await rotationsEntry.getByRole('link', { name: 'Integrations', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'User Management' })).toHaveCount(0);

  await page.context().clearCookies();
  await login(accounts.admin);
  await openDashboard(page);
  for (const link of ['User Management', 'Settings', 'Debug Tools', 'Escalation Policies']) {
    await expect(page.getByRole('link', { name: link, exact: true })).toBeVisible();
  }
  // Administrators find the policies beside Rotations too, no longer in the Admin group.
  const adminGroup = nav.getByRole('list').filter({
    has: page.getByRole('link', { name: 'User Management', exact: true }),
  });
  await expect(adminGroup.getByRole('link', { name: 'Escalation Policies' })).toHaveCount(0);
  await page.getByRole('link', { name: 'User Management', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
});

test('the protected layout: where a signed-in user is sent, the footer, the spinner while the session loads, and the sidebar on a narrow window', async ({
  page,
  login,
}) => {
  await login(accounts.onCall);
  await openDashboard(page);

  // A signed-in user is sent to / from the sign-in and invitation screens, and an on-call user
  // from the admin-only screens.
  for (const path of ['/login', '/invite/anything', '/admin/users', '/admin/debug']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  }

  // Footer: the copyright year, the version the server names (decision 225) and the studio credit.
  const footer = page.getByRole('contentinfo');
  const year = await page.evaluate(() => new Date().getFullYear());
  await expect(footer).toContainText(`© ${year} Baton`);
  const { version } = (await (await page.request.get('/api/health')).json()) as { version: string };
  await expect(footer).toContainText(`version ${version}`);
  await expect(footer.getByText('Built by Relay Automation Studio', { exact: true })).toBeVisible();

  // While GET /api/auth/user is held, a protected page shows the spinner with 'Loading...' and
  // none of the layout; once it answers, the page. (A page carries its signed-in user, issue 35,
  // so the session only loads when the page came without it: its data block is taken out here.)
  await page.route('**/rotations', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /<script type="application\/json" id="baton-session">.*?<\/script>/,
      '',
    );
    await route.fulfill({ response, body });
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  await page.route('**/api/auth/user*', async (route) => {
    held += 1;
    await released;
    await route.fallback();
  });
  await page.goto('/rotations');
  await expect.poll(() => held).toBeGreaterThan(0);
  const loading = page.getByRole('status').filter({ hasText: 'Loading...' });
  await expect(loading).toBeVisible();
  await expect(loading.locator('svg.animate-spin')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Toggle dark mode' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Rotations', level: 1 })).toHaveCount(0);
  release();
  await expect(page.getByRole('heading', { name: 'Rotations', level: 1 })).toBeVisible();
  await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
  await page.unroute('**/api/auth/user*');
  await page.unroute('**/rotations');

  // Wide: the sidebar is always there and the top bar has no toggle.
  const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
  await expect(toggle).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // Narrow (390 px): the sidebar is hidden; the toggle opens it, its links are reachable, and
  // following one closes it.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  const sidebar = page.getByRole('dialog');
  await expect(sidebar).toBeVisible();
  // The open sidebar is modal: the rest of the page, the toggle included, is hidden from it.
  await expect(
    page.getByRole('button', { name: 'Toggle sidebar', includeHidden: true }),
  ).toHaveAttribute('aria-expanded', 'true');
  const sidebarNav = sidebar.getByRole('navigation', { name: 'Main' });
  for (const link of [
    'Dashboard',
    'Rotations',
    'On-Call Team',
    'Audit Log',
    'Calendar',
    'Incidents',
    'Time off',
  ]) {
    await expect(sidebarNav.getByRole('link', { name: link, exact: true })).toBeInViewport();
  }
  await expect(sidebarNav.getByRole('link', { name: 'Notification Help' })).toBeVisible();
  await sidebarNav.getByRole('link', { name: 'Audit Log', exact: true }).click();
  await expect(page).toHaveURL(/\/audit-log$/);
  await expect(sidebar).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible();
});

for (const [size, viewport] of [
  // A 1366 × 768 laptop screen, less the browser's bars and the taskbar.
  ['desktop', { width: 1366, height: 640 }],
  ['narrow', { width: 390, height: 844 }],
] as const) {
  test(`the login toast covers no control of the On-Call Team screen (${size})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, accounts.admin.email);
    const toast = page
      .getByRole('region', { name: 'Notifications (F8)' })
      .getByRole('listitem')
      .filter({ hasText: 'Login Successful' });
    await expect(toast).toBeVisible();
    // The pointer resting on a toast holds it (Radix pauses its timer), however slow the run.
    await toast.hover();
    // Client-side navigation, as a user would go: the toast stays.
    await page.evaluate(() => {
      window.history.pushState({}, '', '/on-call-team');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { name: 'On-Call Team', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Manage User' }).first()).toBeVisible();
    await expect(toast).toBeVisible();
    const box = await toast.boundingBox();
    expect(box).not.toBeNull();
    const controls = page
      .getByRole('link', { name: 'Manage User' })
      .or(page.getByRole('button', { name: 'Manage User' }))
      .or(page.getByRole('button', { name: 'User menu' }))
      .or(page.getByRole('button', { name: 'Toggle sidebar' }));
    const count = await controls.count();
    expect(count).toBeGreaterThan(2);
    for (let i = 0; i < count; i += 1) {
      const control = await controls.nth(i).boundingBox();
      if (!box || !control) continue;
      const overlaps =
        box.x < control.x + control.width &&
        control.x < box.x + box.width &&
        box.y < control.y + control.height &&
        control.y < box.y + box.height;
      expect(overlaps, `the toast covers ${JSON.stringify(control)}`).toBe(false);
    }
  });
}

test('toasts: one at a time, F8 moves focus to them, and each leaves after 5 seconds', async ({
  page,
}) => {
  // The page's timers run on Playwright's clock: time flows until paused, then moves only when
  // the test says so.
  await page.clock.install();
  await signIn(page, accounts.manager.email);
  const region = page.getByRole('region', { name: 'Notifications (F8)' });
  const welcome = region.getByRole('listitem').filter({ hasText: 'Login Successful' });
  await expect(welcome).toBeVisible();
  // The avatar menu loads just after the first paint; React reveals it on a timer.
  await expect(page.getByRole('button', { name: 'User menu' })).toBeEnabled();
  // Pause a second ahead (the page's time goes on while the test asks for it; pausing in the
  // past is refused), well within the welcome toast's 5 s. It is checked to be still there: from
  // then on it can leave only by being replaced.
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1_000);
  await expect(welcome).toBeVisible();

  // The sign-out fails; it is held until the page has shown it pending, as a real one would be.
  let answer = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route('**/api/auth/logout*', async (route) => {
    await answered;
    await route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Something went wrong on our side.', code: 'INTERNAL' }),
    });
  });
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  // Zero-delay timers pass the pending state to the page (the toast's own timer needs 5 s).
  await page.clock.runFor(10);
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeDisabled();
  answer();
  // The new toast's 5 s start when it shows; then the failed sign-out closes the menu.
  await expect(page.getByText('Logout Error', { exact: true })).toBeVisible();
  await page.clock.runFor(10);
  await expect(page.getByRole('menu')).toHaveCount(0);

  // One toast at a time: the second replaced the first.
  await expect(region.getByRole('listitem')).toHaveCount(1);
  const logoutError = region.getByRole('listitem').filter({ hasText: 'Logout Error' });
  await expect(logoutError).toBeVisible();
  await expect(page.getByText('Login Successful', { exact: true })).toHaveCount(0);

  // F8 (Radix's viewport hotkey) moves focus to the toasts; focus leaving lets the timer go on.
  await page.keyboard.press('F8');
  await expect(region.getByRole('list')).toBeFocused();
  await page.getByText(/© \d{4} Baton/).click();
  await expect(region.getByRole('list')).not.toBeFocused();

  // It dismisses itself after its 5000 ms default: still there at 4.9 s, gone after 5 s.
  await page.clock.runFor(4_880);
  await expect(logoutError).toBeVisible();
  await page.clock.runFor(200);
  await expect(logoutError).toHaveCount(0);
  await expect(region.getByRole('listitem')).toHaveCount(0);
});

test('dark mode is kept in localStorage and survives a reload', async ({ page, login }) => {
  await login(accounts.manager);
  await openDashboard(page);
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
  // The mode changes at once (decision 279): the toggle starts no colour transition, though the
  // dashboard has elements that transition their colours when they change.
  const transitions = await page.evaluate(() => {
    const toggle = document.querySelector<HTMLButtonElement>(
      'button[aria-label="Toggle dark mode"]',
    );
    toggle?.click();
    const started = document.getAnimations().filter((a) => a instanceof CSSTransition).length;
    const transitioning = [...document.querySelectorAll('*')].filter((el) =>
      getComputedStyle(el).transitionProperty.includes('color'),
    ).length;
    return { started, transitioning };
  });
  await expect(html).toHaveClass(/dark/);
  expect(transitions.transitioning).toBeGreaterThan(10);
  expect(transitions.started).toBe(0);
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

test("a failed logout says 'Logout Error' and leaves the user signed in", async ({
  page,
  login,
}) => {
  await login(accounts.manager);
  await openDashboard(page);
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

test('an unknown path shows the not-found screen with a way back', async ({ page, login }) => {
  await login(accounts.onCall);
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
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
