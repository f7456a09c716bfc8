import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { alerts } from '../../db/schema';
import { ALERT_PATHS } from './alert-paths';
import {
  amFiring,
  counts,
  fixture,
  fresh,
  pdTrigger,
  post,
  send,
  setUpAlertApp,
  t,
} from './alert-routes.fixtures';
import { grafanaSignature } from './grafana-signature';

setUpAlertApp();

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
