import { expect, test } from '@playwright/test';
import { type ChatReceiver, startChatReceiver } from '../setup/chat-receivers';
import { actAs, apiAs, createRotation, toast, uniqueName } from './rotation-support';
import { accounts } from './support';

/**
 * Chat and webhook destinations (issue 19, decision 221), on the server playwright.config.ts
 * starts. A manager adds a signed webhook destination to a rotation against a loopback receiver
 * this test starts, reads its signing secret once, sends a test event, and sees it delivered in
 * the delivery log; the receiver got exactly that one message, signed.
 */

let receiver: ChatReceiver;
test.beforeAll(async () => {
  receiver = await startChatReceiver('webhook');
});
test.afterAll(async () => {
  await receiver.close();
});

test('a manager adds a webhook destination, sends a test event and sees it delivered', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no baseURL');
  const { request } = playwright;
  const api = await apiAs(request, baseURL, accounts.manager);
  const rotation = await createRotation(api, uniqueName('Checkout'), [
    accounts.manager,
    accounts.noah,
  ]);
  await api.dispose();

  await actAs(page, request, baseURL, accounts.manager);
  await page.goto(`/rotations/${rotation.id}`);
  await expect(page.getByRole('heading', { name: 'Chat and webhooks', level: 2 })).toBeVisible();
  await expect(page.getByText('No destinations yet.', { exact: false })).toBeVisible();

  await page.getByRole('button', { name: 'Add destination' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add destination' });
  await dialog.getByRole('radio', { name: 'Webhook' }).check();
  // The shared schema's message, before anything is sent.
  await dialog.getByRole('button', { name: 'Add destination' }).click();
  await expect(dialog.getByText('Enter the webhook URL', { exact: true })).toBeVisible();
  await dialog.getByLabel('Webhook URL').fill(receiver.url);
  await dialog.getByRole('checkbox', { name: 'Handoffs' }).check();
  await dialog.getByRole('button', { name: 'Add destination' }).click();
  await expect(toast(page, 'Destination added')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The signing secret shows once.
  const secret = page.getByRole('code').filter({ hasText: 'whsec_' });
  await expect(secret).toBeVisible();
  await page.getByRole('button', { name: 'Hide secret' }).click();
  await expect(page.getByText('whsec_', { exact: false })).toHaveCount(0);

  const item = page.getByRole('list', { name: 'Destinations' }).getByRole('listitem');
  await expect(item.getByRole('heading', { name: 'Webhook', level: 3 })).toBeVisible();
  await item.getByRole('button', { name: 'Send test event' }).click();
  await expect(toast(page, 'Test event queued')).toBeVisible();
  await item.getByRole('button', { name: 'Delivery log' }).click();
  const log = page.getByRole('dialog', { name: 'Delivery log' });
  const delivered = log.getByRole('list', { name: 'Deliveries' }).getByRole('listitem');
  await expect(delivered).toHaveCount(1);
  await expect(delivered.getByText('Delivered', { exact: true })).toBeVisible({ timeout: 30_000 });
  expect(receiver.received).toHaveLength(1);
  expect((receiver.received[0].body as { type: string }).type).toBe('test');
  expect(String(receiver.received[0].headers['webhook-signature'])).toMatch(/^v1,/);
  await page.keyboard.press('Escape');

  // Settings → Integrations: the Webhooks card is connected and lists it, beside the four cards.
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Integrations' }).click();
  const webhooks = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { name: 'Webhooks', level: 3 }),
  });
  await expect(webhooks.getByText('Connected', { exact: true })).toBeVisible();
  await expect(webhooks.getByText(`for ${rotation.name}`)).toBeVisible();
  // Connect leads to a rotation's add form with the kind chosen.
  await page.getByRole('button', { name: 'Connect Microsoft Teams' }).click();
  await page
    .getByRole('combobox', { name: 'Rotation' })
    .first()
    .selectOption({ label: rotation.name });
  await page.getByRole('button', { name: 'Set up on this rotation' }).click();
  await expect(page).toHaveURL(new RegExp(`/rotations/${rotation.id}`));
  const form = page.getByRole('dialog', { name: 'Add destination' });
  await expect(form.getByRole('radio', { name: 'Microsoft Teams' })).toBeChecked();
});
