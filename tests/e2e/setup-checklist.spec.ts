import { request } from '@playwright/test';
import { type BatonServer, freePorts, startBaton } from '../setup/baton-process';
import { startFakeTwilio } from '../setup/fake-twilio';
import { startSmtpServer } from '../setup/smtp-server';
import { expect, test } from './fixtures';
import { toast } from './rotation-support';
import { E2E_PASSWORD, ownOrigin } from './support';

/**
 * A new team's first day (issue 35, decision 258): an empty install (DEMO=0, one administrator
 * from ADMIN_EMAIL) walks its setup checklist, each step done on the screen it links to, to a
 * test page that arrives on the administrator's own phone (a loopback Twilio) and email (a real
 * SMTP conversation). The browser is in Paris, so the zone offered is Europe/Paris, not UTC.
 */

test.use({ timezoneId: 'Europe/Paris' });

const ADMIN = { email: 'ada.admin@example.com', name: 'Ada Admin' };
const NOOR = { email: 'noor.new@example.com', name: 'Noor New' };

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let baton: BatonServer | undefined;

test.beforeAll(async () => {
  // No demo seed: an empty database starts in seconds, but the machine may be loaded.
  test.setTimeout(150_000);
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio();
  baton = await startBaton({
    port: (await freePorts(1))[0],
    env: {
      DEMO: '0',
      ADMIN_EMAIL: ADMIN.email,
      LOCAL_LOGIN_PASSWORD: E2E_PASSWORD,
      SIGN_IN_RATE_LIMIT: '1000',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Baton <baton@example.com>',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+15550000000',
      TWILIO_API_BASE: twilio.apiBase,
    },
  });
});

test.afterAll(async () => {
  await baton?.stop();
  await smtp?.close();
  await twilio?.close();
});

test('an empty install walks the setup checklist to a test page on the administrator’s own phone and email', async ({
  page,
  login,
}) => {
  test.setTimeout(60_000);
  const BASE = baton?.url ?? '';
  await login(ADMIN, { origin: BASE });
  await page.goto(`${BASE}/`);
  const checklist = page.getByRole('region', { name: 'Set up Baton' });
  await expect(checklist.getByText('0 of 6 done')).toBeVisible();
  const step = (n: number, title: string, done: boolean) =>
    checklist.getByRole('heading', { name: `${n}. ${title} (${done ? 'done' : 'to do'})` });
  const back = async () => {
    await page.goto(`${BASE}/`);
    await expect(checklist).toBeVisible();
  };

  // The administrator's own zone is asked for, offered from the browser's, and saved.
  const you = checklist.getByRole('form', { name: 'Your phone and time zone' });
  await expect(you.getByRole('combobox', { name: 'Time zone' })).toHaveText('Europe/Paris');
  await you.getByLabel('Phone Number').fill('+1 555 010 0199');
  await you.getByRole('button', { name: 'Save phone and time zone' }).click();
  await expect(toast(page, 'Profile updated')).toBeVisible();
  await expect(you).toHaveCount(0);
  await expect(page.getByText('Times in Europe/Paris')).toBeVisible();
  await expect(step(2, 'People add their phone and time zone', true)).toBeVisible();

  // 1. Invite the team, on User Management.
  await checklist.getByRole('link', { name: 'Invite people' }).click();
  await page.getByRole('button', { name: 'Invite User' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite User' });
  await invite.getByLabel('Email').fill(NOOR.email);
  await invite.getByLabel('Name').fill(NOOR.name);
  await invite.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(toast(page, 'Invitation Sent')).toBeVisible();
  await back();
  await expect(step(1, 'Invite your team', true)).toBeVisible();
  // Until Noor joins and adds hers, not everyone has a phone and zone.
  await expect(step(2, 'People add their phone and time zone', false)).toBeVisible();

  // 2. Noor signs in from her invitation and adds her phone and zone.
  const noor = await request.newContext({ baseURL: BASE, extraHTTPHeaders: ownOrigin(BASE) });
  const signedIn = await noor.post('/api/auth/login', {
    data: { email: NOOR.email, password: E2E_PASSWORD },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  const { user } = (await signedIn.json()) as { user: { id: number } };
  const saved = await noor.patch(`/api/users/${user.id}`, {
    data: { phone: '+1 555 010 0142', timezone: 'America/Chicago' },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await noor.dispose();
  await back();
  await expect(step(2, 'People add their phone and time zone', true)).toBeVisible();

  // 3. A rotation with its members, on the rotation form.
  await checklist.getByRole('link', { name: 'New rotation' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Rotation' });
  await create.getByLabel('Name').fill('Payments');
  const order = create.getByRole('list', { name: 'Turn order' }).getByRole('listitem');
  for (const [at, person] of [ADMIN, NOOR].entries()) {
    await create.getByRole('combobox', { name: 'Add a member' }).click();
    await page.getByRole('listbox').getByRole('option', { name: person.name, exact: true }).click();
    await expect(order).toHaveCount(at + 1);
  }
  await create.getByRole('button', { name: 'Create Rotation' }).click();
  await expect(toast(page, 'Rotation created')).toBeVisible();
  await expect(page).toHaveURL(/\/rotations\/\d+$/);
  await back();
  await expect(step(3, 'Create a rotation with its members', true)).toBeVisible();
  await expect(step(4, 'Decide who is paged when nobody answers', false)).toBeVisible();

  // 4. The rotation's escalation policy made its own, in the policy editor.
  await checklist.getByRole('link', { name: 'Edit the escalation policy' }).click();
  await page
    .getByRole('group', { name: 'Step 1', exact: true })
    .getByLabel('Minutes before the next step')
    .fill('5');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(toast(page, 'Policy saved')).toBeVisible();
  await back();
  await expect(step(4, 'Decide who is paged when nobody answers', true)).toBeVisible();

  // 5. An integration, on the rotation's page.
  await checklist.getByRole('link', { name: 'Add an integration' }).click();
  await page.getByRole('button', { name: 'Add integration' }).click();
  const add = page.getByRole('dialog', { name: 'Add integration' });
  await add.getByLabel('Name').fill('Alertmanager');
  await add.getByRole('button', { name: 'Add integration' }).click();
  await expect(toast(page, 'Integration created')).toBeVisible();
  await back();
  await expect(step(5, 'Connect your monitoring', true)).toBeVisible();
  await expect(checklist.getByText('5 of 6 done')).toBeVisible();

  // 6. The test page, on the administrator's own phone and email.
  await checklist.getByRole('button', { name: 'Send a test page to me' }).click();
  // With its last step done, the checklist says so.
  const done = page.getByRole('region', { name: 'Baton is set up' });
  const outcomes = done.getByRole('list', { name: 'Test page outcomes' });
  await expect(outcomes).toContainText('Email: Test email sent: check that it arrived.');
  await expect(outcomes).toContainText('SMS: Test SMS sent: check that it arrived.');
  await expect(done.getByText('6 of 6 done')).toBeVisible();
  const mail = smtp.received.find((m) => m.to.includes(ADMIN.email));
  expect(mail?.raw).toContain('Subject: Baton test notification');
  expect(mail?.raw).toContain('This is a test from Baton');
  expect(twilio.sent).toEqual([
    expect.objectContaining({
      to: '+15550100199',
      body: expect.stringContaining('test from Baton'),
    }),
  ]);

  // Dismissed, it stays dismissed.
  await done.getByRole('button', { name: 'Dismiss the setup checklist' }).click();
  await expect(toast(page, 'Setup checklist dismissed')).toBeVisible();
  await expect(done).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your Rotations' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Set up Baton|Baton is set up/ })).toHaveCount(0);
});
