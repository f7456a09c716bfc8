import { describe, expect, test } from 'vitest';
import {
  batonPassedMessage,
  coverageOutcomeMessage,
  coverageRequestedMessage,
  formatWhen,
  invitationEmail,
  type MessageContent,
  onCallTakenMessage,
  pageAcknowledgedNotice,
  pageEscalatedNotice,
  pageEscalatedToYouMessage,
  pageMessage,
  pageReminderMessage,
  pageResolvedNotice,
  pageWarningMessage,
  publicBaseUrl,
  reassignedAwayMessage,
  reassignedToYouMessage,
} from './messages';

const baseUrl = 'https://baton.example.test';
const rotation = { id: 7, name: 'Platform <Primary>' };
const at = new Date('2026-11-02T12:00:00Z');
const ackUrl = `${baseUrl}/pages/ack/5.${'x'.repeat(43)}`;
const page = {
  baseUrl,
  rotation,
  pagerName: 'Morgan Manager',
  message: 'Checkout <b>down</b> & queue lag',
  urgency: 'high' as const,
  ackUrl,
  createdAt: at,
  timeZone: 'UTC',
};

const all: [string, MessageContent][] = [
  ['pass', batonPassedMessage({ baseUrl, rotation, fromName: 'Olivia', notes: 'a'.repeat(900) })],
  ['take', onCallTakenMessage({ baseUrl, rotation, takerName: 'Noah' })],
  [
    'reassign to',
    reassignedToYouMessage({ baseUrl, rotation, actorName: 'M', previousName: 'O', notes: null }),
  ],
  [
    'reassign away',
    reassignedAwayMessage({ baseUrl, rotation, actorName: 'M', nextName: 'N', notes: 'n' }),
  ],
  [
    'coverage',
    coverageRequestedMessage({
      baseUrl,
      rotation,
      requesterName: 'O',
      startAt: at,
      endAt: at,
      notes: null,
      timeZone: 'Europe/London',
    }),
  ],
  [
    'coverage outcome',
    coverageOutcomeMessage({
      baseUrl,
      rotation,
      coveringName: 'N',
      outcome: 'declined',
      startAt: at,
      endAt: at,
      timeZone: 'UTC',
    }),
  ],
  ['page', pageMessage({ ...page, message: 'm'.repeat(2000) })],
  ['reminder', pageReminderMessage({ ...page, escalatesAt: at })],
  [
    'escalated',
    pageEscalatedToYouMessage({ ...page, fromName: 'O', reason: 'flight', escalatedAt: at }),
  ],
  [
    'warning',
    pageWarningMessage({
      baseUrl,
      rotation,
      targetName: 'O',
      message: 'm',
      sentAt: at,
      escalation: null,
      timeZone: 'UTC',
    }),
  ],
  [
    'escalation notice',
    pageEscalatedNotice({
      baseUrl,
      rotation,
      fromName: 'O',
      toName: 'N',
      reason: 'r',
      automatic: true,
    }),
  ],
  ['acknowledged', pageAcknowledgedNotice({ baseUrl, rotation, byName: 'O', at, timeZone: 'UTC' })],
  ['resolved', pageResolvedNotice({ baseUrl, rotation, byName: 'M', message: 'm' })],
  [
    'invitation',
    invitationEmail({ name: 'Nina', email: 'n@example.com', role: 'admin' }, `${baseUrl}/invite/t`),
  ],
];

describe.each(all)('%s', (_, mail) => {
  test('both bodies link back to Baton; people’s text is escaped in HTML; the SMS is short', () => {
    expect(mail.text).toContain(baseUrl);
    expect(mail.html).toContain(`href="${baseUrl}`);
    expect(mail.html).not.toMatch(/<b>|<Primary>/);
    expect(mail.sms.length).toBeLessThanOrEqual(600);
    // ASCII subjects: no encoded words in the mail headers.
    expect(mail.subject).toMatch(/^[\x20-\x7e]+$/);
  });
});

test('the page carries the message, the urgency and the acknowledgement link', () => {
  const mail = pageMessage(page);
  expect(mail.subject).toBe(
    'Page (high urgency): Platform <Primary>: Checkout <b>down</b> & queue lag',
  );
  expect(mail.text).toContain('> Checkout <b>down</b> & queue lag');
  expect(mail.text).toContain(`Acknowledge page: ${ackUrl}`);
  expect(mail.html).toContain('Checkout &lt;b&gt;down&lt;/b&gt; &amp; queue lag');
  expect(mail.html).toContain(`href="${ackUrl}"`);
  expect(mail.sms).toBe(
    `Baton PAGE (High) Platform <Primary> from Morgan Manager: Checkout <b>down</b> & queue lag Ack: ${ackUrl}`,
  );
});

test('publicBaseUrl is PUBLIC_URL, else localhost with the port', () => {
  expect(publicBaseUrl({ publicUrl: 'https://baton.example.com/', port: 3000 })).toBe(
    'https://baton.example.com',
  );
  expect(publicBaseUrl({ port: 8080 })).toBe('http://localhost:8080');
  expect(publicBaseUrl()).toBe('http://localhost:3000');
});

test('formatWhen writes the reader’s zone, and falls back to UTC for an unknown zone', () => {
  expect(formatWhen(at, 'Asia/Tokyo')).toBe('Mon, Nov 2, 2026, 9:00 PM GMT+9');
  expect(formatWhen(at, 'Not/AZone')).toBe('Mon, Nov 2, 2026, 12:00 PM UTC');
});
