/// <reference lib="webworker" />
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { clickTarget, isRepeat, notificationOf, readNotice } from './service-worker/notice';

/**
 * Baton's service worker (issue 33, decision 253), built by vite-plugin-pwa (injectManifest).
 * It precaches the build's hashed static files and answers only those: every other request, the
 * API above all, goes to the network as if it were not here (a stale "who is on call" is worse
 * than none). It shows a push as a notification, with Acknowledge (the signed one-time link,
 * posted without opening Baton) and Open (the incident).
 */

declare const self: ServiceWorkerGlobalScope & {
  /** the click handler, for the browser test to run on a shown notification */
  baton?: { handleClick: typeof handleClick };
};

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let json: unknown = null;
  try {
    json = event.data?.json() ?? null;
  } catch {
    json = null;
  }
  const notice = readNotice(json);
  event.waitUntil(
    (async () => {
      const same = notice?.tag ? await self.registration.getNotifications({ tag: notice.tag }) : [];
      const repeat = isRepeat(
        notice,
        same.map((n) => n.data),
      );
      const shown = notificationOf(notice, repeat);
      await self.registration.showNotification(shown.title, shown.options);
    })(),
  );
});

/**
 * handleClick does what a click on a notification asks: Acknowledge posts the signed link and
 * closes the notification (a failure shows a notification saying so, and keeps the incident one
 * click away); Open or the notification itself focuses a Baton window on the incident, or opens
 * one.
 */
async function handleClick(notification: Notification, action: string): Promise<void> {
  const target = clickTarget(notification.data, action, self.location.origin);
  notification.close();
  if (target.kind === 'acknowledge') {
    const answer = await fetch(target.url, { method: 'POST', credentials: 'omit' }).catch(
      () => null,
    );
    if (answer?.ok) return;
    const why = answer
      ? ((await answer.json().catch(() => null))?.message ?? `Baton answered ${answer.status}`)
      : 'Baton could not be reached';
    await self.registration.showNotification('Not acknowledged', {
      body: why,
      tag: notification.tag || undefined,
      icon: '/icons/icon-192.png',
      data: { open: (notification.data as { open?: string } | null)?.open ?? '/' },
    });
    return;
  }
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    await open.focus();
    await open.navigate(target.url).catch(() => null);
    return;
  }
  await self.clients.openWindow(target.url);
}

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(handleClick(event.notification, event.action));
});

self.baton = { handleClick };
