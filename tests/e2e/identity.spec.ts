import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Page,
  request as playwrightRequest,
  type Request,
  test,
} from '@playwright/test';
import { type BatonServer, freePorts, startBaton } from '../setup/baton-process';
import { startOpenIdProvider, type TestOpenIdProvider } from '../setup/oidc-provider';
import { accounts, E2E_PASSWORD, ownOrigin } from './support';

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
    extraHTTPHeaders: { 'x-forwarded-for': clientAddress(), ...ownOrigin(baseURL) },
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
/**
 * toastItem returns the shown toast (an item of the notifications region) that has a title. An
 * open modal dialog hides the rest of the page from the accessibility tree (the toast is still
 * announced through its live region), hence includeHidden.
 */
const toastItem = (page: Page, title: string) =>
  page
    .getByRole('region', { name: /Notifications/, includeHidden: true })
    .getByRole('listitem', { includeHidden: true })
    .filter({ hasText: title });

/** The invitation check of the invite screen, whatever the token. */
const VALIDATE = /\/api\/invitations\/[^/]+\/validate/;

/** invitedUser invites an address through the API and signs it in once, creating the user. */
async function invitedUser(baseURL: string, prefix: string) {
  const admin = await apiAs(baseURL, accounts.admin.email);
  const email = `${prefix}.${unique()}@example.com`;
  await invite(admin, { email, name: `${prefix} ${unique()}`, role: 'member' });
  await admin.dispose();
  const invitee = await apiAs(baseURL, email);
  const name = (await (await invitee.get('/api/auth/user')).json()).user.name as string;
  await invitee.dispose();
  return { email, name };
}

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
    await row.getByRole('button', { name: `Copy link of the invitation for ${email}` }).click();
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

  test('the invite screen: validating first, then a network failure or a bare 404 says so', async ({
    page,
    baseURL,
  }) => {
    // A slow answer: the validating state shows until it arrives.
    const admin = await apiAs(baseURL!, accounts.admin.email);
    const link = await invite(admin, {
      email: `vera.validating.${unique()}@example.com`,
      name: 'Vera Validating',
      role: 'manager',
    });
    await admin.dispose();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(VALIDATE, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(link);
    await expect(
      page.getByRole('status').filter({ hasText: 'Validating invitation...' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    release();
    await expect(page.getByText('Valid Invitation', { exact: true })).toBeVisible();
    await expect(page.getByText("You've been invited to join as Manager.")).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Complete Your Registration' })).toBeVisible();
    await page.unroute(VALIDATE);

    // The request never gets an answer (network failure).
    await page.route(VALIDATE, (route) => route.abort('failed'));
    await page.goto(`/invite/${'n'.repeat(43)}`);
    await expect(page.getByText('Invalid Invitation', { exact: true })).toBeVisible();
    await expect(
      page.getByText('Unable to validate invitation. Please try again.', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeDisabled();
    await page.unroute(VALIDATE);

    // A 404 without a message, with an empty body or a body without one: the fallback.
    for (const body of ['', JSON.stringify({ code: 'NOT_FOUND' })]) {
      await page.route(VALIDATE, (route) =>
        route.fulfill({ status: 404, contentType: 'application/json', body }),
      );
      await page.goto(`/invite/${'m'.repeat(43)}`);
      await expect(page.getByText('Invalid Invitation', { exact: true })).toBeVisible();
      await expect(page.getByText('Invalid invitation', { exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
      await page.unroute(VALIDATE);
    }
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
    // Administrator is the only role: it cannot be unchecked until another one is.
    await dialog.getByRole('checkbox', { name: 'Administrator' }).click();
    await expect(toastItem(page, 'Role Required')).toBeVisible();
    await expect(dialog.getByRole('checkbox', { name: 'Administrator' })).toBeChecked();
    await dialog.getByRole('checkbox', { name: 'Manager', exact: true }).click();
    await dialog.getByRole('checkbox', { name: 'Administrator' }).click();
    await expect(dialog.getByRole('checkbox', { name: 'Administrator' })).not.toBeChecked();
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
    // Unchecking the last role is refused on the spot ('Role Required'): it stays checked.
    await dialog.getByRole('checkbox', { name: 'On-Call' }).click();
    const required = toastItem(page, 'Role Required');
    await expect(required).toBeVisible();
    await expect(required).toContainText('A user must have at least one role.');
    await expect(required).toHaveClass(/destructive/);
    await expect(dialog.getByRole('checkbox', { name: 'On-Call' })).toBeChecked();
    await expect(dialog.getByRole('button', { name: 'Save Roles' })).toBeEnabled();
    await dialog.getByRole('checkbox', { name: 'Manager', exact: true }).click();
    await dialog.getByRole('checkbox', { name: 'Incident Manager' }).click();
    // With other roles checked, On-Call may go.
    await dialog.getByRole('checkbox', { name: 'On-Call' }).click();
    await expect(dialog.getByRole('checkbox', { name: 'On-Call' })).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Save Roles' }).click();
    await expect(toast(page, 'Roles Updated')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Manager');
    await expect(row).toContainText('Incident Manager');
    await expect(row).not.toContainText('On-Call');
  });

  test('the Edit User Roles dialog cannot be closed while saving', async ({ page, baseURL }) => {
    const { email, name } = await invitedUser(baseURL!, 'sasha.saving');
    await page.goto('/login');
    await signInLocally(page, accounts.admin.email);
    await page.goto('/admin/users');
    const row = userRow(page, email);
    const dialog = page.getByRole('dialog', { name: 'Edit User Roles' });

    // While idle, Escape closes it.
    await row.getByRole('button', { name: `Edit roles for ${name}` }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // The PATCH is held until the test lets it through.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/admin/users/*/roles*', async (route) => {
      await held;
      await route.continue();
    });
    await row.getByRole('button', { name: `Edit roles for ${name}` }).click();
    await dialog.getByRole('checkbox', { name: 'Manager', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save Roles' }).click();
    await expect(dialog.getByRole('button', { name: 'Saving...' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Close' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Saving...' })).toBeVisible();

    release();
    await expect(toastItem(page, 'Roles Updated')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Manager');
  });

  test('User Management: both tables, Refresh, the empty list, statuses and a failed delete', async ({
    page,
    baseURL,
  }) => {
    const admin = await apiAs(baseURL!, accounts.admin.email);
    const email = `una.undeleted.${unique()}@example.com`;
    await invite(admin, { email, name: 'Una Undeleted', role: 'member' });
    await admin.dispose();

    await page.goto('/login');
    await signInLocally(page, accounts.admin.email);
    let listReads = 0;
    let readsUnderWay = 0;
    const isListRead = (request: Request) =>
      request.method() === 'GET' && /\/api\/invitations(\?|$)/.test(request.url());
    page.on('request', (request) => {
      if (isListRead(request)) {
        listReads += 1;
        readsUnderWay += 1;
      }
    });
    const settled = (request: Request) => {
      if (isListRead(request)) readsUnderWay -= 1;
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
    await page.goto('/admin/users');
    const users = page
      .getByRole('table')
      .filter({ has: page.getByRole('columnheader', { name: 'Current Role' }) });
    await expect(users.getByRole('columnheader')).toHaveText([
      'User',
      'Email',
      'Current Role',
      'Reachable by',
      'Actions',
    ]);
    const invitations = page
      .getByRole('table')
      .filter({ has: page.getByRole('columnheader', { name: 'Expires' }) });
    await expect(invitations.getByRole('columnheader')).toHaveText([
      'Name',
      'Email',
      'Role',
      'Status',
      'Expires',
      'Actions',
    ]);
    await expect(invitationRow(page, email)).toBeVisible();

    // A failed delete says so and keeps the row.
    await page.route('**/api/invitations/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({
              message: 'Something went wrong on our side.',
              code: 'INTERNAL',
            }),
          })
        : route.fallback(),
    );
    await invitationRow(page, email)
      .getByRole('button', { name: `Delete invitation for ${email}` })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    const failed = toastItem(page, 'Delete Failed');
    await expect(failed).toBeVisible();
    await expect(failed).toContainText('Failed to delete invitation. Please try again.');
    await expect(failed).toHaveClass(/destructive/);
    await expect(invitationRow(page, email)).toBeVisible();

    // Refresh reads the list again. Polling (every 3 s) pauses while the page is hidden, as
    // TanStack Query does by default, so every read counted from here on is Refresh's.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    // A poll sent just before is let finish, so that it is not counted as Refresh's.
    await expect.poll(() => readsUnderWay).toBe(0);
    const before = listReads;
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await refresh.click();
    await expect.poll(() => listReads).toBe(before + 1);
    await expect(refresh).toBeEnabled();
    await refresh.click();
    await expect.poll(() => listReads).toBe(before + 2);

    // An empty list, and every status: other than pending or accepted is shown as destructive.
    let answer: unknown[] = [];
    await page.route(/\/api\/invitations(\?|$)/, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }),
    );
    await refresh.click();
    await expect(page.getByText('No pending invitations', { exact: true })).toBeVisible();
    await expect(invitations).toHaveCount(0);

    const item = (id: number, status: string) => ({
      id,
      name: `Status ${status}`,
      email: `status.${status}@example.com`,
      role: 'member',
      status,
      expiresAt: '2026-11-29T12:00:00.000Z',
      createdAt: '2026-11-22T12:00:00.000Z',
      inviteUrl: null,
    });
    answer = [
      item(9001, 'pending'),
      item(9002, 'accepted'),
      item(9003, 'expired'),
      item(9004, 'revoked'),
    ];
    await refresh.click();
    const badge = (status: string, label: string) =>
      invitationRow(page, `status.${status}@example.com`).getByText(label, { exact: true });
    await expect(badge('pending', 'Pending')).toBeVisible();
    await expect(badge('pending', 'Pending')).not.toHaveClass(/bg-destructive/);
    await expect(badge('accepted', 'Accepted')).not.toHaveClass(/bg-destructive/);
    await expect(badge('expired', 'Expired')).toHaveClass(/bg-destructive/);
    await expect(badge('revoked', 'Revoked')).toHaveClass(/bg-destructive/);
    await expect(
      invitationRow(page, 'status.expired@example.com').getByRole('cell').nth(4),
    ).toHaveText('Nov 29, 2026');
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
    test.setTimeout(150_000);
    const [batonPort, providerPort] = await freePorts(2);
    provider = await startOpenIdProvider({
      port: providerPort,
      redirectUri: `http://127.0.0.1:${batonPort}/api/auth/oidc/callback`,
    });
    baton = await startBaton({
      port: batonPort,
      env: {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        ADMIN_EMAIL: adminEmail,
        DEMO: '1',
        // Configuring a provider turns demo mode off; local sign-in is on only for the admin's setup.
        LOCAL_LOGIN_PASSWORD: E2E_PASSWORD,
      },
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
    const refused = toastItem(page, 'Authentication Failed');
    await expect(refused).toBeVisible();
    await expect(refused).toContainText(
      'You do not have permission to access this application. Ask an administrator for an invitation.',
    );
    await expect(refused).not.toContainText('stranger.');
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
