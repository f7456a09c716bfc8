import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  AlertmanagerWebhookSchema,
  GenericAlertSchema,
  GrafanaWebhookSchema,
  OPSGENIE_LIMITS,
  OpsgenieAlertActionSchema,
  OpsgenieCreateAlertSchema,
  OpsgenieIdentifierQuerySchema,
  PAGERDUTY_LIMITS,
  PagerDutyEventSchema,
} from '../contracts/alerts';
import { TITLE_MAX } from '../contracts/incidents';
import {
  alertDescription,
  DETAIL_ROWS_MAX,
  eventOfAction,
  flattenDetails,
  issueMessages,
  normalizeAlertGroup,
  normalizeGeneric,
  normalizeOpsgenieAction,
  normalizeOpsgenieCreate,
  normalizePagerDuty,
  opsgenieError,
  pagerDutyInvalid,
  safeHref,
  severityOfLabel,
  severityOfOpsgenie,
  severityOfPagerDuty,
  urgencyOf,
} from './alerts';

// What Alertmanager 0.25 really sends (tests/fixtures/alertmanager-0.25/README.md), read through
// Vite's glob import: src/shared stays free of node:* modules, tests included.
const FIXTURE_FILES = import.meta.glob<Captured>(
  '../../../tests/fixtures/alertmanager-0.25/*.json',
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

const pdTrigger = (over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => ({
  routing_key: 'k'.repeat(32),
  event_action: 'trigger',
  payload: { summary: 'CPU high on web1', source: 'web1', severity: 'warning', ...payload },
  ...over,
});

describe('PagerDuty Events API v2', () => {
  test('every documented field is read', () => {
    const body = PagerDutyEventSchema.parse(
      pdTrigger(
        {
          dedup_key: 'cpu/web1',
          client: 'Nagios',
          client_url: 'https://nagios.example/web1',
          links: [{ href: 'https://runbooks.example/cpu', text: 'Runbook' }],
          images: [
            { src: 'https://img.example/g.png', href: 'https://grafana.example/d/1', alt: 'Graph' },
          ],
        },
        {
          severity: 'critical',
          timestamp: '2026-11-25T10:00:00+01:00',
          component: 'nginx',
          group: 'prod',
          class: 'cpu load',
          custom_details: { load: 9.5, cores: [1, 2], nested: { ok: false, none: null } },
        },
      ),
    );
    const e = normalizePagerDuty(body, GENERATED);
    expect(e).toMatchObject({
      action: 'trigger',
      dedupKey: 'cpu/web1',
      summary: 'CPU high on web1',
      source: 'web1',
      severity: 'P1',
      urgency: 'high',
      occurredAt: '2026-11-25T09:00:00.000Z',
    });
    expect(e.details).toEqual([
      { section: 'Event', label: 'component', value: 'nginx' },
      { section: 'Event', label: 'group', value: 'prod' },
      { section: 'Event', label: 'class', value: 'cpu load' },
      { section: 'Event', label: 'client', value: 'Nagios' },
      { section: 'Details', label: 'load', value: '9.5' },
      { section: 'Details', label: 'cores.0', value: '1' },
      { section: 'Details', label: 'cores.1', value: '2' },
      { section: 'Details', label: 'nested.ok', value: 'false' },
      { section: 'Details', label: 'nested.none', value: 'null' },
    ]);
    expect(e.links).toEqual([
      { href: 'https://nagios.example/web1', text: 'Nagios' },
      { href: 'https://runbooks.example/cpu', text: 'Runbook' },
      { href: 'https://grafana.example/d/1', text: 'Graph' },
    ]);
  });

  test('a trigger without dedup_key (or with an empty one) takes the generated one', () => {
    expect(normalizePagerDuty(PagerDutyEventSchema.parse(pdTrigger()), GENERATED).dedupKey).toBe(
      GENERATED,
    );
    const empty = PagerDutyEventSchema.parse(pdTrigger({ dedup_key: ' ' }));
    expect(normalizePagerDuty(empty, GENERATED).dedupKey).toBe(GENERATED);
    const resolveEmpty = PagerDutyEventSchema.safeParse({
      routing_key: 'k',
      event_action: 'resolve',
      dedup_key: '',
    });
    expect(resolveEmpty.error?.issues[0]?.message).toBe('dedup_key must not be empty');
  });

  test('acknowledge and resolve need only the dedup_key', () => {
    for (const action of ['acknowledge', 'resolve'] as const) {
      const body = PagerDutyEventSchema.parse({
        routing_key: 'k',
        event_action: action,
        dedup_key: 'cpu/web1',
      });
      expect(normalizePagerDuty(body, GENERATED)).toMatchObject({ action, dedupKey: 'cpu/web1' });
    }
  });

  test('the limits are PagerDuty’s: summary 1024, dedup_key 255', () => {
    const ok = pdTrigger(
      { dedup_key: 'd'.repeat(PAGERDUTY_LIMITS.dedupKey) },
      { summary: 's'.repeat(1024) },
    );
    expect(PagerDutyEventSchema.safeParse(ok).success).toBe(true);
    const e = normalizePagerDuty(PagerDutyEventSchema.parse(ok), GENERATED);
    expect([...e.summary].length).toBe(TITLE_MAX);
    expect(e.summary.endsWith('…')).toBe(true);
    expect(e.details[0]).toEqual({ section: 'Summary', label: 'summary', value: 's'.repeat(1024) });
  });

  test('links that are not http(s) are dropped', () => {
    const body = PagerDutyEventSchema.parse(
      pdTrigger({
        client_url: 'javascript:alert(1)',
        links: [{ href: '/relative' }, { href: 'ftp://x.example/' }, { href: 'http://ok.example' }],
      }),
    );
    expect(normalizePagerDuty(body, GENERATED).links).toEqual([
      { href: 'http://ok.example/', text: 'http://ok.example/' },
    ]);
    expect(safeHref('data:text/html,hi')).toBeUndefined();
  });

  test.each([
    ['no routing_key', { routing_key: undefined }, {}, 'routing_key is required'],
    ['an empty routing_key', { routing_key: '  ' }, {}, 'routing_key must not be empty'],
    ['an unknown action', { event_action: 'explode' }, {}, 'event_action must be one of'],
    ['no payload', { payload: undefined }, null, 'payload is required: an object with'],
    ['no summary', {}, { summary: undefined }, 'payload.summary is required'],
    ['a long summary', {}, { summary: 's'.repeat(1025) }, 'payload.summary must be at most 1,024'],
    ['no source', {}, { source: undefined }, 'payload.source is required'],
    ['a bad severity', {}, { severity: 'high' }, 'payload.severity must be one of critical'],
    ['a bad timestamp', {}, { timestamp: 'yesterday' }, 'payload.timestamp must be a date'],
    ['a long dedup_key', { dedup_key: 'd'.repeat(256) }, {}, 'dedup_key must be at most 255'],
    ['a NUL in the summary', {}, { summary: 'a\u0000b' }, 'payload.summary must not contain'],
    ['a link without href', { links: [{ text: 'x' }] }, {}, 'links[].href is required'],
  ])('%s is an invalid event naming the field', (_name, over, payload, message) => {
    const body =
      payload === null
        ? { ...pdTrigger(), payload: undefined }
        : pdTrigger(over as Record<string, unknown>, payload as Record<string, unknown>);
    const result = PagerDutyEventSchema.safeParse(body);
    expect(result.success).toBe(false);
    if (result.success) return;
    const answer = pagerDutyInvalid(result.error);
    expect(answer.status).toBe('invalid event');
    expect(answer.message).toBe('Event object is invalid');
    expect(answer.errors.join('\n')).toContain(message);
  });

  test('resolve without dedup_key is invalid, naming dedup_key', () => {
    const result = PagerDutyEventSchema.safeParse({ routing_key: 'k', event_action: 'resolve' });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(pagerDutyInvalid(result.error).errors).toEqual(['dedup_key is required']);
  });

  test('a field without our own message is named by its path', () => {
    const result = PagerDutyEventSchema.safeParse(pdTrigger({ links: 'nope' }));
    expect(result.success).toBe(false);
    if (!result.success) expect(issueMessages(result.error)[0]).toMatch(/^links: /);
  });
});

describe('Opsgenie Alert API', () => {
  test('every documented create field is read', () => {
    const body = OpsgenieCreateAlertSchema.parse({
      message: 'Disk full on db1',
      alias: 'disk/db1',
      description: 'The disk\nis full',
      responders: [{ type: 'team', name: 'Ops' }],
      visibleTo: [{ type: 'user', username: 'a@example.com' }],
      actions: ['Restart'],
      tags: ['disk', 'prod'],
      details: { host: 'db1', used: '95%' },
      entity: 'db1',
      source: 'Zabbix',
      priority: 'P2',
      user: 'Monitor',
      note: 'auto',
    });
    const e = normalizeOpsgenieCreate(body, GENERATED);
    expect(e).toMatchObject({
      action: 'trigger',
      dedupKey: 'disk/db1',
      summary: 'Disk full on db1',
      source: 'Zabbix',
      severity: 'P2',
      urgency: 'high',
      links: [],
    });
    expect(e.details).toEqual([
      { section: 'Description', label: 'description', value: 'The disk\nis full' },
      { section: 'Alert', label: 'entity', value: 'db1' },
      { section: 'Alert', label: 'tags', value: 'disk, prod' },
      { section: 'Alert', label: 'note', value: 'auto' },
      { section: 'Alert', label: 'user', value: 'Monitor' },
      { section: 'Details', label: 'host', value: 'db1' },
      { section: 'Details', label: 'used', value: '95%' },
    ]);
    expect(normalizeOpsgenieCreate({ message: 'x' }, GENERATED).dedupKey).toBe(GENERATED);
    expect(normalizeOpsgenieCreate({ message: 'x', alias: '' }, GENERATED).dedupKey).toBe(
      GENERATED,
    );
  });

  test('acknowledge keeps user, source and note; identifierType defaults to id', () => {
    expect(OpsgenieIdentifierQuerySchema.parse({}).identifierType).toBe('id');
    expect(
      normalizeOpsgenieAction('acknowledge', '42', 'id', {
        user: 'bot',
        note: 'on it',
        source: 'ci',
      }),
    ).toEqual({
      action: 'acknowledge',
      identifier: '42',
      identifierType: 'id',
      user: 'bot',
      note: 'on it',
      source: 'ci',
    });
  });

  test('eventOfAction: close resolves and acknowledge acknowledges the named key, naming the source', () => {
    const close = normalizeOpsgenieAction('close', 'abc', 'alias', {
      source: 'http://alertmanager.example:9093/#/alerts',
      user: 'bot',
    });
    expect(eventOfAction(close, 'abc', { urgency: 'low' })).toEqual({
      action: 'resolve',
      dedupKey: 'abc',
      summary: 'Closed by source',
      source: 'http://alertmanager.example:9093/#/alerts',
      severity: 'P3',
      urgency: 'low',
      details: [{ section: 'Alert', label: 'user', value: 'bot' }],
      links: [{ href: 'http://alertmanager.example:9093/#/alerts', text: 'Source' }],
    });
    const ack = eventOfAction(normalizeOpsgenieAction('acknowledge', 'k', 'alias', {}), 'k');
    expect(ack).toMatchObject({ action: 'acknowledge', source: 'Opsgenie API', links: [] });
    expect(ack.summary).toBe('Acknowledged by source');
  });

  test.each([
    ['no message', { message: undefined }, 'message', 'message is required'],
    ['a long message', { message: 'm'.repeat(131) }, 'message', 'message must be at most 130'],
    ['a long alias', { alias: 'a'.repeat(513) }, 'alias', 'alias must be at most 512'],
    ['a long description', { description: 'd'.repeat(15_001) }, 'description', '15,000'],
    ['a bad priority', { priority: 'P0' }, 'priority', 'priority must be one of P1'],
    ['101 tags', { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'tags', 'at most 100'],
    ['a tag that is a number', { tags: [1] }, 'tags[0]', 'tags[] must be text'],
    ['non-text details', { details: { a: 1 } }, 'details.a', 'details value must be text'],
    ['a NUL in the source', { source: 'a\u0000b' }, 'source', 'source must not contain'],
    [
      'a bad responder',
      { responders: [{ type: 'robot' }] },
      'responders[0].type',
      'responders[].type',
    ],
  ])('%s is refused naming the field (Opsgenie’s error shape)', (_name, over, field, message) => {
    const result = OpsgenieCreateAlertSchema.safeParse({ message: 'Disk full', ...over });
    expect(result.success).toBe(false);
    if (result.success) return;
    const answer = opsgenieError(result.error, 0.003, 'req-1');
    expect(answer.message).toBe('Request body is not processable. Please check the errors.');
    expect(answer).toMatchObject({ took: 0.003, requestId: 'req-1' });
    expect(answer.errors[field]).toContain(message);
  });

  test('what Alertmanager does not limit itself is cut to Opsgenie’s limits, not refused', () => {
    const long = `https://alertmanager.example/#/alerts?receiver=${'r'.repeat(200)}`;
    const body = OpsgenieCreateAlertSchema.parse({
      message: 'Disk full',
      source: long,
      entity: 'e'.repeat(600),
      tags: Array.from({ length: 25 }, (_, i) => `${i}`.padEnd(60, 'x')),
      details: { a: 'x'.repeat(5_000), b: 'y'.repeat(5_000), c: 'z' },
    });
    expect([...(body.source ?? '')]).toHaveLength(OPSGENIE_LIMITS.source);
    expect(body.source?.endsWith('…')).toBe(true);
    expect([...(body.entity ?? '')]).toHaveLength(OPSGENIE_LIMITS.entity);
    expect(body.tags).toHaveLength(OPSGENIE_LIMITS.tags);
    expect(body.tags?.every((t) => [...t].length === OPSGENIE_LIMITS.tag)).toBe(true);
    const total = Object.entries(body.details ?? {}).reduce(
      (n, [k, v]) => n + k.length + v.length,
      0,
    );
    expect(total).toBeLessThanOrEqual(OPSGENIE_LIMITS.detailsTotal);
    expect(body.details?.a).toBe('x'.repeat(5_000));
    expect(Object.keys(body.details ?? {})).toEqual(['a', 'b']);
    expect(OpsgenieAlertActionSchema.parse({ source: long }).source).toHaveLength(
      OPSGENIE_LIMITS.source,
    );
  });

  test('a bad identifierType is refused', () => {
    expect(
      OpsgenieIdentifierQuerySchema.safeParse({ identifierType: 'name' }).error?.issues[0]?.message,
    ).toBe('identifierType must be one of id, alias, tiny');
  });
});

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

describe('Generic', () => {
  test('summary and details trigger; form fields are the same strings', () => {
    const e = normalizeGeneric(
      GenericAlertSchema.parse(
        Object.fromEntries(new URLSearchParams('summary=Backup+failed&details=exit+2')),
      ),
      GENERATED,
    );
    expect(e).toMatchObject({
      action: 'trigger',
      dedupKey: GENERATED,
      summary: 'Backup failed',
      severity: 'P2',
      urgency: 'high',
      details: [{ section: 'Details', label: 'details', value: 'exit 2' }],
    });
  });

  test('action=close resolves its dedup key', () => {
    expect(
      normalizeGeneric(GenericAlertSchema.parse({ action: 'close', dedup: 'backup' }), GENERATED),
    ).toMatchObject({
      action: 'resolve',
      dedupKey: 'backup',
    });
  });

  test.each([
    ['no summary', {}, 'summary is required'],
    ['close without dedup', { action: 'close' }, 'dedup is required to close an alert'],
    ['close with dedup=', { action: 'close', dedup: '' }, 'dedup is required to close an alert'],
    ['an unknown action', { summary: 's', action: 'delete' }, 'action must be close'],
    ['a long dedup', { summary: 's', dedup: 'd'.repeat(256) }, 'dedup must be at most 255'],
  ])('%s is refused naming the field', (_name, body, message) => {
    const result = GenericAlertSchema.safeParse(body);
    expect(result.success).toBe(false);
    if (!result.success) expect(issueMessages(result.error).join('\n')).toContain(message);
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

  test('any PagerDuty event the schema accepts normalizes, with a severity from the table', () => {
    fc.assert(
      fc.property(
        fc.record({
          routing_key: fc.string({ maxLength: 40 }),
          event_action: fc.constantFrom('trigger', 'acknowledge', 'resolve', 'other'),
          dedup_key: fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
          payload: fc.record({
            summary: fc.string({ maxLength: 1100 }),
            source: fc.string({ maxLength: 30 }),
            severity: fc.constantFrom('critical', 'error', 'warning', 'info', 'fatal'),
            custom_details: fc.jsonValue({ maxDepth: 3 }),
          }),
          client_url: fc.option(fc.oneof(fc.webUrl(), fc.string()), { nil: undefined }),
        }),
        (raw) => {
          const parsed = PagerDutyEventSchema.safeParse(raw);
          if (!parsed.success) {
            expect(pagerDutyInvalid(parsed.error).errors.length).toBeGreaterThan(0);
            return;
          }
          const e = normalizePagerDuty(parsed.data, GENERATED);
          expect(['P1', 'P2', 'P3']).toContain(e.severity);
          expect(e.dedupKey.length).toBeGreaterThan(0);
        },
      ),
    );
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
