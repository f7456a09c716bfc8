import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from '@playwright/test';
import { startOpenIdProvider, type TestOpenIdProvider } from '../setup/oidc-provider';
import { type BatonServer, freePorts, startBaton } from './oidc-support';
import { accounts, E2E_PASSWORD } from './support';

/*
 * Identity and access in Chromium: invitations and registration through /invite/{token}, User
 * Management, Profile, and sign-in with Google through a real OpenID provider on 127.0.0.1.
 * Sign-in is rate limited per client address, so each test poses as its own client.
 */

let client = 0;
const clientAddress = () =>
  `10.${(process.pid % 200) + 1}.${Math.floor(client / 250)}.${(client++ % 250) + 1}`;
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function asClient(context: BrowserContext) {
  await context.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
}

/** apiAs returns an API client signed in with the local password. */
async function apiAs(baseURL: string, email: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': clientAddress() },
  });
  const res = await api.post('/api/auth/login', { data: { email, password: E2E_PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

async function invite(
  api: APIRequestContext,
  body: { email: string; name: string; role: string },
): Promise<string> {
  const res = await api.post('/api/invitations', { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).inviteUrl;
}

async function signInLocally(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** userRow is the Users table row of an address; invitationRow its Pending Invitations row. */
const userRow = (page: Page, email: string) =>
  page
    .getByRole('row')
    .filter({ hasText: email })
    .filter({ has: page.getByRole('button', { name: /^Edit roles for / }) });
const invitationRow = (page: Page, email: string) =>
  page
    .getByRole('row')
    .filter({ hasText: email })
    .filter({ has: page.getByRole('button', { name: /^Delete invitation for / }) });

/** toast returns the visible toast text (each appears twice: visible and for screen readers). */
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test.describe('invitations, User Management and Profile', () => {
  test.beforeEach(async ({ context }) => {
    await asClient(context);
  });

  test('an admin invites a person, who completes registration through /invite/{token}', async ({
    page,
    browser,
    baseURL,
  }) => {
    const email = `nell.newcomer.${unique()}@example.com`;
    await page.goto('/login');
    await signInLocally(page, accounts.admin.email);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();

    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    await expect(dialog.getByRole('combobox', { name: 'Role' })).toHaveText('On-Call');
    await dialog.getByLabel('Email').fill('nell@other.org');
    await dialog.getByLabel('Name').fill('Nell Newcomer');
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(dialog.getByText('Email must be from the example.com domain')).toBeVisible();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Manager', exact: true }).click();
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(toast(page, 'Invitation Sent')).toBeVisible();
    await expect(toast(page, 'User invitation has been sent successfully.')).toBeVisible();
    await expect(dialog).toBeHidden();

    const row = invitationRow(page, email);
    await expect(row).toContainText('Nell Newcomer');
    await expect(row).toContainText('Manager');
    await expect(row).toContainText('Pending');
    // Expires in 7 days, shown as e.g. 'Nov 29, 2026'.
    await expect(row.getByRole('cell').nth(4)).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);

    // A second invitation for the same address, in other letters, is refused.
    await page.getByRole('button', { name: 'Invite User' }).click();
    await dialog.getByLabel('Email').fill(email.toUpperCase());
    await dialog.getByLabel('Name').fill('Nell Again');
    await dialog.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(toast(page, 'Invitation Failed')).toBeVisible();
    await expect(
      toast(page, 'An invitation is already pending for this email address.'),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await row.getByRole('button', { name: `Copy invitation link for ${email}` }).click();
    await expect(toast(page, 'Link copied')).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${baseURL}/invite/[\\w-]{43}$`));

    // The invitee, in their own browser.
    const invitee = await browser.newContext();
    await asClient(invitee);
    const signUp = await invitee.newPage();
    await signUp.goto(link);
    await expect(signUp.getByText('Valid Invitation', { exact: true })).toBeVisible();
    await expect(signUp.getByText("You've been invited to join as Manager.")).toBeVisible();
    await expect(signUp.getByRole('heading', { name: 'Complete Your Registration' })).toBeVisible();
    await signInLocally(signUp, email);
    await expect(signUp).toHaveURL(/\/$/);
    await expect(toast(signUp, 'Welcome, Nell Newcomer!')).toBeVisible();
    await invitee.close();

    // Single use: the link is now refused, and the list shows the invitation accepted.
    const again = await browser.newContext();
    const used = await again.newPage();
    await used.goto(link);
    await expect(used.getByText('Invalid Invitation', { exact: true })).toBeVisible();
    await expect(used.getByText('This invitation has already been used.')).toBeVisible();
    await expect(used.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
    await again.close();
    await expect(row).toContainText('Accepted', { timeout: 10_000 });
  });

  test('a made-up invitation link shows Invalid Invitation and disables sign-in', async ({
    page,
  }) => {
    await page.goto(`/invite/${'x'.repeat(43)}`);
    await expect(page.getByText('Invalid Invitation', { exact: true })).toBeVisible();
    await expect(page.getByText(/Invalid invitation link/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
  });

  test('an admin deletes an invitation after confirming', async ({ page, baseURL }) => {
    const admin = await apiAs(baseURL!, accounts.admin.email);
    const email = `gone.soon.${unique()}@example.com`;
    await invite(admin, { email, name: 'Gone Soon', role: 'member' });
    await admin.dispose();

    await page.goto('/login');
    await signInLocally(page, accounts.admin.email);
    await page.goto('/admin/users');
    const row = invitationRow(page, email);
    await row.getByRole('button', { name: `Delete invitation for ${email}` }).click();
    // Cancelling deletes nothing and says nothing.
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Delete invitation for ${email}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Invitation Deleted')).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  test('roles: preselected, never none, not one’s own admin role, and saved', async ({
    page,
    baseURL,
  }) => {
    const admin = await apiAs(baseURL!, accounts.admin.email);
    const email = `rory.roles.${unique()}@example.com`;
    const link = await invite(admin, { email, name: `Rory Roles ${unique()}`, role: 'member' });
    await admin.dispose();
    const invitee = await apiAs(baseURL!, email);
    const name = (await (await invitee.get('/api/auth/user')).json()).user.name as string;
    await invitee.dispose();
    expect(link).toBeTruthy();

    await page.goto('/login');
    await signInLocally(page, accounts.admin.email);
    await page.goto('/admin/users');

    // One's own row: no delete button; removing one's own admin role is refused.
    const own = userRow(page, accounts.admin.email);
    await expect(own.getByRole('button', { name: `Delete ${accounts.admin.name}` })).toHaveCount(0);
    await own.getByRole('button', { name: `Edit roles for ${accounts.admin.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User Roles' });
    await expect(dialog.getByRole('checkbox', { name: 'Administrator' })).toBeChecked();
    await dialog.getByRole('checkbox', { name: 'Administrator' }).click();
    await dialog.getByRole('checkbox', { name: 'Manager', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save Roles' }).click();
    await expect(toast(page, 'Cannot Remove Admin Role')).toBeVisible();
    await expect(toast(page, 'You cannot remove your own admin role.')).toBeVisible();
    await expect(dialog.getByText('Error: You cannot remove your own admin role.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const row = userRow(page, email);
    await expect(row).toContainText('On-Call');
    await row.getByRole('button', { name: `Edit roles for ${name}` }).click();
    await expect(dialog.getByRole('checkbox', { name: 'On-Call' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Manager', exact: true })).not.toBeChecked();
    await dialog.getByRole('checkbox', { name: 'On-Call' }).click();
    await expect(dialog.getByRole('button', { name: 'Save Roles' })).toBeDisabled();
    await expect(dialog.getByText('At least one role must be selected')).toBeVisible();
    await dialog.getByRole('checkbox', { name: 'Manager', exact: true }).click();
    await dialog.getByRole('checkbox', { name: 'Incident Manager' }).click();
    await dialog.getByRole('button', { name: 'Save Roles' }).click();
    await expect(toast(page, 'Roles Updated')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Manager');
    await expect(row).toContainText('Incident Manager');
    await expect(row).not.toContainText('On-Call');
  });

  test('deleting a user: refused while they are in rotations, done after confirming otherwise', async ({
    page,
    baseURL,
  }) => {
    const admin = await apiAs(baseURL!, accounts.admin.email);
    const email = `dana.delete.${unique()}@example.com`;
    const name = `Dana Delete ${unique()}`;
    await invite(admin, { email, name, role: 'member' });
    await admin.dispose();
    (await apiAs(baseURL!, email)).dispose();

    await page.goto('/login');
    await signInLocally(page, accounts.admin.email);
    await page.goto('/admin/users');

    // Olivia is in demo rotations: the server refuses and names them.
    const olivia = userRow(page, accounts.onCall.email);
    await olivia.getByRole('button', { name: `Delete ${accounts.onCall.name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Delete Failed')).toBeVisible();
    await expect(
      page.getByText(new RegExp(`${accounts.onCall.name} is still in the rotations? `)).first(),
    ).toBeVisible();
    await expect(olivia).toBeVisible();

    const row = userRow(page, email);
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'User Deleted')).toBeVisible();
    await expect(toast(page, 'User has been deleted successfully.')).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  test('profile: the form saves, the cached user follows, the rules hold', async ({
    page,
    baseURL,
  }) => {
    const admin = await apiAs(baseURL!, accounts.admin.email);
    const email = `pat.profile.${unique()}@example.com`;
    await invite(admin, { email, name: 'Pat Profile', role: 'member' });
    await admin.dispose();

    await page.goto('/login');
    await signInLocally(page, email);
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page.getByRole('heading', { name: 'Your Profile' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Timezone' })).toHaveText('UTC');
    await expect(page.getByRole('combobox', { name: 'Notification Preference' })).toHaveText(
      'Email only',
    );

    await page.getByLabel('Name').fill('P');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Name must be at least 2 characters')).toBeVisible();

    await page.getByLabel('Name').fill('Patricia Profile');
    await page.getByLabel('Phone Number').fill('+1 555 010 0199');
    await page.getByRole('combobox', { name: 'Timezone' }).click();
    await page.getByRole('option', { name: 'Europe/Paris' }).click();
    await page.getByRole('combobox', { name: 'Notification Preference' }).click();
    await expect(page.getByRole('option')).toHaveText([
      'Email only',
      'SMS only',
      'Both Email and SMS',
    ]);
    await page.getByRole('option', { name: 'Both Email and SMS' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'Profile updated')).toBeVisible();
    await expect(toast(page, 'Your profile has been updated successfully')).toBeVisible();
    // The answer replaced the cached user: the card and the menu show the new name at once.
    await expect(page.getByText('Patricia Profile', { exact: true }).first()).toBeVisible();
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menu').getByText('Patricia Profile')).toBeVisible();
    await page.keyboard.press('Escape');

    await page.reload();
    await expect(page.getByLabel('Name')).toHaveValue('Patricia Profile');
    await expect(page.getByLabel('Phone Number')).toHaveValue('+1 555 010 0199');
    await expect(page.getByRole('combobox', { name: 'Timezone' })).toHaveText('Europe/Paris');
    await expect(page.getByRole('combobox', { name: 'Notification Preference' })).toHaveText(
      'Both Email and SMS',
    );
  });
});

test.describe('sign in with Google through a local OpenID provider', () => {
  // Two browser windows and a second server per flow: more than the default 30 s on a busy machine.
  test.describe.configure({ timeout: 60_000 });
  let provider: TestOpenIdProvider;
  let baton: BatonServer;
  const adminEmail = 'olga.oidc.admin@example.com';

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const [batonPort, providerPort] = await freePorts(2);
    provider = await startOpenIdProvider({
      port: providerPort,
      redirectUri: `http://127.0.0.1:${batonPort}/api/auth/oidc/callback`,
    });
    baton = await startBaton(batonPort, {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      ADMIN_EMAIL: adminEmail,
      DEMO: '1',
      // Configuring a provider turns demo mode off; local sign-in is on only for the admin's setup.
      LOCAL_LOGIN_PASSWORD: E2E_PASSWORD,
    });
  });
  test.afterAll(async () => {
    await baton?.stop();
    await provider?.close();
  });
  test.beforeEach(async ({ context }) => {
    await asClient(context);
  });

  /** chooseAccount clicks 'Sign in with Google' and types the account in the provider's popup. */
  async function chooseAccount(page: Page, email: string) {
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await expect(page.getByRole('button', { name: 'Signing in...' })).toBeVisible();
    const popup = await popupOpened;
    await expect(popup.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
    await popup.getByLabel('Email').fill(email);
    await popup.getByRole('button', { name: 'Continue' }).click();
    // The popup may close before the click returns; a 'close' listener added after that would
    // wait forever. isClosed() and the listener are set up in the same tick: no event between.
    if (!popup.isClosed()) await popup.waitForEvent('close');
  }

  test('an invitee signs in for the first time, then again as a returning user', async ({
    page,
    browser,
  }) => {
    const admin = await apiAs(baton.url, adminEmail);
    const email = `gina.google.${unique()}@example.com`;
    const link = await invite(admin, { email, name: 'Gina Google', role: 'manager' });
    await admin.dispose();

    await page.goto(link);
    await expect(page.getByText('Valid Invitation', { exact: true })).toBeVisible();
    await chooseAccount(page, email);
    await expect(toast(page, 'Login Successful')).toBeVisible();
    await expect(toast(page, 'Welcome, Gina Google!')).toBeVisible();
    await expect(page).toHaveURL(`${baton.url}/`);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    const first = await (await page.request.get(`${baton.url}/api/auth/user`)).json();
    expect(first.user).toMatchObject({ email, roles: ['manager'] });

    // Returning, in a fresh browser: recognised by the provider's subject.
    const later = await browser.newContext();
    await asClient(later);
    const again = await later.newPage();
    await again.goto(`${baton.url}/login`);
    await chooseAccount(again, email);
    await expect(toast(again, 'Welcome, Gina Google!')).toBeVisible();
    const second = await (await again.request.get(`${baton.url}/api/auth/user`)).json();
    expect(second.user.id).toBe(first.user.id);
    await later.close();
  });

  test('an account without an invitation is refused', async ({ page }) => {
    await page.goto(`${baton.url}/login`);
    await chooseAccount(page, `stranger.${unique()}@example.com`);
    await expect(toast(page, 'Authentication Failed')).toBeVisible();
    await expect(page.getByText(/There is no invitation for stranger\./).first()).toBeVisible();
    await expect(page).toHaveURL(`${baton.url}/login`);
    expect((await page.request.get(`${baton.url}/api/auth/user`)).status()).toBe(401);
  });

  test('closing the popup, or a blocked popup, says so', async ({ page }) => {
    await page.goto(`${baton.url}/login`);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    const popup = await popupOpened;
    await expect(popup.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
    await popup.close();
    await expect(toast(page, 'Login Failed')).toBeVisible();
    await expect(
      toast(page, 'Sign-in popup was closed before authentication was completed.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled();

    // A browser that blocks the popup: window.open answers null. The size asked for is 500×600.
    await page.evaluate(() => {
      const w = window as unknown as { openedWith?: string };
      window.open = (_url?: string | URL, _name?: string, features?: string) => {
        w.openedWith = features;
        return null;
      };
    });
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await expect(
      toast(
        page,
        'The sign-in popup was blocked by your browser. Please allow popups for this site and try again.',
      ),
    ).toBeVisible();
    const features = await page.evaluate(
      () => (window as unknown as { openedWith?: string }).openedWith,
    );
    expect(features).toMatch(/width=500,height=600/);
  });
});
