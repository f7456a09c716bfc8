import type { PushNotice } from '@shared/contracts/push';

/**
 * What the service worker makes of a push (issue 33, decision 253), apart from the browser's
 * APIs so a unit test reads it: the notification's title and options from the notice Baton sent,
 * and where a click goes. The links are paths, resolved on the service worker's own origin: a
 * push can only make Baton's own app call Baton.
 */

/** The options of `showNotification` this code sets (a subset of the DOM's, for both scopes). */
export interface ShownNotification {
  title: string;
  options: {
    body: string;
    tag?: string;
    icon: string;
    badge: string;
    requireInteraction: boolean;
    renotify: boolean;
    actions: { action: string; title: string }[];
    data: PushNotice['data'];
  };
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** readNotice reads a push's JSON as a notice, or null when it is not one. */
export function readNotice(json: unknown): PushNotice | null {
  if (typeof json !== 'object' || json === null) return null;
  const n = json as Record<string, unknown>;
  const data = n.data as Record<string, unknown> | undefined;
  if (!isText(n.title) || !isText(n.body) || !data || !isText(data.open)) return null;
  const actions = Array.isArray(n.actions)
    ? n.actions.filter(
        (a): a is PushNotice['actions'][number] =>
          (a?.action === 'acknowledge' || a?.action === 'open') && isText(a.title),
      )
    : [];
  return {
    title: n.title,
    body: n.body,
    tag: isText(n.tag) ? n.tag : undefined,
    urgency:
      n.urgency === 'high' || n.urgency === 'medium' || n.urgency === 'low' ? n.urgency : undefined,
    actions,
    data: {
      open: data.open,
      acknowledge: isText(data.acknowledge) ? data.acknowledge : undefined,
      id: isText(data.id) ? data.id : undefined,
    },
  };
}

/** The notification when a push cannot be read: Baton has something, open it. */
const UNREADABLE: PushNotice = {
  title: 'Baton',
  body: 'You have a new notification.',
  actions: [],
  data: { open: '/' },
};

/**
 * isRepeat: the notice is one the device already shows (`shown`, the data of the notifications
 * with its tag), sent again after its answer was lost (decision 284).
 */
export function isRepeat(notice: PushNotice | null, shown: readonly unknown[]): boolean {
  const id = notice?.data.id;
  return id !== undefined && shown.some((data) => (data as { id?: unknown } | null)?.id === id);
}

/**
 * notificationOf: what to show for a notice (or an unreadable push). A repeat replaces the one
 * shown without alerting again.
 */
export function notificationOf(notice: PushNotice | null, repeat = false): ShownNotification {
  const n = notice ?? UNREADABLE;
  return {
    title: n.title,
    options: {
      body: n.body,
      tag: n.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      // A high-urgency page stays until it is answered; a reminder of it alerts again.
      requireInteraction: n.urgency === 'high',
      renotify: Boolean(n.tag) && !repeat,
      actions: n.actions,
      data: n.data,
    },
  };
}

/** What a click on the notification does: acknowledge by the link, or open a page. */
export type ClickTarget = { kind: 'acknowledge'; url: string } | { kind: 'open'; url: string };

/**
 * clickTarget: the Acknowledge action posts the link (no page opened); Open, or a click on the
 * notification itself, opens the incident. Paths resolve on `origin`; anything that would leave
 * it opens Baton's home instead.
 */
export function clickTarget(data: unknown, action: string, origin: string): ClickTarget {
  const d = (data ?? {}) as Partial<PushNotice['data']>;
  const onOrigin = (path: unknown) => {
    if (!isText(path)) return null;
    const url = new URL(path, origin);
    return url.origin === origin ? url.href : null;
  };
  if (action === 'acknowledge') {
    const ack = onOrigin(d.acknowledge);
    if (ack) return { kind: 'acknowledge', url: ack };
  }
  return { kind: 'open', url: onOrigin(d.open) ?? new URL('/', origin).href };
}
