import { describe, expect, it } from 'vitest';
import type { PageRef, Person, PersonEvent, PersonEventOf } from './person-events';
import { PERSON_CHANNELS } from './person-registry';
import { pagePushOf } from './push-messages';

/**
 * What a push of a page says (issue 33, decision 253): the incident (summary, urgency, who raised
 * it), Acknowledge by the person's own signed link and Open the incident, as paths; any other
 * person event by the registry's default. Pure.
 */

const at = new Date('2026-11-29T03:00:00Z');
const person: Person = {
  id: 5,
  email: 'sam@example.com',
  phone: null,
  notificationPreference: 'email',
};
const page: PageRef = { id: 42, urgency: 'high' };
const words = {
  page,
  rotation: { id: 7, name: 'Payments' },
  pagerName: 'Grafana',
  message: 'Checkout is failing for 12% of requests',
  alert: null,
  severity: 'P1' as const,
  description: null,
};
const paged = { person, as: 'to', ackToken: '42.tokenOfSam', replyCode: null } as const;

const sent: PersonEventOf<'page'> = {
  type: 'page',
  key: 'page:42:sent',
  at,
  told: [paged],
  ...words,
  pagedAt: at,
};

describe('the push of a page', () => {
  it('names the incident and carries Acknowledge and Open', () => {
    expect(pagePushOf(sent, paged)).toEqual({
      title: 'Page (high urgency): Checkout is failing for 12% of requests',
      body: 'Payments, from Grafana',
      tag: 'incident-42',
      urgency: 'high',
      actions: [
        { action: 'acknowledge', title: 'Acknowledge' },
        { action: 'open', title: 'Open' },
      ],
      data: { open: '/incidents/42', acknowledge: '/api/pages/ack/42.tokenOfSam' },
    });
  });

  it('says a reminder and an escalation, keeps the urgency, and "Someone" for an unknown raiser', () => {
    const reminder: PersonEventOf<'page.reminder'> = {
      type: 'page.reminder',
      key: 'page:42:step:1:0:1',
      at,
      told: [paged],
      ...words,
      page: { id: 42, urgency: 'low' },
      pagerName: null,
      sentAt: at,
      escalatesAt: null,
    };
    expect(pagePushOf(reminder, paged)).toMatchObject({
      title: 'Reminder (low urgency): Checkout is failing for 12% of requests',
      body: 'Payments, from Someone',
      urgency: 'low',
      tag: 'incident-42',
    });
    const escalated: PersonEventOf<'page.escalated'> = {
      type: 'page.escalated',
      key: 'page:42:step:2:0:1',
      at,
      told: [paged],
      ...words,
      pagedAt: at,
      how: { kind: 'step', fromUserId: 2, fromName: 'Grace', reason: null, waitingSince: at },
    };
    expect(pagePushOf(escalated, paged)?.title).toBe(
      'Escalated page (high urgency): Checkout is failing for 12% of requests',
    );
  });

  it('shortens a long summary', () => {
    const long = { ...sent, message: 'x'.repeat(300) };
    expect(pagePushOf(long, paged)?.title.length).toBeLessThanOrEqual(120);
  });

  it('is none for an event that pages nobody; the registry then opens Baton with the subject', () => {
    const warning = {
      type: 'page.warning',
      told: [{ person, as: 'to' }],
    } as unknown as PersonEvent;
    expect(pagePushOf(warning, warning.told[0])).toBeUndefined();
    expect(
      PERSON_CHANNELS.push({ subject: 'Your shift moved', text: 'Long text', sms: 'Shift moved' }),
    ).toEqual({
      subject: 'Your shift moved',
      text: 'Your shift moved: Shift moved',
      body: {
        title: 'Your shift moved',
        body: 'Shift moved',
        actions: [{ action: 'open', title: 'Open' }],
        data: { open: '/' },
      },
    });
  });
});
