import { describe, expect, it } from 'vitest';
import { clickTarget, isRepeat, notificationOf, readNotice } from './notice';

/** What the service worker shows of a push and where a click goes (decision 253). Pure. */

const ORIGIN = 'https://baton.example.com';
const notice = {
  title: 'Page (high urgency): Checkout is failing',
  body: 'Payments, from Grafana',
  tag: 'incident-42',
  urgency: 'high',
  actions: [
    { action: 'acknowledge', title: 'Acknowledge' },
    { action: 'open', title: 'Open' },
  ],
  data: { open: '/incidents/42', acknowledge: '/api/pages/ack/42.token' },
};

describe('the notification of a push', () => {
  it('shows the notice, with its actions, staying for high urgency', () => {
    expect(notificationOf(readNotice(notice))).toEqual({
      title: notice.title,
      options: {
        body: notice.body,
        tag: 'incident-42',
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        requireInteraction: true,
        renotify: true,
        actions: notice.actions,
        data: notice.data,
      },
    });
    expect(
      notificationOf(readNotice({ ...notice, urgency: 'low' })).options.requireInteraction,
    ).toBe(false);
  });

  it('keeps only the known actions, and shows something for a push it cannot read', () => {
    const odd = {
      ...notice,
      actions: [{ action: 'delete-everything', title: 'Do it' }, notice.actions[1]],
    };
    expect(readNotice(odd)?.actions).toEqual([notice.actions[1]]);
    for (const bad of [null, 'text', { title: 'x' }, { ...notice, data: {} }]) {
      expect(readNotice(bad)).toBeNull();
    }
    expect(notificationOf(null)).toMatchObject({
      title: 'Baton',
      options: { body: 'You have a new notification.', actions: [], data: { open: '/' } },
    });
  });
});

describe('a push sent again (decision 284)', () => {
  const once = { ...notice, data: { ...notice.data, id: 'Zq1' } };

  it('is a repeat when a notification with its tag shows its id; it then does not alert again', () => {
    expect(readNotice(once)?.data.id).toBe('Zq1');
    expect(isRepeat(readNotice(once), [{ open: '/', id: 'Zq1' }])).toBe(true);
    expect(notificationOf(readNotice(once), true).options).toMatchObject({
      tag: 'incident-42',
      renotify: false,
    });
  });

  it('is not a repeat when nothing with its id shows (a reminder has its own): it alerts', () => {
    expect(isRepeat(readNotice(once), [])).toBe(false);
    expect(isRepeat(readNotice(once), [{ open: '/', id: 'other' }, null])).toBe(false);
    expect(isRepeat(readNotice(notice), [{ open: '/' }])).toBe(false);
    expect(isRepeat(null, [{ id: 'Zq1' }])).toBe(false);
    expect(notificationOf(readNotice(once), false).options.renotify).toBe(true);
  });
});

describe('a click', () => {
  it('Acknowledge posts the link on its own origin; Open and the body open the incident', () => {
    expect(clickTarget(notice.data, 'acknowledge', ORIGIN)).toEqual({
      kind: 'acknowledge',
      url: `${ORIGIN}/api/pages/ack/42.token`,
    });
    expect(clickTarget(notice.data, 'open', ORIGIN)).toEqual({
      kind: 'open',
      url: `${ORIGIN}/incidents/42`,
    });
    expect(clickTarget(notice.data, '', ORIGIN)).toEqual({
      kind: 'open',
      url: `${ORIGIN}/incidents/42`,
    });
  });

  it('never leaves its origin: another site opens Baton instead, and is never posted to', () => {
    const elsewhere = { open: 'https://evil.example/phish', acknowledge: '//evil.example/ack' };
    expect(clickTarget(elsewhere, 'acknowledge', ORIGIN)).toEqual({
      kind: 'open',
      url: `${ORIGIN}/`,
    });
    expect(clickTarget(null, 'open', ORIGIN)).toEqual({ kind: 'open', url: `${ORIGIN}/` });
  });
});
