import { type APIRequestContext, type APIResponse, request } from '@playwright/test';
import { type BatonServer, freePorts, startBaton } from '../setup/baton-process';
import { expect, openDashboard, test } from './fixtures';
import { accounts, E2E_PASSWORD, ownOrigin } from './support';

/**
 * Where notifications go, as a user and an administrator see it: the profile explains a choice of
 * SMS without a phone number, and on a server that has no email or SMS channel configured and is
 * no demo, the outbox view shows every notification as not sent, with the reason. (In demo mode,
 * as on the server playwright.config.ts starts, they are kept in the demo inbox instead:
 * demo-inbox.spec.ts.)
 */

async function ok(res: APIResponse, status = 200) {
  expect(res.status(), await res.text()).toBe(status);
  return res.json();
}

/** apiAs signs in through the API (local password) on a connection of its own. */
async function apiAs(baseURL: string | undefined, email: string) {
  const api = await request.newContext({
    baseURL,
    extraHTTPHeaders: baseURL ? ownOrigin(baseURL) : {},
  });
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

test('a user who chooses SMS without a phone number is told notifications go by email, and why', async ({
  page,
  baseURL,
  login,
}) => {
  const admin = await apiAs(baseURL, accounts.admin.email);
  const email = await invite(admin.api, 'sasha.sms', 'Sasha Sms');
  await admin.api.dispose();
  await login({ email, name: 'Sasha Sms' });

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Your Profile' })).toBeVisible();
  const note = page.getByRole('alert').filter({ hasText: 'Notifications go by email' });
  await expect(note).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Notification Preference' }).click();
  await page.getByRole('option', { name: 'SMS only' }).click();
  await expect(page.getByLabel('Phone Number')).toHaveValue('');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated', { exact: true }).first()).toBeVisible();
  await expect(note).toBeVisible();
  await expect(
    note.getByText(
      'SMS needs a phone number on your profile; notifications go by email until you add one.',
    ),
  ).toBeVisible();

  // It is what the server stored: after a reload the profile still says so.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Notification Preference' })).toHaveText(
    'SMS only',
  );
  await expect(note).toBeVisible();

  // With a phone number, SMS is used and the note goes.
  await page.getByLabel('Phone Number').fill('+1 555 010 0077');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated', { exact: true }).first()).toBeVisible();
  await expect(note).toHaveCount(0);
});

test.describe('outside demo mode', () => {
  // A Baton of its own that is no demo: an identity provider is configured (never contacted
  // here; the local password still signs in outside production), and the demo team is seeded.
  let baton: BatonServer | undefined;
  test.beforeAll(async () => {
    // A new database and the demo seed: startBaton allows two minutes, more than a hook's default.
    test.setTimeout(150_000);
    const [port] = await freePorts(1);
    baton = await startBaton({
      port: port,
      env: {
        OIDC_ISSUER: 'http://127.0.0.1:9/',
        OIDC_CLIENT_ID: 'baton-e2e-client',
        DEMO: '1',
        LOCAL_LOGIN_PASSWORD: E2E_PASSWORD,
        SIGN_IN_RATE_LIMIT: '1000',
        OUTBOX_INTERVAL_SECONDS: '1',
      },
    });
  });
  test.afterAll(async () => {
    await baton?.stop();
  });

  test('with no channel configured, a page is recorded and the outbox view shows it not sent, with the reason', async ({
    page,
    login,
  }) => {
    test.setTimeout(60_000);
    const baseURL = baton?.url;
    if (!baseURL) throw new Error('the server outside demo mode did not start');
    // Its own data: a rotation held by a new member, paged by the administrator.
    const admin = await apiAs(baseURL, accounts.admin.email);
    const email = await invite(admin.api, 'dana.demo', 'Dana Demo');
    const dana = await apiAs(baseURL, email);
    const rotation = await ok(
      await admin.api.post('/api/rotations', {
        data: { name: `Demo Outbox ${Date.now()}`, description: '', type: 'fixed' },
      }),
      201,
    );
    await ok(
      await admin.api.post(`/api/rotations/${rotation.id}/on-call`, {
        data: { userId: dana.user.id, order: 0 },
      }),
    );
    await ok(await dana.api.post(`/api/rotations/${rotation.id}/take-oncall`));
    const message = `Queue backing up (${Date.now()})`;
    expect(
      await ok(
        await admin.api.post(`/api/rotations/${rotation.id}/page`, {
          data: { message, urgency: 'high' },
        }),
        201,
      ),
    ).toEqual({ sentTo: { name: 'Dana Demo' } });

    // API: the worker has tried it, and recorded why it was not sent.
    await expect
      .poll(
        async () => {
          const outbox = (await ok(await admin.api.get('/api/admin/notifications'))) as {
            to: string;
            kind: string;
            status: string;
            lastError: string | null;
          }[];
          const entry = outbox.find((e) => e.to === email && e.kind === 'page');
          return entry && { status: entry.status, lastError: entry.lastError };
        },
        { timeout: 20_000 },
      )
      .toEqual({
        status: 'failed',
        lastError: 'Email is not configured on this server (SMTP_URL).',
      });
    // There is no demo inbox on this server: nothing is kept.
    expect(await ok(await dana.api.get('/api/inbox'))).toEqual({
      demoInbox: false,
      messages: [],
      nextCursor: null,
    });
    await dana.api.dispose();
    await admin.api.dispose();

    // The screen: labelled as not sent for want of a channel, not as a red failure.
    // The layout asks once whether there is a demo inbox; here there is none, so no link to it.
    const asked = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/inbox');
    await login(accounts.admin, { origin: baseURL });
    await openDashboard(page, baseURL);
    expect((await (await asked).json()).demoInbox).toBe(false);
    await expect(page.getByRole('link', { name: 'Incidents', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Inbox', exact: true })).toHaveCount(0);
    await page.getByRole('link', { name: 'Notifications', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
    // (Dana's invitation is in the outbox too: the row of the page is the one with its subject.)
    const subject = `Page (high urgency): ${rotation.name}`;
    const row = page.getByRole('row').filter({ hasText: email }).filter({ hasText: subject });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Not sent: no channel', { exact: true })).toBeVisible();
    await expect(row.getByText('Email is not configured on this server (SMTP_URL).')).toBeVisible();
    await expect(row.getByText('failed', { exact: true })).toHaveCount(0);
    // Still counted where an administrator looks for what did not go out.
    await page.getByRole('tab', { name: 'Failed' }).click();
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Not sent: no channel', { exact: true })).toBeVisible();
  });
});
