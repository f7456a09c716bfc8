import { expect, test } from '@playwright/test';
import { type PushService, startPushService } from '../setup/push-service';
import { audit } from './accessibility-support';
import { animationsDone } from './axe';
import { actAs, apiAs } from './rotation-support';
import { accounts } from './support';

/**
 * Reaching the person (issue 33, decision 254), on the server playwright.config.ts starts (demo
 * mode: a channel without settings is the demo inbox, so a test is really sent through the
 * outbox's channel): Priya chooses her working hours on the profile and holds low urgency to
 * them, is refused without a working day, finds them again after a reload, and sends herself a
 * test email, whose outcome shows beside the button, and a second within the minute is refused;
 * with a device for push (at the loopback push service the server trusts), the card has its own
 * button, and its test arrives there.
 */

let service: PushService;
test.beforeAll(async () => {
  service = await startPushService(process.env.E2E_PUSH_TLS_DIR);
});
test.afterAll(async () => {
  await service?.close();
});

const DEFAULT = { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', holdLowUrgency: false };

test('a person sets working hours and sends a test on the profile', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no baseURL');
  const api = await apiAs(playwright.request, baseURL, accounts.priya);
  const me = (await (await api.get('/api/auth/user')).json()) as { user: { id: number } };
  await api.put(`/api/users/${me.user.id}/working-hours`, { data: DEFAULT });

  await actAs(page, playwright.request, baseURL, accounts.priya);
  await page.goto('/profile');
  const card = page.locator('form', { has: page.getByRole('group', { name: 'Working days' }) });
  await expect(page.getByRole('heading', { name: 'Working hours', level: 2 })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Monday' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // No working day: refused beside the days, nothing saved.
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
    await card.getByRole('button', { name: day }).click();
  }
  await card.getByRole('button', { name: 'Save working hours' }).click();
  await expect(card.getByText('Choose at least one working day').first()).toBeVisible();

  // Tuesday and Thursday, 08:30–16:00, low urgency held.
  await card.getByRole('button', { name: 'Tuesday' }).click();
  await card.getByRole('button', { name: 'Thursday' }).click();
  await card.getByLabel('From', { exact: true }).fill('08:30');
  await card.getByLabel('Until', { exact: true }).fill('16:00');
  await card
    .getByRole('checkbox', { name: 'Hold low-urgency pages until my working hours begin' })
    .check();
  await expect(card).toContainText(
    'Low urgency reaches you Tue, Thu, 08:30–16:00; outside them it waits.',
  );
  await animationsDone(page);
  expect(await audit(page, '/profile (working hours)')).toEqual([]);
  await card.getByRole('button', { name: 'Save working hours' }).click();
  await expect(
    page.getByText('Low-urgency pages outside them wait until they begin.', { exact: true }),
  ).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('group', { name: 'Working days' }).getByRole('button', { name: 'Thursday' }),
  ).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByLabel('From', { exact: true })).toHaveValue('08:30');
  const stored = await (await api.get(`/api/users/${me.user.id}/working-hours`)).json();
  expect(stored).toMatchObject({
    days: [2, 4],
    start: '08:30',
    end: '16:00',
    holdLowUrgency: true,
  });

  // Send a test: the outcome beside the button; a second within the minute is refused.
  await expect(page.getByRole('heading', { name: 'Test how Baton reaches you' })).toBeVisible();
  const sendEmail = page.getByRole('button', { name: 'Send a test email' });
  await sendEmail.click();
  const row = page.getByRole('listitem').filter({ has: sendEmail });
  await expect(row.getByRole('status')).toHaveText('Test email sent: check that it arrived.');
  await sendEmail.click();
  await expect(row.getByRole('status')).toContainText('One test by email a minute');

  // A device for push: its own button, and its test arrives at the push service.
  const created = await api.post(`/api/users/${me.user.id}/push-subscriptions`, {
    data: { ...service.subscribe().subscription, name: 'Priya test tablet' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const deviceId = ((await created.json()) as { id: number }).id;
  await page.reload();
  const sendPush = page.getByRole('button', { name: 'Send a test to Priya test tablet' });
  await sendPush.click();
  await expect(page.getByRole('listitem').filter({ has: sendPush }).getByRole('status')).toHaveText(
    'Test push sent to Priya test tablet: check that it arrived.',
  );
  expect(service.received).toHaveLength(1);
  expect(JSON.parse(service.received[0].text)).toMatchObject({ title: 'Baton test notification' });
  await api.delete(`/api/users/${me.user.id}/push-subscriptions/${deviceId}`);
  await api.put(`/api/users/${me.user.id}/working-hours`, { data: DEFAULT });
});
