import { describe, expect, test } from 'vitest';
import type { AlertDetailRow } from '../../../shared/contracts/alerts';
import { composeMessage, isWebUrl } from './message-layout';
import {
  type AlertFacts,
  alertFollowUpMessage,
  alertTables,
  type FollowUpIncident,
  incidentsListUrl,
  pageBackupMessage,
  pageEscalatedToYouMessage,
  pageMessage,
  pageReminderMessage,
} from './messages';

/**
 * Pages raised by alerts, and the follow-up that gathers an integration's further incidents
 * (issue 17, decision 213): the alert's details as tables, its links as anchors, everything
 * escaped, and an SMS of one compact line.
 */

const baseUrl = 'https://baton.example.test';
const rotation = { id: 7, name: 'Payments' };
const at = new Date('2026-11-02T12:00:00Z');
const ackUrl = `${baseUrl}/pages/ack/5.${'x'.repeat(43)}`;

const details: AlertDetailRow[] = [
  { section: 'Labels', label: 'alertname', value: 'HighCPU' },
  { section: 'Labels', label: 'instance', value: 'db-1:9100' },
  { section: 'Annotations', label: 'description', value: 'CPU above 90%\nfor 10 minutes' },
  { section: 'Labels', label: '<script>alert(1)</script>', value: '<img src=x onerror=alert(2)>' },
];
const alert: AlertFacts = {
  severity: 'P1',
  event: {
    summary: 'HighCPU on db-1',
    source: 'db-1:9100',
    details,
    links: [
      { href: 'https://prometheus.example.test/graph?g0.expr=up&x="1"', text: 'Prometheus' },
      { href: 'https://grafana.example.test/d/abc', text: '' },
    ],
  },
};
const page = {
  baseUrl,
  rotation,
  incidentId: 5,
  severity: 'P1' as const,
  description: null,
  pagerName: 'Prometheus',
  message: 'HighCPU on db-1',
  urgency: 'high' as const,
  ackUrl,
  createdAt: at,
  timeZone: 'UTC',
  replyCode: '4821',
  alert,
};

describe('alertTables', () => {
  test('groups rows by section in the order the sections come', () => {
    expect(alertTables(details)).toEqual([
      {
        caption: 'Labels',
        rows: [
          ['alertname', 'HighCPU'],
          ['instance', 'db-1:9100'],
          ['<script>alert(1)</script>', '<img src=x onerror=alert(2)>'],
        ],
      },
      { caption: 'Annotations', rows: [['description', 'CPU above 90%\nfor 10 minutes']] },
    ]);
    expect(alertTables([])).toEqual([]);
  });
});

describe('a page raised by an alert', () => {
  const mail = pageMessage(page);

  test('the email shows severity, source, the details as tables and the links as anchors', () => {
    expect(mail.subject).toBe('Page (P1, high urgency): Payments: HighCPU on db-1');
    expect(mail.html).toContain('Prometheus paged you as the on-call person for Payments.');
    expect(mail.html).toMatch(/Severity<\/td><td[^>]*>P1 · Critical</);
    expect(mail.html).toMatch(/Source<\/td><td[^>]*>db-1:9100</);
    expect(mail.html).toContain('>Labels</p><table');
    expect(mail.html).toContain('>Annotations</p><table');
    expect(mail.html).toMatch(/>alertname<\/td><td[^>]*>HighCPU<\/td>/);
    // A value's line breaks stay readable.
    expect(mail.html).toContain('CPU above 90%<br>for 10 minutes');
    expect(mail.html).toContain(
      '<a href="https://prometheus.example.test/graph?g0.expr=up&amp;x=&quot;1&quot;">Prometheus</a>',
    );
    // A link without text reads as its address.
    expect(mail.html).toContain(
      '<a href="https://grafana.example.test/d/abc">https://grafana.example.test/d/abc</a>',
    );
    expect(mail.html).not.toContain('{"');
  });

  test('labels and values are escaped: no markup of the alert reaches the email', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(2)&gt;');
  });

  test('the plain text writes the tables as lines and the links with their addresses', () => {
    expect(mail.text).toContain(
      'Labels:\nalertname: HighCPU\ninstance: db-1:9100\n<script>alert(1)</script>: <img src=x onerror=alert(2)>',
    );
    expect(mail.text).toContain('Annotations:\ndescription: CPU above 90%\nfor 10 minutes');
    expect(mail.text).toContain(
      'Links:\n- Prometheus: https://prometheus.example.test/graph?g0.expr=up&x="1"',
    );
    expect(mail.text).toContain('Severity: P1 · Critical\nSource: db-1:9100');
  });

  test('the SMS is one compact line: severity, summary, source, reply code, link; no table', () => {
    expect(mail.sms).toBe(
      `Baton PAGE (High) Payments from Prometheus: P1 HighCPU on db-1 [db-1:9100] Reply 4821 to acknowledge, 4821R to resolve. Ack: ${ackUrl}`,
    );
    for (const sms of [
      mail.sms,
      pageReminderMessage({ ...page, escalatesAt: null }).sms,
      pageEscalatedToYouMessage({ ...page, fromName: 'Ana', reason: 'r', escalatedAt: at }).sms,
      pageBackupMessage({ ...page, holderName: 'Ana', backupUntil: null }).sms,
    ]) {
      expect(sms).not.toMatch(/\n|alertname|Labels/);
      expect(sms).toContain('P1 HighCPU on db-1 [db-1:9100]');
    }
  });

  test('reminders, escalations and backup copies show the alert too', () => {
    for (const m of [
      pageReminderMessage({ ...page, escalatesAt: null }),
      pageEscalatedToYouMessage({ ...page, fromName: 'Ana', reason: 'r', escalatedAt: at }),
      pageBackupMessage({ ...page, holderName: 'Ana', backupUntil: null }),
    ]) {
      expect(m.html).toContain('>Labels</p><table');
      expect(m.html).toContain('<a href="https://grafana.example.test/d/abc">');
    }
  });

  test('an alert that cannot be read still shows severity; a storm says how many it holds', () => {
    const bare = pageMessage({
      ...page,
      severity: 'P3',
      alert: { severity: 'P3', event: null, stormAlerts: 280 },
    });
    expect(bare.html).toMatch(/Severity<\/td><td[^>]*>P3 · Minor</);
    expect(bare.html).not.toContain('Source');
    expect(bare.text).toContain('Alert storm: 280 alerts folded into this incident');
    expect(bare.sms).toContain('Payments from Prometheus: P3 HighCPU on db-1 Reply');
  });

  test('a page a person raised states its severity in its body; subject and SMS read as before', () => {
    const plain = pageMessage({ ...page, severity: 'P2', pagerName: 'Mo', alert: undefined });
    expect(plain.subject).toBe('Page (high urgency): Payments: HighCPU on db-1');
    expect(plain.html).toMatch(/Severity<\/td><td[^>]*>P2 · Major</);
    expect(plain.html).not.toContain('Source');
    expect(plain.sms).toContain('Payments from Mo: HighCPU on db-1 Reply');
  });
});

describe('the layout keeps only web addresses as links', () => {
  test.each([
    ['https://a.example/x', true],
    ['http://a.example', true],
    ['javascript:alert(1)', false],
    ['data:text/html,<b>', false],
    ['not a url', false],
  ])('%s', (url, web) => {
    expect(isWebUrl(url)).toBe(web);
    const m = composeMessage(
      {
        subject: 's',
        lead: 'l',
        tables: [{ header: ['Link'], rows: [[{ label: 'open', url }]] }],
        links: [{ label: 'source', url }],
        action: { label: 'a', url: baseUrl },
        sms: 's',
      },
      baseUrl,
    );
    expect(m.html.includes('href="javascript') || m.html.includes('href="data')).toBe(false);
    expect(m.html.includes('<a href="http') && m.html.includes('>open</a>')).toBe(web);
    expect(m.text.includes(url)).toBe(web);
  });
});

describe('the follow-up of an integration', () => {
  const incidents: FollowUpIncident[] = [
    { pageId: 41, title: 'Disk full <on> db-2', severity: 'P1', source: 'db-2', reason: 'new' },
    { pageId: 42, title: 'CPU high', severity: 'P2', source: null, reason: 'reminder' },
    { pageId: 43, title: 'Latency', severity: 'P3', source: 'api', reason: 'escalated' },
  ];
  const m = alertFollowUpMessage({ baseUrl, rotation, integrationName: 'Prometheus', incidents });

  test('one message lists the incidents, each linked to its page, and links the open list', () => {
    expect(m.subject).toBe('3 more incidents from Prometheus: Payments');
    expect(m.text).toContain(
      'While you have an unacknowledged page from Prometheus, 3 more incidents came in for Payments.',
    );
    expect(m.html).toContain(`<a href="${baseUrl}/incidents/41">Disk full &lt;on&gt; db-2</a>`);
    expect(m.html).toContain(`<a href="${baseUrl}/incidents/43">Latency</a>`);
    expect(m.html).toContain('<th');
    expect(m.html).toContain('Reminder: not acknowledged');
    expect(m.html).toContain('Escalated to you');
    expect(m.html).not.toContain('<on>');
    expect(m.text).toContain(`- P1 · Disk full <on> db-2 (${baseUrl}/incidents/41) · db-2 · New`);
    expect(m.html).toContain(`href="${baseUrl}/incidents?status=triggered&amp;rotation=7"`);
    expect(m.sms).toBe(
      `Baton: 3 more incidents from Prometheus (Payments): P1 Disk full <on> db-2; P2 CPU high; P3 Latency. Acknowledge in Baton: ${baseUrl}/incidents?status=triggered&rotation=7`,
    );
  });

  test('one incident is named in the singular; a long list is counted in the SMS', () => {
    const one = alertFollowUpMessage({
      baseUrl,
      rotation,
      integrationName: 'Prometheus',
      incidents: incidents.slice(0, 1),
    });
    expect(one.subject).toBe('1 more incident from Prometheus: Payments');
    const many = alertFollowUpMessage({
      baseUrl,
      rotation,
      integrationName: 'Prometheus',
      incidents: Array.from({ length: 40 }, (_, i) => ({
        ...incidents[0],
        pageId: i + 1,
        title: `Alert number ${i + 1} with a fairly long summary`,
      })),
    });
    expect(many.subject).toBe('40 more incidents from Prometheus: Payments');
    expect(many.sms).toMatch(/; and \d+ more\. Acknowledge in Baton: /);
    expect(many.sms.length).toBeLessThan(600);
    expect(many.html.match(/\/incidents\/\d+"/g)).toHaveLength(40);
  });

  test('an incident on a policy alone links the open list without a rotation', () => {
    expect(incidentsListUrl(baseUrl, 0)).toBe(`${baseUrl}/incidents?status=triggered`);
    expect(incidentsListUrl(baseUrl, 7)).toBe(`${baseUrl}/incidents?status=triggered&rotation=7`);
  });
});
