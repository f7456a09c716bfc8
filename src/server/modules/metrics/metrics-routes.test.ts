import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { DeliveryError } from '../../core/delivery';
import { BATON_VERSION } from '../../core/version';
import { startEngineLoop } from '../../engine/engine-loop';
import { insertIntegration, insertRotation } from '../../seed/factories';
import { deliverDue, enqueueNotifications } from '../notifications/outbox';
import { bearerMatches, METRICS_TOKEN_REQUIRED } from './metrics-routes';

/**
 * GET /metrics (issue 20, decision 225): off unless configured, a bearer token compared in
 * constant time or public; Prometheus' text format that promtool accepts; counters that move
 * with requests, alerts, deliveries and engine ticks, labelled by route pattern, never by URL.
 */

const TOKEN = 'metrics-token-0123456789';

/** promtool checks exposition text (Debian's `prometheus` package); answers its exit and output. */
function promtool(text: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (run.error)
    throw new Error(`promtool could not run (apt-get install prometheus): ${run.error}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** sample reads one sample's value from exposition text (undefined: no such series). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('who may read /metrics', () => {
  test('off by default: 404 in the error shape, as any unknown reserved path', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
      expect(t.app.routeList.some((r) => r.url === '/metrics')).toBe(false);
    } finally {
      await t.close();
    }
  });

  test('METRICS_TOKEN: 401 without it or with a wrong one, 200 with it', async () => {
    const t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
        const res = await t.app.inject({
          url: '/metrics',
          headers: authorization ? { authorization } : {},
        });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(res.json()).toEqual({ message: METRICS_TOKEN_REQUIRED, code: 'UNAUTHENTICATED' });
      }
      const res = await t.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain(`baton_build_info{version="${BATON_VERSION}"} 1`);
    } finally {
      await t.close();
    }
  });

  test('METRICS_PUBLIC=1: anyone may read them', async () => {
    const t = await createTestApp({ env: { METRICS_PUBLIC: '1' } });
    try {
      const res = await t.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('# TYPE baton_http_requests_total counter');
    } finally {
      await t.close();
    }
  });

  test.each([
    [`Bearer ${TOKEN}`, true],
    [`bearer  ${TOKEN} `, true],
    [`Bearer ${TOKEN.slice(0, -1)}`, false],
    [`Bearer ${TOKEN} extra`, false],
    ['Bearer ', false],
    [undefined, false],
  ])('bearerMatches(%j) is %s', (header, expected) => {
    expect(bearerMatches(header, TOKEN)).toBe(expected);
  });
});

describe('what /metrics says', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  test('passes promtool check metrics, with process metrics and every Baton family', async () => {
    const text = await scrape();
    const checked = promtool(text);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
    for (const family of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'baton_http_requests_total',
      'baton_http_request_duration_seconds',
      'baton_engine_ticks_total',
      'baton_engine_tick_duration_seconds',
      'baton_engine_tick_lag_seconds',
      'baton_engine_last_success_timestamp_seconds',
      'baton_outbox_queue_depth',
      'baton_outbox_sent_total',
      'baton_outbox_failed_total',
      'baton_outbox_retries_total',
      'baton_incidents_open',
      'baton_alerts_received_total',
      'baton_alerts_refused_total',
      'baton_live_streams_open',
    ]) {
      expect(text, family).toMatch(new RegExp(`^# TYPE ${family} `, 'm'));
    }
    expect(sample(text, 'baton_live_streams_open')).toBe(0);
    // The pool's gauges exist where there is a pool: PostgreSQL.
    const onPostgres = t.database.engine === 'postgres';
    expect(text.includes('baton_db_pool_connections{state="idle"}')).toBe(onPostgres);
    if (onPostgres) expect(sample(text, 'baton_db_pool_max_connections')).toBeGreaterThan(0);
  });

  test('requests are counted by route pattern and status, never by their URL', async () => {
    const user = await t.createUser();
    const cookie = await t.cookieFor(user);
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url: `/api/rotations/${900_000 + i}`, headers: { cookie } });
      expect(res.statusCode).toBe(404);
    }
    await t.app.inject({ url: '/api/no-such-thing/12345' });
    const text = await scrape();
    expect(
      sample(
        text,
        'baton_http_requests_total{method="GET",route="/api/rotations/:id",status="404"}',
      ),
    ).toBe(3);
    expect(
      sample(
        text,
        'baton_http_request_duration_seconds_count{method="GET",route="/api/rotations/:id"}',
      ),
    ).toBe(3);
    expect(
      sample(text, 'baton_http_requests_total{method="GET",route="unmatched",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    // No label carries a URL's id (a sample's value may hold any digits).
    const labels = [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
    expect(labels.filter((l) => l.includes('900000') || l.includes('12345'))).toEqual([]);
    expect(promtool(text).status).toBe(0);
  });

  test('alerts received and refused per source; open incidents by status', async () => {
    const holder = await t.createUser();
    const rotation = await insertRotation(t.database.db, {
      name: 'Metrics',
      memberIds: [holder.id],
      holderId: holder.id,
      now: t.clock.now(),
    });
    const { key } = await insertIntegration(t.database.db, t.cipher, { rotationId: rotation.id });
    const before = await scrape();
    expect(sample(before, 'baton_alerts_received_total{source="generic"}')).toBe(0);
    expect(sample(before, 'baton_incidents_open{status="triggered"}')).toBe(0);
    for (const summary of ['Disk full on db1', 'Disk full on db1', 'CPU hot on web2']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/alerts/generic?token=${key}`,
        payload: { summary, dedup: summary },
      });
      expect(res.statusCode, res.body).toBe(202);
    }
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/generic?token=0123456789abcdef0123456789abcdef',
      payload: { summary: 'nobody' },
    });
    expect(wrong.statusCode).toBe(401);
    const text = await scrape();
    expect(sample(text, 'baton_alerts_received_total{source="generic"}')).toBe(3);
    expect(sample(text, 'baton_alerts_refused_total{source="generic",status="401"}')).toBe(1);
    expect(sample(text, 'baton_alerts_received_total{source="pagerduty"}')).toBe(0);
    // Two dedup keys: two open incidents, both triggered.
    expect(sample(text, 'baton_incidents_open{status="triggered"}')).toBe(2);
    expect(promtool(text).status).toBe(0);
  });

  test('the outbox: queue depth by channel from the database, sent and failed by this process', async () => {
    const person = await t.createUser({ notificationPreference: 'email' });
    const before = await scrape();
    const pendingBefore = sample(before, 'baton_outbox_queue_depth{channel="email"}') ?? 0;
    await enqueueNotifications(t.database.db, t.cipher, t.clock.now(), [
      { eventKey: 'metrics:1', kind: 'test', recipient: person, subject: 'One', text: 'One' },
      { eventKey: 'metrics:2', kind: 'test', recipient: person, subject: 'Two', text: 'Two' },
    ]);
    const queued = await scrape();
    expect(sample(queued, 'baton_outbox_queue_depth{channel="email"}')).toBe(pendingBefore + 2);
    expect(sample(queued, 'baton_outbox_queue_depth{channel="chat"}')).toBe(0);
    const report = await deliverDue(
      {
        db: t.database.db,
        cipher: t.cipher,
        clock: t.clock,
        channels: {
          email: {
            name: 'email',
            send: async (message) => {
              if (message.subject === 'Two') throw new DeliveryError('mailbox unknown', true);
              return 'queued as 1';
            },
          },
        },
        onOutcome: t.app.metrics.recordDelivery,
      },
      50,
      'email',
    );
    expect(report.sent).toBeGreaterThanOrEqual(1);
    expect(report.failed).toBeGreaterThanOrEqual(1);
    const text = await scrape();
    expect(sample(text, 'baton_outbox_sent_total{channel="email"}')).toBe(report.sent);
    expect(sample(text, 'baton_outbox_failed_total{channel="email"}')).toBe(report.failed);
    expect(sample(text, 'baton_outbox_sent_total{channel="sms"}')).toBe(0);
    // What is left: the rest of the queue (due later, or waiting for another retry).
    expect(sample(text, 'baton_outbox_queue_depth{channel="email"}')).toBe(
      pendingBefore + 2 - report.sent - report.failed,
    );
  });

  test("the engine's ticks: count, duration, lag and last success", async () => {
    let fail = false;
    const loop = startEngineLoop({
      clock: t.clock,
      intervalMs: 60_000,
      autoStart: false,
      tick: async () => {
        if (fail) throw new Error('a task failed');
      },
      onTick: t.app.metrics.recordEngineTick,
    });
    const startedAt = Date.now() / 1000;
    await loop.runOnce();
    fail = true;
    await loop.runOnce();
    const text = await scrape();
    expect(sample(text, 'baton_engine_ticks_total{outcome="ok"}')).toBe(1);
    expect(sample(text, 'baton_engine_ticks_total{outcome="failed"}')).toBe(1);
    expect(sample(text, 'baton_engine_tick_duration_seconds_count')).toBe(2);
    // Run back to back, well inside the minute: not late.
    expect(sample(text, 'baton_engine_tick_lag_seconds')).toBe(0);
    expect(sample(text, 'baton_engine_last_success_timestamp_seconds')).toBeGreaterThanOrEqual(
      Math.floor(startedAt),
    );
  });
});
