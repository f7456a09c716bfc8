import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AlertmanagerWebhookSchema, GrafanaWebhookSchema } from '../../contracts/alerts';
import { TITLE_MAX } from '../../contracts/incidents';
import { DETAIL_ROWS_MAX, issueMessages } from '.';
import { normalizeAlertGroup } from './alertmanager';

const amAlert = (
  fingerprint: string,
  status: 'firing' | 'resolved',
  labels: Record<string, string>,
) => ({
  status,
  labels: { alertname: 'HighLatency', ...labels },
  annotations: { summary: `Latency high on ${labels.instance ?? '?'}` },
  startsAt: '2026-11-25T08:00:00Z',
  endsAt: status === 'firing' ? '0001-01-01T00:00:00Z' : '2026-11-25T08:30:00Z',
  generatorURL: `http://prometheus.example/graph?fp=${fingerprint}`,
  fingerprint,
});
const amGroup = (alerts: unknown[], status: 'firing' | 'resolved' = 'firing') => ({
  version: '4',
  groupKey: '{}/{team="web"}:{alertname="HighLatency"}',
  truncatedAlerts: 0,
  status,
  receiver: 'baton',
  groupLabels: { alertname: 'HighLatency' },
  commonLabels: { alertname: 'HighLatency' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager.example:9093',
  alerts,
});

describe('Alertmanager webhook (version 4)', () => {
  const two = amGroup([
    amAlert('aaaa1111bbbb2222', 'firing', { instance: 'web1', severity: 'warning' }),
    amAlert('cccc3333dddd4444', 'firing', { instance: 'web2', severity: 'critical' }),
  ]);

  test('a group of two is one trigger: the highest severity, both alerts in the table', () => {
    const [e, ...rest] = normalizeAlertGroup(AlertmanagerWebhookSchema.parse(two));
    expect(rest).toEqual([]);
    expect(e).toMatchObject({
      action: 'trigger',
      dedupKey: two.groupKey,
      summary: 'HighLatency (2 alerts)',
      severity: 'P1',
      source: 'Alertmanager',
      occurredAt: '2026-11-25T08:00:00.000Z',
    });
    expect(e?.details).toContainEqual({
      section: 'Alert aaaa1111 (firing) · Labels',
      label: 'instance',
      value: 'web1',
    });
    expect(e?.links.map((l) => l.text)).toEqual(['Source', 'Source', 'Alertmanager']);
  });

  test('per fingerprint, each alert is its own event with its own severity', () => {
    const events = normalizeAlertGroup(AlertmanagerWebhookSchema.parse(two), 'fingerprint');
    expect(events.map((e) => [e.dedupKey, e.severity, e.summary, e.source])).toEqual([
      ['aaaa1111bbbb2222', 'P3', 'Latency high on web1', 'web1'],
      ['cccc3333dddd4444', 'P1', 'Latency high on web2', 'web2'],
    ]);
  });

  test('a resolved group resolves; truncated alerts are counted', () => {
    const body = {
      ...amGroup([amAlert('aaaa1111bbbb2222', 'resolved', {})], 'resolved'),
      truncatedAlerts: 3,
    };
    const [e] = normalizeAlertGroup(AlertmanagerWebhookSchema.parse(body));
    expect(e).toMatchObject({ action: 'resolve', summary: 'Latency high on ? (4 alerts)' });
    expect(e?.details[0]).toEqual({
      section: 'Alertmanager',
      label: 'truncated alerts',
      value: '3',
    });
  });

  test.each([
    ['a wrong version', { version: '3' }, 'version must be "4"'],
    ['no group key', { groupKey: undefined }, 'groupKey is required'],
    ['a bad status', { status: 'pending' }, 'status must be firing or resolved'],
    ['no alerts', { alerts: [] }, 'alerts must hold at least one alert'],
    [
      'an alert without fingerprint',
      { alerts: [{ status: 'firing', labels: {} }] },
      'alerts[].fingerprint is required',
    ],
    ['a label that is a number', { commonLabels: { a: 1 } }, 'commonLabels value must be text'],
    [
      'a bad startsAt',
      { alerts: [{ ...amAlert('f', 'firing', {}), startsAt: 'soon' }] },
      'alerts[].startsAt must be a date',
    ],
    ['negative truncatedAlerts', { truncatedAlerts: -1 }, 'truncatedAlerts must not be negative'],
  ])('%s is refused naming the field', (_name, over, message) => {
    const result = AlertmanagerWebhookSchema.safeParse({ ...two, ...over });
    expect(result.success).toBe(false);
    if (!result.success) expect(issueMessages(result.error).join('\n')).toContain(message);
  });
});

describe('Grafana webhook contact point', () => {
  const grafana = {
    receiver: 'baton',
    status: 'firing',
    orgId: 1,
    alerts: [
      {
        status: 'firing',
        labels: { alertname: 'CPU', grafana_folder: 'Prod', instance: 'web1' },
        annotations: { summary: 'CPU above 90%' },
        startsAt: '2026-11-25T09:00:00Z',
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'https://grafana.example/alerting/grafana/abc/view',
        fingerprint: '57c6d9296de2ad39',
        silenceURL: 'https://grafana.example/alerting/silence/new?matcher=alertname%3DCPU',
        dashboardURL: 'https://grafana.example/d/xyz',
        panelURL: 'https://grafana.example/d/xyz?viewPanel=2',
        values: { B: 93.5, C: 1 },
        valueString: "[ var='B' value=93.5 ]",
      },
    ],
    groupLabels: { alertname: 'CPU' },
    commonLabels: { alertname: 'CPU', instance: 'web1' },
    commonAnnotations: { summary: 'CPU above 90%' },
    externalURL: 'https://grafana.example/',
    version: '1',
    groupKey: '{}:{alertname="CPU"}',
    truncatedAlerts: 0,
    title: '[FIRING:1] CPU Prod (web1)',
    state: 'alerting',
    message: '**Firing**\n\nValue: B=93.5',
  };

  test('Grafana’s fields: title as summary, its links, its values in the table', () => {
    const [e] = normalizeAlertGroup(GrafanaWebhookSchema.parse(grafana));
    expect(e).toMatchObject({
      action: 'trigger',
      dedupKey: '{}:{alertname="CPU"}',
      summary: '[FIRING:1] CPU Prod (web1)',
      source: 'web1',
      severity: 'P2',
    });
    expect(e?.links.map((l) => l.text)).toEqual([
      'Source',
      'Dashboard',
      'Panel',
      'Silence',
      'Grafana',
    ]);
    expect(e?.details).toEqual(
      expect.arrayContaining([
        { section: 'Grafana', label: 'message', value: '**Firing**\n\nValue: B=93.5' },
        { section: 'Values', label: 'B', value: '93.5' },
        { section: 'Labels', label: 'grafana_folder', value: 'Prod' },
      ]),
    );
  });

  test('values may be null; a version other than "1" is refused', () => {
    expect(
      GrafanaWebhookSchema.safeParse({
        ...grafana,
        alerts: [{ ...grafana.alerts[0], values: null }],
      }).success,
    ).toBe(true);
    const bad = GrafanaWebhookSchema.safeParse({ ...grafana, version: '4' });
    expect(bad.error?.issues[0]?.message).toBe('version must be "1" (Grafana webhook version 1)');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const labelMap = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ maxLength: 40 }),
  { maxKeys: 5 },
);
const arbAlert = fc.record({
  status: fc.constantFrom('firing', 'resolved'),
  labels: labelMap,
  annotations: labelMap,
  startsAt: fc.constantFrom('2026-11-25T08:00:00Z', '0001-01-01T00:00:00Z'),
  endsAt: fc.constantFrom('2026-11-25T08:30:00Z', '0001-01-01T00:00:00Z'),
  generatorURL: fc.oneof(fc.constant(''), fc.webUrl(), fc.string({ maxLength: 20 })),
  fingerprint: fc.stringMatching(/^[0-9a-f]{16}$/),
});
const arbGroup = fc.record({
  version: fc.constant('4'),
  groupKey: fc.string({ minLength: 1, maxLength: 60 }),
  truncatedAlerts: fc.nat({ max: 5 }),
  status: fc.constantFrom('firing', 'resolved'),
  receiver: fc.string({ maxLength: 10 }),
  groupLabels: labelMap,
  commonLabels: labelMap,
  commonAnnotations: labelMap,
  externalURL: fc.oneof(fc.webUrl(), fc.string({ maxLength: 20 })),
  alerts: fc.array(arbAlert, { minLength: 1, maxLength: 6 }),
});

describe('properties', () => {
  test('normalizing never throws on a group the schema accepts, and gives well-formed events', () => {
    fc.assert(
      fc.property(arbGroup, fc.constantFrom('group', 'fingerprint'), (raw, grouping) => {
        const parsed = AlertmanagerWebhookSchema.safeParse(raw);
        if (!parsed.success) return;
        const events = normalizeAlertGroup(parsed.data, grouping);
        expect(events.length).toBeGreaterThan(0);
        for (const e of events) {
          expect(e.summary.length).toBeGreaterThan(0);
          expect([...e.summary].length).toBeLessThanOrEqual(TITLE_MAX);
          expect(e.summary).not.toMatch(/[\n\r\t]/);
          expect(e.details.length).toBeLessThanOrEqual(DETAIL_ROWS_MAX);
          for (const l of e.links) expect(l.href).toMatch(/^https?:\/\//);
        }
      }),
    );
  });

  test('the same group sent again gives the same events; the group key never depends on the alerts', () => {
    fc.assert(
      fc.property(arbGroup, arbGroup, (a, b) => {
        const first = AlertmanagerWebhookSchema.safeParse(a);
        const other = AlertmanagerWebhookSchema.safeParse({ ...b, groupKey: a.groupKey });
        if (!first.success || !other.success) return;
        const again = AlertmanagerWebhookSchema.parse(structuredClone(a));
        expect(normalizeAlertGroup(again)).toEqual(normalizeAlertGroup(first.data));
        expect(normalizeAlertGroup(other.data)[0]?.dedupKey).toBe(
          normalizeAlertGroup(first.data)[0]?.dedupKey,
        );
      }),
    );
  });
});
