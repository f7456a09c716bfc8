import { describe, expect, test } from 'vitest';
import {
  OPSGENIE_LIMITS,
  OpsgenieAlertActionSchema,
  OpsgenieCreateAlertSchema,
  OpsgenieIdentifierQuerySchema,
} from '../../contracts/alerts';
import {
  eventOfAction,
  normalizeOpsgenieAction,
  normalizeOpsgenieCreate,
  opsgenieError,
} from './opsgenie';

const GENERATED = 'generated-key-0001';

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
