import { describe, expect, test } from 'vitest';
import { escapeHtml, formatWhen, type MessageContent } from './message-layout';
import {
  acknowledgementMissedMessage,
  autoTransferAwayMessage,
  autoTransferToYouMessage,
  batonArrivedMessage,
  batonLeftMessage,
  batonPassedMessage,
  coverArrangedMessage,
  coverageNotStartedMessage,
  coverageOutcomeMessage,
  coverageRequestedMessage,
  emergencyAcknowledgedMessage,
  handoffDueMessage,
  handoffEscalationMessage,
  handoffNoticeMessage,
  invitationEmail,
  type MessageContext,
  onCallTakenMessage,
  pageAcknowledgedNotice,
  pageBackupMessage,
  pageEscalatedNotice,
  pageEscalatedToYouMessage,
  pageMessage,
  pageReminderMessage,
  pageResolvedNotice,
  pageWarningMessage,
  publicBaseUrl,
  reassignedAwayMessage,
  reassignedToYouMessage,
  smsReplyAnswer,
  timeOffCollisionMessage,
  timeOffGapMessage,
} from './messages';

const baseUrl = 'https://baton.example.test';
const rotation = { id: 7, name: 'Platform <Primary>' };
const at = new Date('2026-11-02T12:00:00Z');
const ackUrl = `${baseUrl}/pages/ack/5.${'x'.repeat(43)}`;
const page = {
  baseUrl,
  rotation,
  incidentId: 5,
  severity: 'P1' as const,
  description: 'Checkout fails for 12% of requests.\nRunbook: https://wiki.example/checkout',
  pagerName: 'Morgan Manager',
  message: 'Checkout <b>down</b> & queue lag',
  urgency: 'high' as const,
  ackUrl,
  createdAt: at,
  timeZone: 'UTC',
};

/** A reader of the handoff flow's messages, in UTC. */
const c: MessageContext = { baseUrl, rotation, timeZone: 'UTC' };
const later = new Date('2026-11-02T13:00:00Z');

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
      incidentId: 5,
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
      incidentId: 5,
      fromName: 'O',
      toName: 'N',
      reason: 'r',
      automatic: true,
    }),
  ],
  [
    'acknowledged',
    pageAcknowledgedNotice({
      baseUrl,
      rotation,
      incidentId: 5,
      byName: 'O',
      at,
      timeZone: 'UTC',
    }),
  ],
  ['resolved', pageResolvedNotice({ baseUrl, rotation, incidentId: 5, byName: 'M', message: 'm' })],
  [
    'invitation',
    invitationEmail({ name: 'Nina', email: 'n@example.com', role: 'admin' }, `${baseUrl}/invite/t`),
  ],
  [
    'invitation with its expiry',
    invitationEmail(
      { name: 'Nina', email: 'n@example.com', role: 'admin', expiresAt: later },
      `${baseUrl}/invite/t`,
    ),
  ],
  ['handoff notice', handoffNoticeMessage({ ...c, boundary: at, role: 'holder', otherName: 'N' })],
  [
    'handoff notice (next)',
    handoffNoticeMessage({ ...c, boundary: at, role: 'next', otherName: null }),
  ],
  [
    'schedule notice',
    handoffNoticeMessage({ ...c, scheduled: true, boundary: at, role: 'holder', otherName: 'N' }),
  ],
  [
    'schedule notice (gap)',
    handoffNoticeMessage({ ...c, scheduled: true, boundary: at, role: 'holder', otherName: null }),
  ],
  [
    'schedule notice (next)',
    handoffNoticeMessage({ ...c, scheduled: true, boundary: at, role: 'next', otherName: 'O' }),
  ],
  [
    'handoff due',
    handoffDueMessage({ ...c, boundary: at, role: 'holder', otherName: 'N', autoAt: later }),
  ],
  [
    'handoff due (next)',
    handoffDueMessage({ ...c, boundary: at, role: 'next', otherName: null, autoAt: later }),
  ],
  [
    'handoff escalation',
    handoffEscalationMessage({
      ...c,
      boundary: at,
      autoAt: later,
      holderName: 'O',
      nextName: null,
    }),
  ],
  ['automatic transfer to you', autoTransferToYouMessage({ ...c, fromName: 'O' })],
  ['automatic transfer away', autoTransferAwayMessage({ ...c, toName: null })],
  ['baton arrived', batonArrivedMessage({ ...c, reason: 'schedule', until: later })],
  ['baton back', batonArrivedMessage({ ...c, reason: 'coverage_end', until: null })],
  ['baton left', batonLeftMessage({ ...c, reason: 'coverage', toName: 'N' })],
  ['coverage not started', coverageNotStartedMessage({ ...c, requesterName: 'O', start: at })],
  ...(['covering', 'requester'] as const).map((role): [string, MessageContent] => [
    `cover arranged (${role})`,
    coverArrangedMessage({
      ...c,
      role,
      arrangerName: 'M',
      requesterName: 'O',
      coveringName: 'N',
      startAt: at,
      endAt: later,
      notes: 'Ill',
    }),
  ]),
  ['acknowledgement missed', acknowledgementMissedMessage({ ...c, toName: 'N', urgent: true })],
  ['emergency acknowledged', emergencyAcknowledgedMessage({ ...c, toName: 'N' })],
  ['gap ahead', timeOffGapMessage({ ...c, start: at, end: later })],
  [
    'time off collides with an entry',
    timeOffCollisionMessage({
      ...c,
      personName: 'O',
      entryStart: at,
      entryEnd: later,
      awayStart: at,
      awayEnd: later,
    }),
  ],
];

/** A time as formatWhen writes it ('9:00 PM'), which only the catalog's times contain here. */
const A_TIME = /\b\d{1,2}:\d{2} [AP]M\b/;

describe.each(all)('%s', (_, mail) => {
  test('both bodies link back to Baton; people’s text is escaped in HTML; the SMS is short', () => {
    expect(mail.text).toContain(baseUrl);
    expect(mail.html).toContain(`href="${baseUrl}`);
    expect(mail.html).not.toMatch(/<b>|<Primary>/);
    expect(mail.sms.length).toBeLessThanOrEqual(600);
    // ASCII subjects: no encoded words in the mail headers.
    expect(mail.subject).toMatch(/^[\x20-\x7e]+$/);
  });

  test('the email and the SMS say the zone of the times they show, and only then', () => {
    expect(/Times are in \S+\./.test(mail.text)).toBe(A_TIME.test(mail.text));
    expect(/Times are in \S+\.<\/p>/.test(mail.html)).toBe(A_TIME.test(mail.text));
    expect(/ Times in \S+\.$/.test(mail.sms)).toBe(A_TIME.test(mail.sms));
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

test('every email about an incident links it and states its severity and description (decision 261)', () => {
  const incidentLink = `${baseUrl}/incidents/5`;
  for (const mail of [
    pageMessage(page),
    pageReminderMessage({ ...page, escalatesAt: null }),
    pageEscalatedToYouMessage({ ...page, fromName: 'O', reason: 'flight', escalatedAt: at }),
    pageBackupMessage({ ...page, holderName: 'Olivia', backupUntil: null }),
  ]) {
    expect(mail.text).toContain(`Open the incident: ${incidentLink}`);
    expect(mail.html).toContain(`href="${incidentLink}"`);
    expect(mail.text).toContain('Severity: P1 · Critical');
    expect(mail.text).toContain('Description: Checkout fails for 12% of requests.');
    expect(mail.html).toContain('Runbook: https://wiki.example/checkout');
  }
  const notices = [
    pageAcknowledgedNotice({ baseUrl, rotation, incidentId: 5, byName: 'O', at, timeZone: 'UTC' }),
    pageResolvedNotice({ baseUrl, rotation, incidentId: 5, byName: 'M', message: 'm' }),
    pageEscalatedNotice({
      baseUrl,
      rotation,
      incidentId: 5,
      fromName: 'O',
      toName: 'N',
      reason: 'r',
      automatic: true,
    }),
  ];
  for (const mail of notices)
    expect(mail.text).toContain(`See the incident in Baton: ${incidentLink}`);
  // The SMS stays as it was: no description, the acknowledgement link.
  expect(pageMessage(page).sms).not.toContain('Checkout fails');
  // Without a description there is no such row.
  expect(pageMessage({ ...page, description: null }).text).not.toContain('Description:');
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

test('escapeHtml escapes the five characters that matter in text and quoted attributes', () => {
  expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
    '&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;',
  );
});

describe('times are in the reader’s profile zone, and say it', () => {
  const berlin: MessageContext = { ...c, timeZone: 'Europe/Berlin' };

  test('a handoff email and its SMS', () => {
    const mail = handoffNoticeMessage({ ...berlin, boundary: at, role: 'holder', otherName: 'N' });
    // 12:00 UTC is 1:00 PM in Berlin (CET, GMT+1).
    expect(mail.subject).toBe(
      'Handoff soon: your on-call shift for Platform <Primary> ends Mon, Nov 2, 2026, 1:00 PM GMT+1',
    );
    expect(mail.text).toContain('ends at Mon, Nov 2, 2026, 1:00 PM GMT+1.');
    expect(mail.text).toContain('\n\nTimes are in Europe/Berlin.\n\n');
    expect(mail.html).toContain('Times are in Europe/Berlin.</p>');
    expect(mail.sms).toBe(
      'Baton: your Platform <Primary> shift ends Mon, Nov 2, 2026, 1:00 PM GMT+1. Pass the baton with notes. Times in Europe/Berlin.',
    );
  });

  test('a scheduled-handoff notice', () => {
    const mail = handoffNoticeMessage({
      ...berlin,
      scheduled: true,
      boundary: at,
      role: 'next',
      otherName: 'Olivia',
    });
    expect(mail.text).toContain(
      'Your scheduled on-call shift for Platform <Primary> starts at Mon, Nov 2, 2026, 1:00 PM GMT+1.',
    );
    expect(mail.text).toContain('Times are in Europe/Berlin.');
    expect(mail.sms).toBe(
      'Baton: your Platform <Primary> shift starts Mon, Nov 2, 2026, 1:00 PM GMT+1. Times in Europe/Berlin.',
    );
  });

  test('a page SMS that shows a time says its zone; one that shows none is unchanged', () => {
    const warning = pageWarningMessage({
      ...berlin,
      incidentId: 5,
      targetName: 'Olivia',
      message: 'Checkout down',
      sentAt: at,
      escalation: { at: later, toName: 'Noah' },
    });
    expect(warning.sms).toBe(
      'Baton WARNING: your page for Platform <Primary> is not acknowledged yet. Unless it is acknowledged, it escalates to Noah at Mon, Nov 2, 2026, 2:00 PM GMT+1. Times in Europe/Berlin.',
    );
    expect(warning.text).toContain('Times are in Europe/Berlin.');
    const paged = pageMessage({ ...page, timeZone: 'Europe/Berlin' });
    expect(paged.text).toContain('Sent: Mon, Nov 2, 2026, 1:00 PM GMT+1');
    expect(paged.text).toContain('Times are in Europe/Berlin.');
    expect(paged.sms).not.toContain('Times in');
  });

  test('a coverage email', () => {
    const mail = coverageRequestedMessage({
      ...berlin,
      requesterName: 'Olivia',
      startAt: at,
      endAt: later,
      notes: null,
    });
    expect(mail.text).toContain(
      'From: Mon, Nov 2, 2026, 1:00 PM GMT+1\nUntil: Mon, Nov 2, 2026, 2:00 PM GMT+1',
    );
    expect(mail.text).toContain('Times are in Europe/Berlin.');
    expect(mail.html).toContain('Times are in Europe/Berlin.');
    expect(mail.sms).toMatch(/ Times in Europe\/Berlin\.$/);
  });

  test('a zone the runtime does not know reads, and is named, UTC', () => {
    const mail = coverageRequestedMessage({
      ...c,
      timeZone: 'Not/AZone',
      requesterName: 'Olivia',
      startAt: at,
      endAt: later,
      notes: null,
    });
    expect(mail.text).toContain('From: Mon, Nov 2, 2026, 12:00 PM UTC');
    expect(mail.text).toContain('Times are in UTC.');
    expect(mail.text).not.toContain('Not/AZone');
  });
});

describe('SMS reply codes and answers (decision 201)', () => {
  test('the messages that ask the reader to act carry the reply code in their SMS, before the link', () => {
    const reply = 'Reply 4821 to acknowledge, 4821R to resolve.';
    for (const content of [
      pageMessage({ ...page, replyCode: '4821' }),
      pageReminderMessage({ ...page, escalatesAt: null, replyCode: '4821' }),
      pageEscalatedToYouMessage({
        ...page,
        fromName: 'O',
        reason: 'flight',
        escalatedAt: at,
        replyCode: '4821',
      }),
    ]) {
      expect(content.sms).toContain(`${reply} Ack: ${ackUrl}`);
      expect(content.text).not.toContain(reply);
    }
    expect(pageMessage({ ...page, replyCode: null }).sms).not.toContain('Reply');
    expect(pageMessage(page).sms).not.toContain('Reply');
  });

  test('each answer says what happened, times in the replier’s zone', () => {
    const when = formatWhen(at, 'America/Chicago');
    expect(
      smsReplyAnswer({
        kind: 'already-acknowledged',
        rotationName: 'Platform',
        byName: 'Olivia Ortiz',
        at,
        timeZone: 'America/Chicago',
      }),
    ).toBe(`Baton: the page for Platform was already acknowledged by Olivia Ortiz at ${when}.`);
    expect(when).toMatch(/CST/);
    expect(
      smsReplyAnswer({ kind: 'already-resolved', rotationName: 'P', at, timeZone: 'UTC' }),
    ).toBe(`Baton: the page for P was already resolved at ${formatWhen(at, 'UTC')}.`);
    expect(smsReplyAnswer({ kind: 'acknowledged', rotationName: 'P' })).toBe(
      'Baton: you acknowledged the page for P.',
    );
    expect(smsReplyAnswer({ kind: 'resolved', rotationName: 'P' })).toBe(
      'Baton: you resolved the page for P.',
    );
    expect(smsReplyAnswer({ kind: 'unknown-code', code: '0042' })).toBe(
      'Baton: code 0042 is unknown or has expired. Open Baton to see your pages.',
    );
    expect(smsReplyAnswer({ kind: 'refused', rotationName: 'P', message: 'No.' })).toBe(
      'Baton: page for P: No.',
    );
    expect(smsReplyAnswer({ kind: 'help' })).toMatch(/4821 or 4821R/);
  });
});
