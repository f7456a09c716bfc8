import { expect, test } from '@playwright/test';
import type { PushNotice } from '../../src/shared/contracts/push';
import { type PushService, startPushService } from '../setup/push-service';
import { actAs, apiAs, createRotation } from './rotation-support';
import { accounts, FULL_CHROMIUM } from './support';

/**
 * Push to the installable app (issue 33, decisions 253 and 266), in Chromium against the server
 * playwright.config.ts starts, which trusts the loopback push service's certificate: the
 * manifest and the service worker, which answers no API request; then a page to Sam by a push
 * rule goes from the server's outbox, encrypted and VAPID-signed, to the loopback push service
 * (this headless browser cannot subscribe to a real one: no internet); that very message is
 * delivered to the service worker through the DevTools protocol, the worker shows it with
 * Acknowledge and Open (really shown: the registration lists it), and its own click handler,
 * given that shown notification and the action 'acknowledge', acknowledges the incident by the
 * signed link.
 *
 * This spec runs in Debian's full Chromium (/usr/bin/chromium, the new headless mode), not the
 * headless shell the other specs use: the shell refuses showNotification whatever the permission,
 * the full browser keeps what is shown in its own tray. No headless Chromium can click a tray
 * notification (decision 266), so the click is the worker's own handler called on it.
 */

test.use({
  serviceWorkers: 'allow',
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({ ...launchOptions, executablePath: FULL_CHROMIUM });
    },
    { scope: 'worker' },
  ],
});

let service: PushService;
test.beforeAll(async () => {
  service = await startPushService(process.env.E2E_PUSH_TLS_DIR);
});
test.afterAll(async () => {
  await service?.close();
});

test('the installable app: manifest, service worker, a push shown and acknowledged from its notification', async ({
  page,
  context,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no baseURL');
  const origin = new URL(baseURL).origin;

  // The manifest and its icons.
  const manifest = await (await page.request.get('/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({ name: 'Baton', short_name: 'Baton', display: 'standalone' });
  expect(
    manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`),
  ).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  for (const icon of manifest.icons as { src: string }[]) {
    const res = await page.request.get(icon.src);
    expect(res.headers()['content-type'], icon.src).toBe('image/png');
  }

  // Sam: push at once for high urgency, to one device at the loopback push service.
  const sam = await apiAs(playwright.request, baseURL, accounts.sam);
  const me = (await (await sam.get('/api/auth/user')).json()) as { user: { id: number } };
  const rules = await sam.put(`/api/users/${me.user.id}/notification-rules`, {
    data: {
      high: [{ method: 'push', delayMinutes: 0 }],
      low: [{ method: 'email', delayMinutes: 0 }],
    },
  });
  expect(rules.status(), await rules.text()).toBe(200);
  const device = await sam.post(`/api/users/${me.user.id}/push-subscriptions`, {
    data: { ...service.subscribe().subscription, name: 'Loopback device' },
  });
  expect(device.status(), await device.text()).toBe(201);
  const deviceId = ((await device.json()) as { id: number }).id;

  // The service worker registers, and answers no API request.
  await context.grantPermissions(['notifications'], { origin });
  await actAs(page, playwright.request, baseURL, accounts.sam);
  await page.goto('/profile');
  // A browser with a notification tray: the permission granted holds (the shell says 'denied').
  expect(await page.evaluate(() => Notification.permission)).toBe('granted');
  const scriptURL = await page.evaluate(
    async () => (await navigator.serviceWorker.ready).active?.scriptURL,
  );
  expect(scriptURL).toBe(`${origin}/sw.js`);
  const worker = context.serviceWorkers().find((w) => w.url() === `${origin}/sw.js`);
  if (!worker) throw new Error('no service worker');
  const answered = page.waitForResponse(
    (r) => r.url().includes('/api/users/') && r.url().includes('push-subscriptions'),
  );
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  expect((await answered).fromServiceWorker()).toBe(false);
  const cached = await worker.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
  expect(cached.filter((u) => u.includes('/api/'))).toEqual([]);

  // The devices card lists the device; this browser can take pushes.
  const card = page.getByRole('list', { name: 'Devices for push' });
  await expect(card.getByText('Loopback device')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notify this device' })).toBeVisible();

  // A page to Sam goes by push: the server's message, encrypted and signed, at the push service.
  const manager = await apiAs(playwright.request, baseURL, accounts.manager);
  const rotation = await createRotation(manager, `Push drill ${Date.now()}`, [accounts.sam]);
  expect((await sam.post(`/api/rotations/${rotation.id}/take-oncall`)).ok()).toBe(true);
  const raised = await manager.post('/api/incidents', {
    data: { rotationId: rotation.id, title: 'Checkout is failing', urgency: 'high' },
  });
  expect(raised.status(), await raised.text()).toBe(201);
  const incidentId = ((await raised.json()) as { id: number }).id;
  await expect.poll(() => service.received.length, { timeout: 20_000 }).toBe(1);
  expect(service.refused).toEqual([]);
  const [push] = service.received;
  const notice = JSON.parse(push.text) as PushNotice;
  expect(notice.title).toContain('Checkout is failing');
  expect(notice.data.open).toBe(`/incidents/${incidentId}`);

  // That message, delivered to the service worker: it shows it with Acknowledge and Open, in
  // this Chromium's own notification tray, which the worker's registration lists.
  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.some((r) => r.scopeURL === `${origin}/`)).toBe(true);
  const registrationId =
    registrations.find((r) => r.scopeURL === `${origin}/`)?.registrationId ?? '';
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: push.text });
  const shown = () =>
    worker.evaluate(async () =>
      (await (self as unknown as ServiceWorkerGlobalScope).registration.getNotifications()).map(
        (n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          actions: (n as Notification & { actions: { title: string }[] }).actions.map(
            (a) => a.title,
          ),
          data: n.data,
        }),
      ),
    );
  await expect.poll(async () => (await shown()).length).toBe(1);
  expect((await shown())[0]).toMatchObject({
    title: notice.title,
    body: notice.body,
    tag: `incident-${incidentId}`,
    actions: ['Acknowledge', 'Open'],
    data: { open: `/incidents/${incidentId}` },
  });

  // Its Acknowledge, by the worker's own click handler: the signed link, no page opened.
  const pagesBefore = context.pages().length;
  await worker.evaluate(async () => {
    const scope = self as unknown as ServiceWorkerGlobalScope & {
      baton: { handleClick: (n: Notification, action: string) => Promise<void> };
    };
    const [notification] = await scope.registration.getNotifications();
    await scope.baton.handleClick(notification, 'acknowledge');
  });
  expect(await shown()).toEqual([]);
  expect(context.pages()).toHaveLength(pagesBefore);
  const incident = await (await manager.get(`/api/incidents/${incidentId}`)).json();
  expect(incident.status).toBe('acknowledged');

  // Clean up: Sam's device and rules.
  await sam.delete(`/api/users/${me.user.id}/push-subscriptions/${deviceId}`);
  await sam.delete(`/api/users/${me.user.id}/notification-rules`);
  await sam.dispose();
  await manager.dispose();
});
