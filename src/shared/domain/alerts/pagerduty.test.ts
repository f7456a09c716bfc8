import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PAGERDUTY_LIMITS, PagerDutyEventSchema } from '../../contracts/alerts';
import { TITLE_MAX } from '../../contracts/incidents';
import { issueMessages, safeHref } from '.';
import { normalizePagerDuty, pagerDutyInvalid } from './pagerduty';

const GENERATED = 'generated-key-0001';

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

describe('properties', () => {
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
