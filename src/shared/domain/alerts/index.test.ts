import { describe, expect, test } from 'vitest';
import {
  AlertmanagerWebhookSchema,
  OpsgenieAlertActionSchema,
  OpsgenieCreateAlertSchema,
  OpsgenieIdentifierQuerySchema,
  PagerDutyEventSchema,
} from '../../contracts/alerts';
import {
  alertDescription,
  DETAIL_ROWS_MAX,
  flattenDetails,
  severityOfLabel,
  severityOfPagerDuty,
  urgencyOf,
} from '.';
import { normalizeAlertGroup } from './alertmanager';
import { normalizeOpsgenieAction, normalizeOpsgenieCreate, severityOfOpsgenie } from './opsgenie';
import { normalizePagerDuty } from './pagerduty';

// What Alertmanager 0.25 really sends (tests/fixtures/alertmanager-0.25/README.md), read through
// Vite's glob import: src/shared stays free of node:* modules, tests included.
const FIXTURE_FILES = import.meta.glob<Captured>(
  '../../../../tests/fixtures/alertmanager-0.25/*.json',
  {
    eager: true,
    import: 'default',
  },
);
interface Captured {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}
const fixtureName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const captured = (name: string): Captured => {
  const entry = Object.entries(FIXTURE_FILES).find(([path]) => fixtureName(path) === name);
  if (!entry) throw new Error(`no captured request ${name}`);
  return structuredClone(entry[1]);
};
const GENERATED = 'generated-key-0001';
const AM_DEDUP = '17c4e445d234645c9e547ff6d32a864af0ebdadcd1902771c24c8d366637ff41';

describe('the captured Alertmanager 0.25 requests', () => {
  test('every captured file is covered by a test below', () => {
    const files = Object.keys(FIXTURE_FILES).map(fixtureName).sort();
    expect(files).toEqual([
      'opsgenie-close.json',
      'opsgenie-create.json',
      'pagerduty-resolve.json',
      'pagerduty-trigger.json',
      'webhook-firing.json',
      'webhook-resolved.json',
    ]);
  });

  test.each([
    ['pagerduty-trigger.json', 'trigger', '[FIRING:1] DiskFull (db1 critical)'],
    ['pagerduty-resolve.json', 'resolve', 'Resolved by source'],
  ] as const)('%s is a PagerDuty %s', (file, action, summary) => {
    const body = PagerDutyEventSchema.parse(captured(file).body);
    const e = normalizePagerDuty(body, GENERATED);
    expect(e.action).toBe(action);
    expect(e.dedupKey).toBe(AM_DEDUP);
    expect(e.summary).toBe(summary);
    if (action === 'trigger') {
      // Alertmanager sends severity "error" whatever the alert's label says.
      expect(e).toMatchObject({ severity: 'P2', urgency: 'high', source: 'Alertmanager' });
      expect(e.links).toEqual([
        { href: 'http://alertmanager.example:9093/#/alerts?receiver=all', text: 'Alertmanager' },
      ]);
      expect(e.details).toContainEqual({ section: 'Details', label: 'num_firing', value: '1' });
      expect(e.details.find((r) => r.label === 'firing')?.value).toContain('instance = db1');
    }
  });

  test('opsgenie-create.json is a trigger keyed by its alias, details as rows', () => {
    const c = captured('opsgenie-create.json');
    expect(c.headers.authorization).toBe('GenieKey <key>');
    const e = normalizeOpsgenieCreate(OpsgenieCreateAlertSchema.parse(c.body), GENERATED);
    expect(e).toMatchObject({
      action: 'trigger',
      dedupKey: AM_DEDUP,
      summary: '[FIRING:1] DiskFull (db1 critical)',
      severity: 'P3', // no priority: Opsgenie's default, P3
      urgency: 'low',
      source: 'http://alertmanager.example:9093/#/alerts?receiver=all',
    });
    expect(e.details).toEqual(
      expect.arrayContaining([
        { section: 'Details', label: 'alertname', value: 'DiskFull' },
        { section: 'Details', label: 'instance', value: 'db1' },
        { section: 'Details', label: 'severity', value: 'critical' },
      ]),
    );
    expect(e.details.find((r) => r.label === 'description')?.value).toContain('95% used');
  });

  test('opsgenie-close.json closes by alias, as Alertmanager names it in the path', () => {
    const c = captured('opsgenie-close.json');
    const url = new URL(c.path, 'http://baton.test');
    const match = /^\/v2\/alerts\/([^/]+)\/close$/.exec(url.pathname);
    expect(match).not.toBeNull();
    const query = OpsgenieIdentifierQuerySchema.parse(Object.fromEntries(url.searchParams));
    const a = normalizeOpsgenieAction(
      'close',
      decodeURIComponent(match?.[1] ?? ''),
      query.identifierType,
      OpsgenieAlertActionSchema.parse(c.body),
    );
    expect(a).toEqual({
      action: 'resolve',
      identifier: AM_DEDUP,
      identifierType: 'alias',
      source: 'http://alertmanager.example:9093/#/alerts?receiver=all',
    });
  });

  test('webhook-firing.json is one trigger for its group key, labels and annotations as a table', () => {
    const body = AlertmanagerWebhookSchema.parse(captured('webhook-firing.json').body);
    const [e, ...rest] = normalizeAlertGroup(body);
    expect(rest).toEqual([]);
    expect(e).toEqual({
      action: 'trigger',
      dedupKey: '{}:{alertname="DiskFull"}',
      summary: 'Disk full on db1',
      source: 'db1',
      severity: 'P1',
      urgency: 'high',
      details: [
        { section: 'Labels', label: 'alertname', value: 'DiskFull' },
        { section: 'Labels', label: 'instance', value: 'db1' },
        { section: 'Labels', label: 'severity', value: 'critical' },
        { section: 'Annotations', label: 'description', value: '95% used' },
        { section: 'Annotations', label: 'summary', value: 'Disk full on db1' },
      ],
      links: [{ href: 'http://alertmanager.example:9093/', text: 'Alertmanager' }],
      occurredAt: '2026-11-25T07:47:30.772Z',
    });
  });

  test('webhook-resolved.json resolves the same group key; per fingerprint on request', () => {
    const firing = AlertmanagerWebhookSchema.parse(captured('webhook-firing.json').body);
    const resolved = AlertmanagerWebhookSchema.parse(captured('webhook-resolved.json').body);
    const [r] = normalizeAlertGroup(resolved);
    expect(r).toMatchObject({ action: 'resolve', occurredAt: '2026-11-25T07:46:35.000Z' });
    expect(r?.dedupKey).toBe(normalizeAlertGroup(firing)[0]?.dedupKey);
    const perAlert = normalizeAlertGroup(resolved, 'fingerprint');
    expect(perAlert.map((x) => [x.action, x.dedupKey])).toEqual([['resolve', 'e94c744ae3d44df8']]);
    expect(normalizeAlertGroup(firing, 'fingerprint')[0]?.dedupKey).toBe('e94c744ae3d44df8');
  });
});

describe('severity and urgency', () => {
  test.each([
    ['critical', 'P1'],
    ['error', 'P2'],
    ['warning', 'P3'],
    ['info', 'P3'],
  ] as const)('PagerDuty %s is %s, and so is the Alertmanager label', (word, severity) => {
    expect(severityOfPagerDuty(word)).toBe(severity);
    expect(severityOfLabel(word)).toBe(severity);
    expect(severityOfLabel(` ${word.toUpperCase()} `)).toBe(severity);
  });

  test.each([
    ['P1', 'P1'],
    ['P2', 'P2'],
    ['P3', 'P3'],
    ['P4', 'P3'],
    ['P5', 'P3'],
    [undefined, 'P3'],
  ] as const)('Opsgenie %s is %s', (priority, severity) => {
    expect(severityOfOpsgenie(priority)).toBe(severity);
  });

  test.each([undefined, '', 'page', 'toString', '__proto__'])(
    'an Alertmanager severity label %j that is no PagerDuty word is P2',
    (label) => {
      expect(severityOfLabel(label)).toBe('P2');
    },
  );

  test('urgency follows severity unless the integration sets it', () => {
    expect(urgencyOf('P1')).toBe('high');
    expect(urgencyOf('P2')).toBe('high');
    expect(urgencyOf('P3')).toBe('low');
    expect(urgencyOf('P1', { urgency: 'low' })).toBe('low');
    const body = PagerDutyEventSchema.parse(captured('pagerduty-trigger.json').body);
    expect(normalizePagerDuty(body, GENERATED, { urgency: 'medium' }).urgency).toBe('medium');
  });
});

describe('details tables', () => {
  test('flattening stops at DETAIL_ROWS_MAX rows and keeps empty containers visible', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    expect(flattenDetails('Details', many)).toHaveLength(DETAIL_ROWS_MAX);
    expect(flattenDetails('Details', { a: {}, b: [] })).toEqual([
      { section: 'Details', label: 'a', value: '{}' },
      { section: 'Details', label: 'b', value: '[]' },
    ]);
    expect(flattenDetails('Details', 'plain text')).toEqual([
      { section: 'Details', label: 'details', value: 'plain text' },
    ]);
  });
});

describe('alertDescription', () => {
  const alert = {
    action: 'trigger' as const,
    dedupKey: 'k',
    summary: 'Disk full',
    source: 'db-1',
    severity: 'P1' as const,
    urgency: 'high' as const,
    details: [
      { section: 'Labels', label: 'alertname', value: 'DiskFull' },
      { section: 'Labels', label: 'instance', value: 'db-1:9100' },
      { section: 'Annotations', label: 'description', value: 'Used 99%\nof /var' },
    ],
    links: [
      { href: 'https://prom.example.com/graph', text: 'Source' },
      { href: 'https://x.example.com/', text: 'https://x.example.com/' },
    ],
  };

  test('the source, each section with its rows, then the links', () => {
    expect(alertDescription(alert)).toBe(
      [
        'Source: db-1',
        '',
        'Labels:',
        '  alertname: DiskFull',
        '  instance: db-1:9100',
        '',
        'Annotations:',
        '  description: Used 99% of /var',
        '',
        'Links:',
        '  Source: https://prom.example.com/graph',
        '  https://x.example.com/',
      ].join('\n'),
    );
  });

  test('is cut at the limit with an ellipsis', () => {
    const text = alertDescription(alert, 20);
    expect(text).toHaveLength(20);
    expect(text.endsWith('…')).toBe(true);
  });

  test('an alert without details or links is its source alone', () => {
    expect(alertDescription({ ...alert, details: [], links: [] })).toBe('Source: db-1');
  });
});
