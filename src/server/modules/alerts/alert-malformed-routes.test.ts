import { desc, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, test } from 'vitest';
import { OPSGENIE_ALIAS_MAX } from '../../../shared/contracts/alerts';
import { alerts, pages } from '../../db/schema';
import { ALERT_ROUTE_MESSAGES } from './alert-body';
import { ALERT_PATHS } from './alert-paths';
import {
  amFiring,
  counts,
  expectShape,
  fresh,
  integrationId,
  key,
  literal,
  pdTrigger,
  post,
  send,
  setUpAlertApp,
  t,
} from './alert-routes.fixtures';

setUpAlertApp();

describe('malformed bodies: a 4xx with a message, and nothing written', () => {
  const bad: [string, string, string | RegExp][] = [
    ['not JSON', '{"routing_key":', ALERT_ROUTE_MESSAGES.notJson],
    ['an empty body', '', ALERT_ROUTE_MESSAGES.bodyRequired],
    ['an array', '[1,2]', ALERT_ROUTE_MESSAGES.notObject],
    ['a string', '"trigger"', ALERT_ROUTE_MESSAGES.notObject],
    ['null', 'null', ALERT_ROUTE_MESSAGES.notObject],
    [
      'deep nesting',
      `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      ALERT_ROUTE_MESSAGES.tooDeep,
    ],
  ];
  const KEYED: [string, (payload: string) => InjectOptions, 'pagerduty' | 'opsgenie' | 'baton'][] =
    [
      [
        'Opsgenie create',
        (payload) => ({
          method: 'POST',
          url: ALERT_PATHS.opsgenieCreate,
          headers: { 'content-type': 'application/json', authorization: `GenieKey ${key}` },
          payload,
        }),
        'opsgenie',
      ],
      [
        'Alertmanager',
        (payload) => ({
          method: 'POST',
          url: `${ALERT_PATHS.alertmanager}?token=${key}`,
          headers: { 'content-type': 'application/json' },
          payload,
        }),
        'baton',
      ],
      [
        'Grafana',
        (payload) => ({
          method: 'POST',
          url: `${ALERT_PATHS.grafana}?token=${key}`,
          headers: { 'content-type': 'application/json' },
          payload,
        }),
        'baton',
      ],
      [
        'Generic',
        (payload) => ({
          method: 'POST',
          url: `${ALERT_PATHS.generic}?token=${key}`,
          headers: { 'content-type': 'application/json' },
          payload,
        }),
        'baton',
      ],
    ];
  test.each(
    KEYED.flatMap(([name, request, shape]) =>
      bad.map((b) => [name, ...b, request, shape] as const),
    ),
  )('%s: %s', async (_name, _what, payload, message, request, shape) => {
    const before = await counts();
    const res = await send(request(payload));
    expect(res.statusCode, res.body).toBe(400);
    expectShape(
      shape === 'pagerduty' ? 'baton' : shape,
      res.json(),
      new RegExp(literal(String(message))),
    );
    expect(await counts()).toEqual(before);
  });

  test.each(bad)('PagerDuty: %s', async (_what, payload, message) => {
    const before = await counts();
    const res = await post(ALERT_PATHS.pagerduty, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ status: 'invalid event', errors: [message] });
    expect(await counts()).toEqual(before);
  });

  const pdBad: [string, Record<string, unknown>, RegExp][] = [
    ['an unknown action', pdTrigger({ event_action: 'snooze' }), /event_action must be one of/],
    ['no payload on a trigger', pdTrigger({ payload: undefined }), /payload is required/],
    [
      'a wrong severity',
      pdTrigger({ payload: { summary: 's', source: 'x', severity: 'fatal' } }),
      /payload\.severity/,
    ],
    [
      'a number for the summary',
      pdTrigger({ payload: { summary: 1e308, source: 'x', severity: 'info' } }),
      /payload\.summary/,
    ],
    [
      'NUL in the summary',
      pdTrigger({ payload: { summary: 'a\u0000b', source: 'x', severity: 'info' } }),
      /payload\.summary/,
    ],
    ['resolve without a dedup key', { routing_key: 'k', event_action: 'resolve' }, /dedup_key/],
    ['a routing key that is a number', { ...pdTrigger(), routing_key: 12 }, /routing_key/],
  ];
  test.each(pdBad)('PagerDuty: %s names the field', async (_what, body, message) => {
    const before = await counts();
    const res = await post(ALERT_PATHS.pagerduty, {
      ...body,
      routing_key: body.routing_key === 12 ? 12 : key,
    });
    expect(res.statusCode, res.body).toBe(400);
    const answer = res.json();
    expect(answer.status).toBe('invalid event');
    expect(answer.errors.join('\n')).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  test('Opsgenie: a bad field is 422 in Opsgenie’s shape, naming it', async () => {
    const before = await counts();
    const res = await post(
      ALERT_PATHS.opsgenieCreate,
      { message: 'x'.repeat(131), priority: 'P9' },
      { authorization: `GenieKey ${key}` },
    );
    expect(res.statusCode, res.body).toBe(422);
    const answer = res.json();
    expect(answer.message).toBe('Request body is not processable. Please check the errors.');
    expect(Object.keys(answer.errors).sort()).toEqual(['message', 'priority']);
    expect(typeof answer.took).toBe('number');
    expect(answer.requestId).toMatch(/\S/);
    const badType = await send({
      method: 'POST',
      url: '/api/alerts/opsgenie/v2/alerts/disk-full/close?identifierType=name',
      headers: { authorization: `GenieKey ${key}` },
    });
    expect(badType.statusCode, badType.body).toBe(422);
    expect(badType.json().errors.identifierType).toMatch(/identifierType must be one of/);
    expect(await counts()).toEqual(before);
  });

  test(`Opsgenie: an alias longer than close takes (${OPSGENIE_ALIAS_MAX}) is refused at create in Opsgenie’s shape; the longest taken closes (issue 30)`, async () => {
    const before = await counts();
    const create = (alias: string) =>
      post(
        ALERT_PATHS.opsgenieCreate,
        { message: 'Disk full', alias },
        { authorization: `GenieKey ${key}` },
      );
    const long = await create('a'.repeat(OPSGENIE_ALIAS_MAX + 1));
    expect(long.statusCode, long.body).toBe(422);
    const answer = long.json();
    expect(answer.message).toBe('Request body is not processable. Please check the errors.');
    expect(answer.errors.alias).toMatch(`at most ${OPSGENIE_ALIAS_MAX} characters`);
    expect(typeof answer.took).toBe('number');
    expect(answer.requestId).toMatch(/\S/);
    expect(await counts()).toEqual(before);

    // The longest alias taken, slashes and all, is one its source can close.
    const f = await fresh();
    const alias = `db1/${'é'.repeat(10)}/${'x'.repeat(OPSGENIE_ALIAS_MAX - 15)}`;
    expect(alias).toHaveLength(OPSGENIE_ALIAS_MAX);
    const created = await post(
      ALERT_PATHS.opsgenieCreate,
      { message: 'Disk full', alias },
      { authorization: `GenieKey ${f.key}` },
    );
    expect(created.statusCode, created.body).toBe(202);
    expect((await f.incidents()).map((i) => i.status)).toEqual(['triggered']);
    const closed = await send({
      method: 'POST',
      url: `/api/alerts/opsgenie/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`,
      headers: { authorization: `GenieKey ${f.key}` },
    });
    expect(closed.statusCode, closed.body).toBe(202);
    expect((await f.incidents()).map((i) => i.status)).toEqual(['resolved']);
  });

  test('Opsgenie: acknowledge by id and close by tiny name the incident by its number', async () => {
    const created = await post(
      ALERT_PATHS.opsgenieCreate,
      { message: 'Queue depth high', alias: 'queue-depth-by-number' },
      { authorization: `GenieKey ${key}` },
    );
    expect(created.statusCode, created.body).toBe(202);
    const [incident] = await t.database.db
      .select()
      .from(pages)
      .where(eq(pages.integrationId, integrationId))
      .orderBy(desc(pages.id))
      .limit(1);
    expect(incident.status).toBe('triggered');
    // Opsgenie's default identifierType is id.
    const ack = await send({
      method: 'POST',
      url: `/api/alerts/opsgenie/v2/alerts/${incident.id}/acknowledge`,
      headers: { authorization: `GenieKey ${key}` },
    });
    expect(ack.statusCode, ack.body).toBe(202);
    const statusOf = async () =>
      (await t.database.db.select().from(pages).where(eq(pages.id, incident.id)))[0].status;
    expect(await statusOf()).toBe('acknowledged');
    const close = await send({
      method: 'POST',
      url: `/api/alerts/opsgenie/v2/alerts/${incident.id}/close?identifierType=tiny`,
      headers: { authorization: `GenieKey ${key}` },
    });
    expect(close.statusCode, close.body).toBe(202);
    expect(await statusOf()).toBe('resolved');
  });

  test('Opsgenie: an id that names no open incident of the key is recorded and changes nothing', async () => {
    const before = await counts();
    const res = await send({
      method: 'POST',
      url: '/api/alerts/opsgenie/v2/alerts/999999/close?identifierType=id',
      headers: { authorization: `GenieKey ${key}` },
    });
    expect(res.statusCode, res.body).toBe(202);
    const after = await counts();
    expect(after).toEqual({ ...before, alerts: before.alerts + 1 });
    const [last] = await t.database.db.select().from(alerts).orderBy(desc(alerts.id)).limit(1);
    expect(last).toMatchObject({ outcome: 'ignored', pageId: null, action: 'resolve' });
  });

  test('Alertmanager and Grafana: a wrong version, no alerts or a bad status name the field', async () => {
    const before = await counts();
    const cases: [string, Record<string, unknown>, string][] = [
      [ALERT_PATHS.alertmanager, { ...amFiring, version: '3' }, 'version'],
      [ALERT_PATHS.alertmanager, { ...amFiring, alerts: [] }, 'alerts'],
      [ALERT_PATHS.alertmanager, { ...amFiring, status: 'pending' }, 'status'],
      [ALERT_PATHS.alertmanager, { ...amFiring, truncatedAlerts: 'HUGE' }, 'truncatedAlerts'],
      [ALERT_PATHS.grafana, { ...amFiring }, 'version'],
      [ALERT_PATHS.grafana, { ...amFiring, version: '1', orgId: 'one' }, 'orgId'],
    ];
    for (const [path, body, field] of cases) {
      const res = await post(
        `${path}?token=${key}`,
        JSON.stringify(body).replace('"HUGE"', '1e400'),
      );
      expect(res.statusCode, `${path} ${field}: ${res.body}`).toBe(400);
      const answer = res.json();
      expect(answer.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(answer.fields)).toContain(field);
    }
    expect(await counts()).toEqual(before);
  });

  test('Generic: no summary, closing without dedup, an unknown action', async () => {
    const before = await counts();
    for (const [payload, field] of [
      ['details=only', 'summary'],
      ['action=close', 'dedup'],
      ['summary=x&action=open', 'action'],
    ] as const) {
      const res = await send({
        method: 'POST',
        url: `${ALERT_PATHS.generic}?token=${key}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().fields)).toContain(field);
    }
    expect(await counts()).toEqual(before);
  });

  test('a form body to a JSON route is 415, asking for JSON', async () => {
    const res = await send({
      method: 'POST',
      url: `${ALERT_PATHS.alertmanager}?token=${key}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'status=firing',
    });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json().message).toBe(ALERT_ROUTE_MESSAGES.sendJson);
  });
});
