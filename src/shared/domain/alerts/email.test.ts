import { describe, expect, test } from 'vitest';
import { TITLE_MAX } from '../../contracts/incidents';
import { DETAIL_VALUE_MAX } from '.';
import { EMAIL_LINKS_MAX, type InboundEmail, normalizeEmail } from './email';

const GENERATED = 'generated-key-0001';

describe('Email', () => {
  const mail: InboundEmail = {
    from: 'Cron Daemon <root@db1.example.com>',
    fromAddress: 'root@db1.example.com',
    subject: 'Cron <root@db1> /usr/local/bin/backup',
    text: 'backup: exit 2\nsee https://ci.example.com/jobs/42.\n',
    messageId: '<20261127.1@db1.example.com>',
    date: '2026-11-27T14:00:00.000Z',
  };

  test('the subject is the summary, the sender the source, From, Subject and body the details', () => {
    expect(normalizeEmail(mail, 'subject', GENERATED)).toEqual({
      action: 'trigger',
      dedupKey: 'Cron <root@db1> /usr/local/bin/backup',
      summary: 'Cron <root@db1> /usr/local/bin/backup',
      source: 'root@db1.example.com',
      severity: 'P2',
      urgency: 'high',
      details: [
        { section: 'Email', label: 'From', value: 'Cron Daemon <root@db1.example.com>' },
        { section: 'Email', label: 'Subject', value: 'Cron <root@db1> /usr/local/bin/backup' },
        {
          section: 'Email',
          label: 'Body',
          value: 'backup: exit 2\nsee https://ci.example.com/jobs/42.',
        },
      ],
      links: [{ href: 'https://ci.example.com/jobs/42', text: 'https://ci.example.com/jobs/42' }],
      occurredAt: '2026-11-27T14:00:00.000Z',
    });
  });

  test.each([
    ['subject', mail, 'Cron <root@db1> /usr/local/bin/backup'],
    ['subject', { ...mail, subject: '  Disk\n\t full  on db1 ' }, 'Disk full on db1'],
    ['subject', { ...mail, subject: '' }, 'Email from root@db1.example.com'],
    [
      'subject',
      { ...mail, subject: '', fromAddress: '', from: '' },
      'Email from an unknown sender',
    ],
    ['message', mail, '<20261127.1@db1.example.com>'],
    ['message', { ...mail, messageId: undefined }, GENERATED],
    ['message', { ...mail, messageId: ' ' }, GENERATED],
  ] as const)('dedup by %s: %j is keyed %s', (dedup, m, key) => {
    expect(normalizeEmail(m, dedup, GENERATED).dedupKey).toBe(key);
  });

  test('the same subject with another body keeps its key; another subject does not', () => {
    const a = normalizeEmail(mail, 'subject', GENERATED);
    const b = normalizeEmail(
      { ...mail, text: 'backup: exit 3', messageId: '<2@db1>' },
      'subject',
      'x',
    );
    const c = normalizeEmail({ ...mail, subject: 'Cron <root@db1> other' }, 'subject', GENERATED);
    expect(b.dedupKey).toBe(a.dedupKey);
    expect(c.dedupKey).not.toBe(a.dedupKey);
  });

  test('a subject-less message reads "Email from" its sender and says it had no subject', () => {
    const e = normalizeEmail({ ...mail, subject: '   ' }, 'subject', GENERATED);
    expect(e.summary).toBe('Email from root@db1.example.com');
    expect(e.details[1]).toEqual({ section: 'Email', label: 'Subject', value: '(no subject)' });
  });

  test('a long subject is cut to one title, the whole of it heading the details', () => {
    const long = `Backup failed ${'x'.repeat(TITLE_MAX)}`;
    const e = normalizeEmail({ ...mail, subject: long }, 'subject', GENERATED);
    expect([...e.summary]).toHaveLength(TITLE_MAX);
    expect(e.summary.endsWith('…')).toBe(true);
    expect(e.details[0]).toEqual({ section: 'Summary', label: 'summary', value: long });
    expect(e.dedupKey).toBe(long);
  });

  test('a long body is cut in the details (the raw message keeps it)', () => {
    const e = normalizeEmail({ ...mail, text: 'y'.repeat(10_000) }, 'subject', GENERATED);
    const body = e.details.find((d) => d.label === 'Body');
    expect(body?.value).toHaveLength(DETAIL_VALUE_MAX);
    expect(body?.value.endsWith('…')).toBe(true);
  });

  test('an empty body gives no Body row; no From header falls back to the address', () => {
    const e = normalizeEmail({ ...mail, text: ' \n ', from: '' }, 'subject', GENERATED);
    expect(e.details).toEqual([
      { section: 'Email', label: 'From', value: 'root@db1.example.com' },
      { section: 'Email', label: 'Subject', value: 'Cron <root@db1> /usr/local/bin/backup' },
    ]);
  });

  test('only http(s) links are read from the body, each once, at most EMAIL_LINKS_MAX', () => {
    const text = [
      'Open https://grafana.example.com/d/abc?orgId=1, or [http://ci.example.com/b/7]',
      'javascript:alert(1) ftp://files.example.com/x https://grafana.example.com/d/abc?orgId=1',
      ...Array.from({ length: 20 }, (_, i) => `https://example.com/${i}`),
    ].join('\n');
    const links = normalizeEmail({ ...mail, text }, 'subject', GENERATED).links.map((l) => l.href);
    expect(links).toHaveLength(EMAIL_LINKS_MAX);
    expect(links.slice(0, 3)).toEqual([
      'https://grafana.example.com/d/abc?orgId=1',
      'http://ci.example.com/b/7',
      'https://example.com/0',
    ]);
  });

  test('control characters and broken Unicode never reach the event; line breaks stay, no-break spaces are spaces', () => {
    const e = normalizeEmail(
      { ...mail, subject: 'Disk\u0000full', text: 'a\u0007b\nc\ud800d\u00a0e' },
      'subject',
      GENERATED,
    );
    expect(e.summary).toBe('Disk\ufffdfull');
    expect(e.details.find((d) => d.label === 'Body')?.value).toBe('a\ufffdb\nc\ufffdd e');
  });

  test('P2, high urgency unless the integration sets one; an invalid date is none', () => {
    expect(normalizeEmail(mail, 'subject', GENERATED, { urgency: 'low' })).toMatchObject({
      severity: 'P2',
      urgency: 'low',
    });
    expect(normalizeEmail({ ...mail, date: 'not a date' }, 'subject', GENERATED).occurredAt).toBe(
      undefined,
    );
  });

  test('the same message gives the same event', () => {
    expect(normalizeEmail(mail, 'message', GENERATED)).toEqual(
      normalizeEmail(structuredClone(mail), 'message', GENERATED),
    );
  });
});
