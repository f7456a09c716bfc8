import { ApiRequestError } from '@/lib/api-client';

/**
 * Whether this browser can receive Baton's pushes (decision 253), and how it subscribes: the
 * Push API through the service worker's registration, with Baton's VAPID public key. Without
 * support the card says why in words, never a broken button.
 */

/** Why this browser cannot take pushes, or null when it can. */
export function pushUnsupportedReason(win: Window = window): string | null {
  if (!win.isSecureContext) {
    return 'Push needs Baton to be opened over https.';
  }
  const nav = win.navigator;
  const apple = /iPhone|iPad|iPod/.test(nav.userAgent);
  if (!('serviceWorker' in nav) || !('PushManager' in win) || !('Notification' in win)) {
    return apple
      ? 'On iPhone and iPad, add Baton to the Home Screen (Share, then Add to Home Screen) and open it from there to turn on push.'
      : 'This browser cannot receive push notifications. Use a current Chrome, Edge, Firefox or Safari.';
  }
  return null;
}

export const NOTIFICATIONS_BLOCKED =
  "Notifications are blocked for Baton in this browser's settings. Allow them there, then come back.";

/**
 * watchNotificationsBlocked tells whether notifications are blocked for Baton, now and when the
 * person changes it, by the Permissions API (Notification.permission where it is missing); its
 * answer stops watching.
 */
export function watchNotificationsBlocked(onChange: (blocked: boolean) => void): () => void {
  let status: PermissionStatus | null = null;
  let stopped = false;
  const update = () => onChange(status?.state === 'denied');
  if (!navigator.permissions) {
    onChange(Notification.permission === 'denied');
    return () => {};
  }
  navigator.permissions
    .query({ name: 'notifications' })
    .then((s) => {
      if (stopped) return;
      status = s;
      status.addEventListener('change', update);
      update();
    })
    .catch(() => onChange(Notification.permission === 'denied'));
  return () => {
    stopped = true;
    status?.removeEventListener('change', update);
  };
}

/** base64urlBytes: a base64url text (a VAPID public key) as the bytes `subscribe` takes. */
export function base64urlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Why this device could not be set up, in words for the person. */
export class PushSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PushSetupError';
  }
}

/**
 * setupFailure: what to tell of a failed "Notify this device": Baton's words, or the browser's
 * when its push service refused (no network, a push service that is not reachable).
 */
export function setupFailure(error: unknown): string | null {
  if (error instanceof PushSetupError) return error.message;
  if (error instanceof Error && !(error instanceof ApiRequestError)) {
    return `The browser could not subscribe with its push service: ${error.message}`;
  }
  return null;
}

/** How long to wait for the service worker before saying it is not running. */
const READY_MS = 10_000;

/** serviceWorkerReady: the active registration, or an error saying the worker is not running. */
export async function serviceWorkerReady(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new PushSetupError(
            "Baton's service worker is not running in this browser (a development server has none). Reload the page and try again.",
          ),
        ),
      READY_MS,
    );
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The device id this browser was saved as, kept to mark it "This device" in the list. */
const THIS_DEVICE_KEY = 'baton.pushDeviceId';
export const thisDeviceId = (): number | null => {
  const kept = Number(localStorage.getItem(THIS_DEVICE_KEY));
  return Number.isInteger(kept) && kept > 0 ? kept : null;
};
export const rememberThisDevice = (id: number | null) =>
  id === null
    ? localStorage.removeItem(THIS_DEVICE_KEY)
    : localStorage.setItem(THIS_DEVICE_KEY, String(id));

/**
 * subscribeThisBrowser asks for permission and subscribes this browser with Baton's key; answers
 * the subscription as `toJSON()` gives it, or throws with why in words.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscriptionJSON> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new PushSetupError(
      permission === 'denied'
        ? "Notifications are blocked for Baton in this browser's settings."
        : 'Allow notifications when the browser asks, to be notified on this device.',
    );
  }
  const registration = await serviceWorkerReady();
  const key = base64urlBytes(publicKey);
  const existing = await registration.pushManager.getSubscription();
  // A subscription made with another key (Baton's key was replaced) cannot be used: renew it.
  if (existing && !sameKey(existing.options.applicationServerKey, key)) {
    await existing.unsubscribe();
  }
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key,
    }));
  return subscription.toJSON();
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/** unsubscribeThisBrowser ends this browser's subscription (its device was removed here). */
export async function unsubscribeThisBrowser(): Promise<void> {
  const registration = await navigator.serviceWorker?.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
}
