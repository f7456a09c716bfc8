import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import type { AlertEvent } from '../../../shared/domain/alerts';
import type { Channel, OutgoingMessage } from '../../core/delivery';
import { alerts, integrations, notifications, pages } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { type IntakeDeps, receiveAlerts } from '../alerts/alert-intake';
import {
  generateIntegrationKey,
  hashIntegrationKey,
  keyHintOf,
} from '../integrations/integration-keys';
import { decryptContent, deliverDue } from './outbox';

/**
 * Issue 17's storm check, through the alert intake (decisions 209 and 213): "a storm of 300
 * distinct alerts in ten seconds records 300 alerts and sends the holder fewer than 25
 * notifications". The integration's storm limit makes 21 incidents of 300 alerts; follow-ups make
 * them one page and one follow-up per channel. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */

let t: TestApp;
let deps: IntakeDeps;
let holder: User;
let rotationName: string;
let rotationId: number;

beforeAll(async () => {
  t = await createTestApp();
  deps = { database: t.database, cipher: t.cipher, clock: t.clock, config: t.config };
  const manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
  holder = await t.createUser({
    name: 'Hana Holder',
    phone: '+15550100111',
    notificationPreference: 'both',
  });
  const next = await t.createUser({ name: 'Ned Next' });
  const rotation = await insertRotation(t.database.db, {
    name: 'Payments',
    memberIds: [holder.id, next.id],
    holderId: holder.id,
    createdById: manager.id,
    now: t.clock.now(),
  });
  rotationId = rotation.id;
  rotationName = rotation.name;
});
afterAll(() => t.close());

const trigger = (n: number): AlertEvent => ({
  action: 'trigger',
  dedupKey: `disk-${n}`,
  summary: `Disk full on db-${n}`,
  source: `db-${n}:9100`,
  severity: 'P1',
  urgency: 'high',
  details: [
    { section: 'Labels', label: 'alertname', value: 'DiskFull' },
    { section: 'Labels', label: 'instance', value: `db-${n}:9100` },
    { section: 'Annotations', label: 'summary', value: `Disk full on db-${n}` },
  ],
  links: [{ href: `https://prometheus.example.test/graph?n=${n}`, text: 'Prometheus' }],
});

describe('a storm of alerts', () => {
  // Its own time-out: 300 alerts on PGlite take seconds on a busy machine.
  test('300 distinct alerts in ten seconds: 300 alerts recorded, the holder gets one page and one follow-up per channel', async () => {
    const key = generateIntegrationKey();
    const [integration] = await t.database.db
      .insert(integrations)
      .values({
        name: 'Prometheus',
        rotationId,
        keyHash: hashIntegrationKey(key),
        keyHint: keyHintOf(key),
      })
      .returning();
    expect(integration.stormLimit).toBe(20);
    const start = t.clock.now();

    // 30 requests of 10 alerts each, a third of a second apart, as a source batching its sends.
    for (let request = 0; request < 30; request++) {
      const events = Array.from({ length: 10 }, (_, i) => trigger(request * 10 + i));
      await receiveAlerts(deps, integration, {
        format: 'pagerduty',
        events,
        payload: JSON.stringify(events),
      });
      t.clock.advance(333);
    }
    expect(t.clock.now().getTime() - start.getTime()).toBeLessThanOrEqual(10_000);

    const recorded = await t.database.db
      .select({ id: alerts.id })
      .from(alerts)
      .where(eq(alerts.integrationId, integration.id));
    expect(recorded).toHaveLength(300);
    const raised = await t.database.db
      .select()
      .from(pages)
      .where(eq(pages.integrationId, integration.id))
      .orderBy(asc(pages.id));
    // The storm limit's 20 incidents and the storm incident: 21 incidents, each still Hana's.
    expect(raised).toHaveLength(21);
    expect(raised.filter((p) => p.storm)).toHaveLength(1);
    for (const incident of raised) expect(incident.assigneeIds).toEqual([holder.id]);

    const toHolder = async () =>
      (
        await t.database.db
          .select()
          .from(notifications)
          .where(eq(notifications.userId, holder.id))
          .orderBy(asc(notifications.id))
      ).map((row) => ({ ...row, content: decryptContent(row, t.cipher) }));
    const rows = await toHolder();
    expect(rows.length).toBeLessThan(25);
    expect(rows.map((r) => `${r.kind}/${r.channel}`)).toEqual([
      'page/email',
      'page/sms',
      'page.follow_up/email',
      'page.follow_up/sms',
    ]);

    // The page reads like a page: the alert's details as tables, its link, the SMS one line.
    const [email, sms, followUpEmail, followUpSms] = rows;
    expect(email.pageId).toBe(raised[0].id);
    expect(email.content.subject).toBe('Page (P1, high urgency): Payments: Disk full on db-0');
    expect(email.content.html).toContain(
      'Prometheus paged you as the on-call person for Payments.',
    );
    expect(email.content.html).toContain('>Labels</p><table');
    expect(email.content.html).toContain('>Annotations</p><table');
    expect(email.content.html).toContain('<a href="https://prometheus.example.test/graph?n=0">');
    expect(sms.content.text).toMatch(
      /^Baton PAGE \(High\) Payments from Prometheus: P1 Disk full on db-0 \[db-0:9100\] Ack: \S+$/,
    );

    // The follow-up names the other 19 incidents and the storm, and links the open incidents.
    expect(followUpEmail.content.subject).toBe(
      `20 more incidents from Prometheus: ${rotationName}`,
    );
    for (const incident of raised.slice(1)) {
      expect(followUpEmail.content.html).toContain(`/incidents/${incident.id}"`);
    }
    expect(followUpEmail.content.html).toContain(
      'Alert storm: more than 20 new alerts a minute from Prometheus',
    );
    expect(followUpSms.content.text).toContain(
      `Acknowledge in Baton: http://localhost:3000/incidents?status=triggered&rotation=${rotationId}`,
    );

    // Delivered: the pages at once, the follow-ups a minute after their first incident; nothing more.
    const sent: OutgoingMessage[] = [];
    const channel = (name: 'email' | 'sms'): Channel => ({
      name,
      send: async (message) => {
        sent.push(message);
        return 'accepted';
      },
    });
    const deliver = () =>
      deliverDue({
        db: t.database.db,
        cipher: t.cipher,
        clock: t.clock,
        channels: { email: channel('email'), sms: channel('sms') },
      });
    expect((await deliver()).sent).toBe(2);
    t.clock.set(new Date(start.getTime() + 60_000));
    expect((await deliver()).sent).toBe(2);
    expect(sent.filter((m) => m.to === '+15550100111')).toHaveLength(2);
    expect(await toHolder()).toHaveLength(4);
  }, 120_000);
});
