import { readFileSync } from 'node:fs';
import { count, desc, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, testConfig } from '../../../../tests/setup/test-app';
import { OPSGENIE_ALIAS_MAX } from '../../../shared/contracts/alerts';
import { ALERT_BODY_MAX, INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import { buildApp } from '../../app';
import { alertKeys, alerts, integrations, notifications, pages } from '../../db/schema';
import { KEYED_ROUTE_PREFIX } from '../../http/cross-site';
import { insertIntegration, insertRotation } from '../../seed/factories';
import { generateIntegrationKey, hashIntegrationKey } from '../integrations/integration-keys';
import { countIncidentAlerts } from '../integrations/integration-repository';
import { ALERT_ROUTE_MESSAGES } from './alert-body';
import { ALERT_PATHS } from './alert-paths';
import { grafanaSignature } from './grafana-signature';

/**
 * The inbound alert endpoints through the app (issue 17, decision 211): each vendor's documented
 * request raises, repeats, acknowledges and resolves; every refusal (no key, a wrong key, a bad
 * body, too large, too fast, a wrong Grafana signature) answers 4xx in the vendor's own error
 * shape with a message and writes nothing.
 */

// What Alertmanager 0.25 really sends (tests/fixtures/alertmanager-0.25/README.md).
const FIXTURES = new URL('../../../../tests/fixtures/alertmanager-0.25/', import.meta.url);
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as {
    path: string;
    headers: Record<string, string>;
    body: Record<string, unknown>;
  };

let t: TestApp;
let rotationId: number;
let key: string;
let integrationId: number;
/** sees each statement the app runs, while a test watches */
let watch: ((query: string) => void) | undefined;

beforeAll(async () => {
  t = await createTestApp({ db: { onQuery: (query) => watch?.(query) } });
  const holder = await t.createUser({ name: 'Priya Holder' });
  const other = await t.createUser({ name: 'Sam Member' });
  const rotation = await insertRotation(t.database.db, {
    name: 'Platform',
    memberIds: [holder.id, other.id],
    holderId: holder.id,
    now: t.clock.now(),
  });
  rotationId = rotation.id;
  const made = await insertIntegration(t.database.db, t.cipher, {
    name: 'Prometheus',
    rotationId,
  });
  key = made.key;
  integrationId = made.integration.id;
});
afterAll(() => t.close());

/** The rows an inbound request may write, counted. */
async function counts() {
  const n = async (table: typeof alerts | typeof alertKeys | typeof pages | typeof notifications) =>
    (await t.database.db.select({ n: count() }).from(table))[0].n;
  return {
    alerts: await n(alerts),
    alertKeys: await n(alertKeys),
    pages: await n(pages),
    notifications: await n(notifications),
  };
}

/** A machine's request: no Origin, no cookie (the raw inject, as a monitoring tool sends). */
function send(options: InjectOptions) {
  return t.rawInject(options);
}

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  send({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const pdTrigger = (over: Record<string, unknown> = {}) => ({
  routing_key: key,
  event_action: 'trigger',
  payload: { summary: 'Disk full on db1', source: 'db1', severity: 'critical' },
  ...over,
});

const amFiring = fixture('webhook-firing').body;

/** Each route, and a request to it that is valid but for its key. */
const ROUTES: {
  name: string;
  /** the request, with `k` as its key (undefined: none at all) */
  request: (k: string | undefined) => InjectOptions;
  /** the status of a missing or unknown key */
  refusal: number;
  shape: 'pagerduty' | 'opsgenie' | 'baton';
}[] = [
  {
    name: 'PagerDuty',
    request: (k) => ({
      method: 'POST',
      url: ALERT_PATHS.pagerduty,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(pdTrigger({ routing_key: k })),
    }),
    refusal: 400,
    shape: 'pagerduty',
  },
  {
    name: 'Opsgenie create',
    request: (k) => ({
      method: 'POST',
      url: ALERT_PATHS.opsgenieCreate,
      headers: {
        'content-type': 'application/json',
        ...(k === undefined ? {} : { authorization: `GenieKey ${k}` }),
      },
      payload: JSON.stringify({ message: 'Disk full', alias: 'disk-full' }),
    }),
    refusal: 401,
    shape: 'opsgenie',
  },
  {
    name: 'Opsgenie close',
    request: (k) => ({
      method: 'POST',
      url: '/api/alerts/opsgenie/v2/alerts/disk-full/close?identifierType=alias',
      headers: {
        'content-type': 'application/json',
        ...(k === undefined ? {} : { authorization: `GenieKey ${k}` }),
      },
      payload: JSON.stringify({ source: 'test' }),
    }),
    refusal: 401,
    shape: 'opsgenie',
  },
  {
    name: 'Opsgenie acknowledge',
    request: (k) => ({
      method: 'POST',
      url: '/api/alerts/opsgenie/v2/alerts/disk-full/acknowledge?identifierType=alias',
      headers: {
        'content-type': 'application/json',
        ...(k === undefined ? {} : { authorization: `GenieKey ${k}` }),
      },
      payload: JSON.stringify({}),
    }),
    refusal: 401,
    shape: 'opsgenie',
  },
  {
    name: 'Alertmanager (Bearer)',
    request: (k) => ({
      method: 'POST',
      url: ALERT_PATHS.alertmanager,
      headers: {
        'content-type': 'application/json',
        ...(k === undefined ? {} : { authorization: `Bearer ${k}` }),
      },
      payload: JSON.stringify(amFiring),
    }),
    refusal: 401,
    shape: 'baton',
  },
  {
    name: 'Alertmanager (?token=)',
    request: (k) => ({
      method: 'POST',
      url: `${ALERT_PATHS.alertmanager}${k === undefined ? '' : `?token=${k}`}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(amFiring),
    }),
    refusal: 401,
    shape: 'baton',
  },
  {
    name: 'Grafana',
    request: (k) => ({
      method: 'POST',
      url: `${ALERT_PATHS.grafana}${k === undefined ? '' : `?token=${k}`}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...amFiring, version: '1', title: 'Disk full' }),
    }),
    refusal: 401,
    shape: 'baton',
  },
  {
    name: 'Generic',
    request: (k) => ({
      method: 'POST',
      url: `${ALERT_PATHS.generic}${k === undefined ? '' : `?token=${k}`}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'summary=Backup+failed',
    }),
    refusal: 401,
    shape: 'baton',
  },
];

function expectShape(
  shape: 'pagerduty' | 'opsgenie' | 'baton',
  body: Record<string, unknown>,
  message: string | RegExp,
) {
  if (shape === 'pagerduty') {
    expect(body.status).toBe('invalid event');
    expect((body.errors as string[]).join('\n')).toMatch(message);
  } else {
    expect(body.message).toMatch(message);
  }
  if (shape === 'opsgenie') {
    expect(typeof body.took).toBe('number');
    expect(typeof body.requestId).toBe('string');
  }
  expect(typeof body.code).toBe('string');
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('every alert path lies under the keyed prefix the cross-site check lets through', () => {
  for (const path of Object.values(ALERT_PATHS))
    expect(path.startsWith(KEYED_ROUTE_PREFIX)).toBe(true);
});

describe.each(ROUTES)('$name', (route) => {
  test('no key, an unknown key and a regenerated key are refused alike, writing nothing', async () => {
    const before = await counts();
    const missing = await send(route.request(undefined));
    expect(missing.statusCode, missing.body).toBe(route.refusal);
    expectShape(route.shape, missing.json(), new RegExp(literal(INTEGRATION_MESSAGES.keyMissing)));

    const unknown = await send(route.request(generateIntegrationKey()));
    expect(unknown.statusCode, unknown.body).toBe(route.refusal);
    expectShape(route.shape, unknown.json(), new RegExp(literal(INTEGRATION_MESSAGES.keyUnknown)));

    // A key the integration had before it was regenerated.
    const old = await insertIntegration(t.database.db, t.cipher, { rotationId });
    await t.database.db
      .update(integrations)
      .set({ keyHash: hashIntegrationKey(generateIntegrationKey()) })
      .where(eq(integrations.id, old.integration.id));
    const regenerated = await send(route.request(old.key));
    expect(regenerated.statusCode, regenerated.body).toBe(route.refusal);

    // A deleted integration's key.
    const gone = await insertIntegration(t.database.db, t.cipher, { rotationId });
    await t.database.db.delete(integrations).where(eq(integrations.id, gone.integration.id));
    const deleted = await send(route.request(gone.key));
    expect(deleted.statusCode, deleted.body).toBe(route.refusal);

    expect(await counts()).toEqual(before);
  });

  test(`a body over ${ALERT_BODY_MAX / 1024} kB is 413 in the route's own shape`, async () => {
    const before = await counts();
    const request = route.request(key);
    const big = `{"pad":"${'x'.repeat(ALERT_BODY_MAX)}"}`;
    const res = await send({ ...request, payload: big });
    expect(res.statusCode, res.body).toBe(413);
    const body = res.json();
    if (route.shape === 'pagerduty') expect(body.errors).toEqual([INTEGRATION_MESSAGES.tooLarge]);
    else expect(body.message).toBe(INTEGRATION_MESSAGES.tooLarge);
    expect(body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await counts()).toEqual(before);
  });

  test('a machine sends no Origin, and a foreign Origin is not refused as cross-site', async () => {
    const res = await send({
      ...route.request(generateIntegrationKey()),
      headers: {
        ...(route.request(undefined).headers as Record<string, string>),
        origin: 'https://evil.example',
      },
    });
    expect(res.statusCode, res.body).toBe(route.refusal);
  });
});

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

describe('rate', () => {
  test('beyond the integration’s requests a second: 429 with Retry-After, until the next second', async () => {
    const slow = await insertIntegration(t.database.db, t.cipher, { rotationId, rateLimit: 2 });
    const before = await counts();
    // Bodies the route refuses after counting them: the limit is on requests, not on alerts.
    const call = () => post(`${ALERT_PATHS.alertmanager}?token=${slow.key}`, { version: '4' });
    expect((await call()).statusCode).toBe(400);
    expect((await call()).statusCode).toBe(400);
    const limited = await call();
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json().message).toBe(INTEGRATION_MESSAGES.rateLimited(2));
    // Another integration's key is counted apart.
    expect(
      (await post(`${ALERT_PATHS.alertmanager}?token=${key}`, { version: '4' })).statusCode,
    ).toBe(400);
    const pd = await post(ALERT_PATHS.pagerduty, { routing_key: slow.key, event_action: 'x' });
    expect(pd.statusCode).toBe(429);
    expect(pd.json().status).toBe('error');
    t.clock.advance(1_000);
    expect((await call()).statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });
});

describe('Grafana signing secret', () => {
  const secret = 'grafana-signing-secret';
  let signedKey: string;
  beforeAll(async () => {
    signedKey = (
      await insertIntegration(t.database.db, t.cipher, { rotationId, signingSecret: secret })
    ).key;
  });
  const body = JSON.stringify({ ...amFiring, version: '1', status: 'bogus' });
  const at = () => String(Math.floor(t.clock.now().getTime() / 1000));
  const signed = (headers: Record<string, string>) =>
    send({
      method: 'POST',
      url: ALERT_PATHS.grafana,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${signedKey}`,
        ...headers,
      },
      payload: body,
    });

  test('no signature, a wrong one, another body’s or a stale timestamp: 401, nothing written', async () => {
    const before = await counts();
    const ts = at();
    const missing = await signed({});
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toBe(INTEGRATION_MESSAGES.signatureRequired);
    const noTimestamp = await signed({
      'x-grafana-alerting-signature': grafanaSignature(secret, ts, body),
    });
    expect(noTimestamp.json().message).toBe(INTEGRATION_MESSAGES.signatureRequired);
    for (const headers of [
      { 'x-grafana-alerting-signature': grafanaSignature('other', ts, body) },
      { 'x-grafana-alerting-signature': grafanaSignature(secret, ts, `${body} `) },
      { 'x-grafana-alerting-signature': 'zz' },
      {
        'x-grafana-alerting-signature': grafanaSignature(secret, String(Number(ts) - 301), body),
        'x-grafana-alerting-timestamp': String(Number(ts) - 301),
      },
    ]) {
      const res = await signed({ 'x-grafana-alerting-timestamp': ts, ...headers });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().message).toBe(INTEGRATION_MESSAGES.signatureWrong);
    }
    expect(await counts()).toEqual(before);
  });

  test.each(ROUTES.filter((r) => r.name !== 'Grafana'))(
    'the same key unsigned is refused by $name in its own shape, writing nothing (issue 30)',
    async (route) => {
      const before = await counts();
      const res = await send(route.request(signedKey));
      expect(res.statusCode, res.body).toBe(route.refusal);
      expectShape(route.shape, res.json(), new RegExp(literal(INTEGRATION_MESSAGES.signedOnly)));
      expect(await counts()).toEqual(before);
    },
  );

  test('a key that raised alerts unsigned stops at once when given a secret, though its row is remembered (issue 30)', async () => {
    const f = await fresh();
    const generic = (body: Record<string, unknown>) =>
      post(`${ALERT_PATHS.generic}?token=${f.key}`, body);
    const trigger = { summary: 'Backup failed', dedup: 'b1' };
    expect((await generic(trigger)).statusCode).toBe(202);
    // The integration gets a secret through its own route, as a manager would set it; the
    // process still remembers the key's row without it (decision 216).
    const admin = await t.createUser({ roles: ['admin'] });
    const changed = await t.call(admin, 'PATCH', `/api/integrations/${f.integration.id}`, {
      signingSecret: 'a-new-grafana-secret',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const before = await counts();
    // The same event again (the repeat statement), a new one (the full path) and a close.
    for (const body of [
      trigger,
      { summary: 'Disk full', dedup: 'd1' },
      { action: 'close', dedup: 'b1' },
    ]) {
      const refused = await generic(body);
      expect(refused.statusCode, refused.body).toBe(401);
      expect(refused.json().message).toBe(INTEGRATION_MESSAGES.signedOnly);
    }
    expect(await counts()).toEqual(before);
    expect((await f.incidents()).map((i) => i.status)).toEqual(['triggered']);
  });

  test('a right signature within 5 minutes passes to the body’s own check', async () => {
    const ts = String(Math.floor(t.clock.now().getTime() / 1000) - 290);
    const res = await signed({
      'x-grafana-alerting-signature': grafanaSignature(secret, ts, body).toUpperCase(),
      'x-grafana-alerting-timestamp': ts,
    });
    // The body's status is bogus: past the signature, refused for that.
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields.status).toMatch(/firing or resolved/);
  });
});

/** A rotation of its own with a holder, and an integration on it: the notifications are its own. */
async function fresh(seed: Parameters<typeof insertIntegration>[2] = {}) {
  const holder = await t.createUser();
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id],
    holderId: holder.id,
    now: t.clock.now(),
  });
  const made = await insertIntegration(t.database.db, t.cipher, {
    rotationId: rotation.id,
    ...seed,
  });
  const incidents = async () => {
    const rows = await t.database.db
      .select({
        id: pages.id,
        status: pages.status,
        severity: pages.severity,
        urgency: pages.urgency,
      })
      .from(pages)
      .where(eq(pages.integrationId, made.integration.id))
      .orderBy(pages.id);
    const counted = await countIncidentAlerts(
      t.database.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, alertCount: counted.get(r.id)?.alertCount ?? 0 }));
  };
  const notified = async () =>
    (
      await t.database.db
        .select({ userId: notifications.userId, pageId: notifications.pageId })
        .from(notifications)
        .innerJoin(pages, eq(pages.id, notifications.pageId))
        .where(eq(pages.integrationId, made.integration.id))
    ).map((n) => n.userId);
  return { key: made.key, integration: made.integration, holderId: holder.id, incidents, notified };
}

/** A captured Alertmanager request (its path relative to the configured URL or base), with a key. */
function captured(name: string, k: string, base: string) {
  const f = fixture(name);
  const headers = Object.fromEntries(
    Object.entries(f.headers)
      .filter(([h]) => h !== 'content-length')
      .map(([h, v]) => [h, v.replace('<key>', k)]),
  );
  const body = JSON.parse(JSON.stringify(f.body).replaceAll('<key>', k));
  return send({ method: 'POST', url: `${base}${f.path}`, headers, payload: JSON.stringify(body) });
}

describe('what the senders document, through the intake', () => {
  test('PagerDuty: Alertmanager’s trigger raises one incident and notifies the holder once; a repeat changes nothing; resolve resolves', async () => {
    const f = await fresh();
    const trigger = await captured('pagerduty-trigger', f.key, '/api/alerts/pagerduty');
    expect(trigger.statusCode, trigger.body).toBe(202);
    expect(trigger.json()).toEqual({
      status: 'success',
      message: 'Event processed',
      dedup_key: fixture('pagerduty-trigger').body.dedup_key,
    });
    const [incident] = await f.incidents();
    expect(incident).toMatchObject({ status: 'triggered', severity: 'P2', urgency: 'high' });
    expect(await f.notified()).toEqual([f.holderId]);

    const before = await counts();
    t.clock.advance(60_000);
    const again = await captured('pagerduty-trigger', f.key, '/api/alerts/pagerduty');
    expect(again.statusCode).toBe(202);
    expect(await counts()).toEqual(before);

    const resolve = await captured('pagerduty-resolve', f.key, '/api/alerts/pagerduty');
    expect(resolve.statusCode, resolve.body).toBe(202);
    expect((await f.incidents()).map((i) => i.status)).toEqual(['resolved']);
  });

  test('PagerDuty: the payload kept names the routing key by its last four characters only', async () => {
    const f = await fresh();
    const res = await post(ALERT_PATHS.pagerduty, pdTrigger({ routing_key: f.key }));
    expect(res.statusCode, res.body).toBe(202);
    const [incident] = await f.incidents();
    const [row] = await t.database.db.select().from(alerts).where(eq(alerts.pageId, incident.id));
    const kept = JSON.parse(
      t.cipher.decrypt(row.payloadEnc ?? '', { table: 'alerts', column: 'payload', rowId: row.id }),
    );
    expect(kept.routing_key).toBe(`…${f.key.slice(-4)}`);
    expect(JSON.stringify(kept)).not.toContain(f.key);
    expect(kept.payload.summary).toBe(pdTrigger().payload.summary);
  });

  test('PagerDuty: a trigger without dedup_key gets one, returned, that acknowledges and resolves it', async () => {
    const f = await fresh({ urgency: 'low' });
    const res = await post(ALERT_PATHS.pagerduty, pdTrigger({ routing_key: f.key }));
    expect(res.statusCode, res.body).toBe(202);
    const dedupKey = res.json().dedup_key;
    expect(dedupKey).toMatch(/^[0-9a-f]{32}$/);
    const [incident] = await f.incidents();
    // The integration's urgency wins over the severity's (P1 would be high).
    expect(incident).toMatchObject({ severity: 'P1', urgency: 'low' });
    const ack = await post(ALERT_PATHS.pagerduty, {
      routing_key: f.key,
      event_action: 'acknowledge',
      dedup_key: dedupKey,
    });
    expect(ack.json().dedup_key).toBe(dedupKey);
    expect((await f.incidents())[0].status).toBe('acknowledged');
    await post(ALERT_PATHS.pagerduty, {
      routing_key: f.key,
      event_action: 'resolve',
      dedup_key: dedupKey,
    });
    expect((await f.incidents())[0].status).toBe('resolved');
  });

  test('Opsgenie: Alertmanager’s create and close by alias raise and resolve; acknowledge acknowledges', async () => {
    const f = await fresh();
    const created = await captured('opsgenie-create', f.key, '/api/alerts/opsgenie');
    expect(created.statusCode, created.body).toBe(202);
    expect(created.json()).toMatchObject({ result: 'Request will be processed' });
    expect(typeof created.json().took).toBe('number');
    expect(created.json().requestId).toMatch(/\S/);
    expect((await f.incidents()).map((i) => i.status)).toEqual(['triggered']);
    expect(await f.notified()).toEqual([f.holderId]);

    const alias = fixture('opsgenie-create').body.alias as string;
    const ack = await send({
      method: 'POST',
      url: `/api/alerts/opsgenie/v2/alerts/${alias}/acknowledge?identifierType=alias`,
      headers: { authorization: `GenieKey ${f.key}` },
    });
    expect(ack.statusCode, ack.body).toBe(202);
    expect((await f.incidents())[0].status).toBe('acknowledged');

    const closed = await captured('opsgenie-close', f.key, '/api/alerts/opsgenie');
    expect(closed.statusCode, closed.body).toBe(202);
    expect((await f.incidents()).map((i) => i.status)).toEqual(['resolved']);
  });

  test('Alertmanager: the firing group raises one incident, the same group again only repeats, resolved resolves', async () => {
    const f = await fresh();
    const firing = await post(`${ALERT_PATHS.alertmanager}?token=${f.key}`, amFiring);
    expect(firing.statusCode, firing.body).toBe(202);
    const [receipt] = firing.json().alerts;
    expect(receipt.outcome).toBe('raised');
    const [incident] = await f.incidents();
    expect(receipt.incidentId).toBe(incident.id);
    expect(incident.severity).toBe('P1'); // severity=critical

    const again = await post(ALERT_PATHS.alertmanager, amFiring, {
      authorization: `Bearer ${f.key}`,
    });
    expect(again.json().alerts[0]).toMatchObject({ outcome: 'repeated', incidentId: incident.id });
    expect(await f.notified()).toEqual([f.holderId]);

    const resolved = await post(
      `${ALERT_PATHS.alertmanager}?token=${f.key}`,
      fixture('webhook-resolved').body,
    );
    expect(resolved.json().alerts[0]).toMatchObject({
      outcome: 'resolved',
      incidentId: incident.id,
    });
    expect((await f.incidents()).map((i) => i.status)).toEqual(['resolved']);
  });

  test('Alertmanager: grouping by fingerprint raises one incident per alert', async () => {
    const f = await fresh({ grouping: 'fingerprint' });
    const alertsOf = amFiring.alerts as Record<string, unknown>[];
    const two = {
      ...amFiring,
      alerts: [
        alertsOf[0],
        {
          ...alertsOf[0],
          fingerprint: 'ffff000011112222',
          labels: { alertname: 'DiskFull', instance: 'db2' },
        },
      ],
    };
    const res = await post(`${ALERT_PATHS.alertmanager}?token=${f.key}`, two);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().alerts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'raised',
      'raised',
    ]);
    expect(await f.incidents()).toHaveLength(2);
  });

  test('Grafana: a signed message raises an incident', async () => {
    const f = await fresh({ signingSecret: 'grafana-secret-1' });
    const body = JSON.stringify({
      ...amFiring,
      version: '1',
      title: '[FIRING:1] Disk full',
      state: 'alerting',
    });
    const ts = String(Math.floor(t.clock.now().getTime() / 1000));
    const res = await send({
      method: 'POST',
      url: `${ALERT_PATHS.grafana}?token=${f.key}`,
      headers: {
        'content-type': 'application/json',
        'x-grafana-alerting-signature': grafanaSignature('grafana-secret-1', ts, body),
        'x-grafana-alerting-timestamp': ts,
      },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().alerts[0].outcome).toBe('raised');
    expect(await f.incidents()).toHaveLength(1);
  });

  test('Generic: `curl -d summary=…` raises, `action=close` with its dedup resolves; JSON too', async () => {
    const f = await fresh();
    const form = (payload: string) =>
      send({
        method: 'POST',
        url: `${ALERT_PATHS.generic}?token=${f.key}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    const raised = await form('summary=Nightly+backup+failed&details=exit+code+2&dedup=backup');
    expect(raised.statusCode, raised.body).toBe(202);
    expect(raised.json()).toMatchObject({ dedupKey: 'backup', outcome: 'raised' });
    const closed = await form('action=close&dedup=backup');
    expect(closed.json()).toMatchObject({ dedupKey: 'backup', outcome: 'resolved' });

    const json = await post(`${ALERT_PATHS.generic}?token=${f.key}`, { summary: 'Cron job late' });
    expect(json.statusCode, json.body).toBe(202);
    expect(json.json().dedupKey).toMatch(/^[0-9a-f]{32}$/);
    expect((await f.incidents()).map((i) => i.status)).toEqual(['resolved', 'triggered']);
  });
});

describe('a key used within the minute (decision 216)', () => {
  /** A used key, its integration changed behind this process's back (as by another instance). */
  async function usedThenChanged(change: 'regenerate' | 'delete') {
    const made = await insertIntegration(t.database.db, t.cipher, { rotationId });
    const event = pdTrigger({ routing_key: made.key, dedup_key: `changed-${change}` });
    expect((await post(ALERT_PATHS.pagerduty, event)).statusCode).toBe(202);
    if (change === 'regenerate') {
      await t.database.db
        .update(integrations)
        .set({ keyHash: hashIntegrationKey(generateIntegrationKey()) })
        .where(eq(integrations.id, made.integration.id));
    } else {
      await t.database.db.delete(integrations).where(eq(integrations.id, made.integration.id));
    }
    return { key: made.key, event };
  }

  test.each(['regenerate', 'delete'] as const)(
    'after a %s elsewhere, no repeat, new alert or resolve of the old key writes anything',
    async (change) => {
      const { key: old, event } = await usedThenChanged(change);
      const before = await counts();
      const repeat = await post(ALERT_PATHS.pagerduty, event);
      expect(repeat.statusCode, repeat.body).toBe(400);
      expect(repeat.json().message).toBe(INTEGRATION_MESSAGES.keyUnknown);
      const another = await post(
        ALERT_PATHS.pagerduty,
        pdTrigger({ routing_key: old, dedup_key: 'another' }),
      );
      expect(another.statusCode, another.body).toBe(400);
      const resolve = await post(ALERT_PATHS.pagerduty, { ...event, event_action: 'resolve' });
      expect(resolve.statusCode, resolve.body).toBe(400);
      expect(await counts()).toEqual(before);
    },
  );

  test('repeats arriving together go as one statement and each is counted', async () => {
    const f = await fresh();
    const event = pdTrigger({ routing_key: f.key, dedup_key: 'together' });
    expect((await post(ALERT_PATHS.pagerduty, event)).statusCode).toBe(202);
    // The first repeat reads the row again: the first trigger recorded the key's last use.
    expect((await post(ALERT_PATHS.pagerduty, event)).statusCode).toBe(202);
    const statements: string[] = [];
    watch = (query) => statements.push(query);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(ALERT_PATHS.pagerduty, event)),
    );
    watch = undefined;
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(202));
    // Nothing but the batched repeat ran, and fewer times than there were repeats.
    expect(statements.every((q) => q.startsWith('with probe'))).toBe(true);
    expect(statements.length).toBeLessThan(answers.length);
    const [incident] = await f.incidents();
    const [alert] = await t.database.db
      .select({ seenCount: alerts.seenCount })
      .from(alerts)
      .where(eq(alerts.pageId, incident.id));
    expect(alert.seenCount).toBe(10);
  });
});

describe('new keys in an alert storm (decision 216)', () => {
  /** An integration in a storm: its limit of 2 new incidents reached, its storm incident open. */
  async function inStorm() {
    const f = await fresh({ stormLimit: 2, rateLimit: 1000 });
    for (const k of ['first', 'second', 'third']) {
      const res = await post(
        ALERT_PATHS.pagerduty,
        pdTrigger({ routing_key: f.key, dedup_key: k }),
      );
      expect(res.json().dedup_key).toBe(k);
    }
    const incidents = await f.incidents();
    expect(incidents).toHaveLength(3);
    // A second trigger records the key's last use: from here on, requests go the batched way.
    await post(ALERT_PATHS.pagerduty, pdTrigger({ routing_key: f.key, dedup_key: 'first' }));
    return { ...f, storm: incidents[2].id };
  }

  const trigger = (routingKey: string, k: string) =>
    pdTrigger({
      routing_key: routingKey,
      dedup_key: k,
      payload: { summary: `Host ${k} unreachable`, source: k, severity: 'warning' },
    });

  test('arriving together, they fold as a batch of two statements, each alert once, readable', async () => {
    const f = await inStorm();
    const statements: string[] = [];
    watch = (query) => statements.push(query);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(ALERT_PATHS.pagerduty, trigger(f.key, `fold-${i}`)),
      ),
    );
    watch = undefined;
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(202));
    // No transaction: the repeat tries, the id reservations and the folds, each batched.
    expect(statements.filter((q) => /^(begin|commit)/i.test(q))).toEqual([]);
    expect(statements.length).toBeLessThan(answers.length);
    const folded = await t.database.db
      .select({
        id: alerts.id,
        outcome: alerts.outcome,
        severity: alerts.severity,
        pageId: alerts.pageId,
      })
      .from(alerts)
      .where(eq(alerts.pageId, f.storm));
    expect(folded.filter((a) => a.outcome === 'folded')).toHaveLength(12 + 1);
    expect(new Set(folded.map((a) => a.id)).size).toBe(folded.length);
    const [storm] = (await f.incidents()).filter((i) => i.id === f.storm);
    expect(storm.alertCount).toBe(13);
    // The sealed texts open with their own ids: the storm's alert list reads them.
    const admin = await t.createUser({ roles: ['admin'] });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/incidents/${f.storm}/alerts`,
      headers: { cookie: await t.cookieFor(admin) },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(JSON.stringify(list.json())).toContain('Host fold-11 unreachable');
    // A folded key repeats, and a changed event on it updates: the key points at its alert.
    const again = await post(ALERT_PATHS.pagerduty, trigger(f.key, 'fold-3'));
    expect(again.statusCode).toBe(202);
    const [alert] = await t.database.db
      .select({ seenCount: alerts.seenCount })
      .from(alerts)
      .innerJoin(alertKeys, eq(alertKeys.lastAlertId, alerts.id))
      .where(eq(alertKeys.integrationId, f.integration.id))
      .orderBy(desc(alerts.seenCount))
      .limit(1);
    expect(alert.seenCount).toBe(2);
  });

  test('the same new key twice at once: one alert folded, the other a repeat of it', async () => {
    const f = await inStorm();
    const before = await counts();
    const answers = await Promise.all(
      Array.from({ length: 2 }, () => post(ALERT_PATHS.pagerduty, trigger(f.key, 'twice'))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202]);
    const after = await counts();
    expect(after.alerts - before.alerts).toBe(1);
    expect(after.alertKeys - before.alertKeys).toBe(1);
    expect(after.pages).toBe(before.pages);
  });

  test('after the key is regenerated elsewhere, a new key in the storm writes nothing', async () => {
    const f = await inStorm();
    await t.database.db
      .update(integrations)
      .set({ keyHash: hashIntegrationKey(generateIntegrationKey()) })
      .where(eq(integrations.id, f.integration.id));
    const before = await counts();
    const res = await post(ALERT_PATHS.pagerduty, trigger(f.key, 'after-regeneration'));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(INTEGRATION_MESSAGES.keyUnknown);
    expect(await counts()).toEqual(before);
  });

  test('once the storm is resolved, a new key within the minute raises a new storm', async () => {
    const f = await inStorm();
    await t.database.db.update(pages).set({ status: 'resolved' }).where(eq(pages.id, f.storm));
    const res = await post(ALERT_PATHS.pagerduty, trigger(f.key, 'after-the-storm'));
    expect(res.statusCode).toBe(202);
    const incidents = await f.incidents();
    expect(incidents).toHaveLength(4);
    const latest = incidents[3];
    expect(latest.status).toBe('triggered');
    expect(latest.alertCount).toBe(1);
    // Its key points at the new incident, not at the resolved storm.
    const [onLatest] = await t.database.db
      .select({ n: count() })
      .from(alertKeys)
      .where(eq(alertKeys.pageId, latest.id));
    expect(onLatest.n).toBe(1);
  });
});

test('repeats, changes and new keys of one integration at once all land, none waiting in a circle', async () => {
  const f = await fresh({ rateLimit: 1000 });
  const keys = Array.from({ length: 5 }, (_, i) => `mixed-${i}`);
  const event = (k: string, summary = `Disk full on ${k}`) =>
    pdTrigger({
      routing_key: f.key,
      dedup_key: k,
      payload: { summary, source: k, severity: 'error' },
    });
  for (const k of keys) expect((await post(ALERT_PATHS.pagerduty, event(k))).statusCode).toBe(202);
  expect((await post(ALERT_PATHS.pagerduty, event(keys[0]))).statusCode).toBe(202);
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => {
      const k = keys[i % keys.length];
      if (i % 3 === 0)
        return post(ALERT_PATHS.pagerduty, event(k, `Disk full on ${k}, again ${i}`));
      if (i % 7 === 0) return post(ALERT_PATHS.pagerduty, event(`mixed-new-${i}`));
      return post(ALERT_PATHS.pagerduty, event(k));
    }),
  );
  expect(answers.filter((a) => a.statusCode !== 202).map((a) => a.body)).toEqual([]);
  // one incident per key, the new keys' included
  const incidents = await f.incidents();
  expect(incidents).toHaveLength(
    keys.length + answers.filter((_, i) => i % 3 !== 0 && i % 7 === 0).length,
  );
});

test('a storm of 300 distinct alerts in ten seconds records 300 alerts and sends the holder fewer than 25 notifications', {
  timeout: 60_000,
}, async () => {
  const f = await fresh();
  const before = await counts();
  for (let i = 0; i < 300; i++) {
    const res = await post(
      ALERT_PATHS.pagerduty,
      pdTrigger({
        routing_key: f.key,
        dedup_key: `host-${i}`,
        payload: { summary: `Host ${i} unreachable`, source: `host-${i}`, severity: 'critical' },
      }),
    );
    expect(res.statusCode, res.body).toBe(202);
    t.clock.advance(33);
  }
  const after = await counts();
  expect(after.alerts - before.alerts).toBe(300);
  const notified = await f.notified();
  expect(notified.every((id) => id === f.holderId)).toBe(true);
  expect(notified.length).toBeLessThan(25);
  // The storm limit (20 a minute) raised 20, and the rest folded into one storm incident.
  expect(await f.incidents()).toHaveLength(21);
});

test('keys reach no log line: not ?token=, not Authorization, not the routing_key', async () => {
  const lines: string[] = [];
  const logged = await buildApp({
    config: testConfig({ LOG_LEVEL: 'trace' }),
    database: t.database,
    cipher: t.cipher,
    clock: t.clock,
    logStream: { write: (line: string) => void lines.push(line) },
  });
  await logged.ready();
  try {
    const secret = generateIntegrationKey();
    for (const request of [
      { url: `${ALERT_PATHS.alertmanager}?token=${secret}`, payload: amFiring },
      {
        url: ALERT_PATHS.generic,
        payload: { summary: 'x' },
        headers: { authorization: `Bearer ${secret}` },
      },
      {
        url: ALERT_PATHS.opsgenieCreate,
        payload: { message: 'x' },
        headers: { authorization: `GenieKey ${secret}` },
      },
      { url: ALERT_PATHS.pagerduty, payload: pdTrigger({ routing_key: secret }) },
      { url: ALERT_PATHS.pagerduty, payload: `{"routing_key":"${secret}",` },
    ]) {
      const res = await logged.inject({
        method: 'POST',
        url: request.url,
        headers: { 'content-type': 'application/json', ...request.headers },
        payload:
          typeof request.payload === 'string' ? request.payload : JSON.stringify(request.payload),
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  } finally {
    await logged.close();
  }
});
