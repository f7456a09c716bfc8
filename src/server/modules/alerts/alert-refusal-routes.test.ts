import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, test } from 'vitest';
import { testConfig } from '../../../../tests/setup/test-app';
import { ALERT_BODY_MAX, INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import { buildApp } from '../../app';
import { integrations } from '../../db/schema';
import { KEYED_ROUTE_PREFIX } from '../../http/cross-site';
import { insertIntegration } from '../../seed/factories';
import { generateIntegrationKey, hashIntegrationKey } from '../integrations/integration-keys';
import { ALERT_PATHS } from './alert-paths';
import {
  amFiring,
  counts,
  expectShape,
  fresh,
  key,
  literal,
  pdTrigger,
  post,
  rotationId,
  send,
  setUpAlertApp,
  t,
} from './alert-routes.fixtures';
import { grafanaSignature } from './grafana-signature';

setUpAlertApp();

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
