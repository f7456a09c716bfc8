import { count, desc, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import { alertKeys, alerts, integrations, pages } from '../../db/schema';
import { insertIntegration } from '../../seed/factories';
import { generateIntegrationKey, hashIntegrationKey } from '../integrations/integration-keys';
import { ALERT_PATHS } from './alert-paths';
import {
  counts,
  fresh,
  pdTrigger,
  post,
  rotationId,
  setUpAlertApp,
  t,
} from './alert-routes.fixtures';

/** sees each statement the app runs, while a test watches */
let watch: ((query: string) => void) | undefined;

setUpAlertApp({ onQuery: (query) => watch?.(query) });

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
