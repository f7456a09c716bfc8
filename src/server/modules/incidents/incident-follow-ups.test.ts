import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Severity } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import type { AlertEvent } from '../../../shared/domain/alerts';
import type { Urgency } from '../../../shared/domain/paging';
import type { Channel, OutgoingMessage } from '../../core/delivery';
import {
  alerts,
  auditEvents,
  integrations,
  notifications,
  pages,
  rotations,
  smsReplyCodes,
} from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { insertPolicyRow } from '../escalation-policies/escalation-policy-repository';
import { FOLLOW_UP_DELAY_MS } from '../notifications/follow-ups';
import { decryptContent, deliverDue } from '../notifications/outbox';
import { acknowledgeIncidentAs } from './incident-actions';
import { raiseIncident } from './incident-engine';
import { runIncidentTimers } from './incident-escalation-task';
import type { IncidentDeps } from './incident-facts';

/**
 * Follow-ups (decision 213) at the engine level: while a person has an unacknowledged page from an
 * integration, its further incidents within five minutes join one follow-up per person and
 * channel instead of a page each; every incident still climbs its policy. Runs on PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */

const SECOND = 1_000;
const MINUTE = 60_000;
let t: TestApp;
let deps: IncidentDeps & { config: TestApp['config'] };
let ana: User;
let ben: User;
let manager: User;
let rotation: { id: number; name: string; escalationPolicyId: number };
let integrationId: number;

beforeAll(async () => {
  // Twilio's auth token set: SMS pages carry reply codes (decision 201).
  t = await createTestApp({ env: { TWILIO_AUTH_TOKEN: 'test-auth-token' } });
  deps = { database: t.database, cipher: t.cipher, clock: t.clock, config: t.config };
  manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
  ana = await t.createUser({
    name: 'Ana Alvarez',
    phone: '+15550100101',
    notificationPreference: 'both',
  });
  ben = await t.createUser({ name: 'Ben Brooks' });
  const row = await insertRotation(t.database.db, {
    name: 'Payments',
    memberIds: [ana.id, ben.id],
    holderId: ana.id,
    createdById: manager.id,
    now: t.clock.now(),
  });
  const policy = await t.database.db.transaction((tx) =>
    insertPolicyRow(
      tx,
      {
        name: 'Payments policy',
        repeat: 0,
        steps: [
          {
            delayMinutes: 5,
            targets: [{ type: 'rotation-holder', id: row.id }],
            assignment: 'everyone',
            activeHours: null,
          },
          {
            delayMinutes: 5,
            targets: [{ type: 'user', id: ben.id }],
            assignment: 'everyone',
            activeHours: null,
          },
        ],
      },
      manager.id,
      t.clock.now(),
    ),
  );
  await t.database.db
    .update(rotations)
    .set({ escalationPolicyId: policy.id })
    .where(eq(rotations.id, row.id));
  rotation = { id: row.id, name: row.name, escalationPolicyId: policy.id };
  const [integration] = await t.database.db
    .insert(integrations)
    .values({
      name: 'Prometheus',
      rotationId: row.id,
      keyHash: createHash('sha256').update('test-key').digest('hex'),
      keyHint: '-key',
      createdAt: t.clock.now(),
    })
    .returning();
  integrationId = integration.id;
});
afterAll(() => t.close());
// Each test's incidents and notifications out of the next one's way.
afterEach(async () => {
  await t.database.db
    .update(pages)
    .set({ status: 'resolved' })
    .where(inArray(pages.status, ['triggered', 'escalated']));
  await t.database.db
    .update(notifications)
    .set({ status: 'sent' })
    .where(eq(notifications.status, 'pending'));
  t.clock.advance(10 * MINUTE);
});

/** An incident raised by the integration (pages.integration_id set), as the alert intake raises it. */
async function raiseFromIntegration(
  title: string,
  options: { severity?: Severity; urgency?: Urgency } = {},
) {
  const row = await t.database.db.transaction((tx) =>
    raiseIncident(tx, deps, {
      rotation,
      raisedBy: null,
      source: 'integration',
      message: title,
      severity: options.severity ?? 'P1',
      urgency: options.urgency ?? 'high',
      now: t.clock.now(),
      integration: { id: integrationId, name: 'Prometheus' },
    }),
  );
  expect(row.integrationId).toBe(integrationId);
  return row;
}

async function raiseByPerson(title: string) {
  return t.database.db.transaction((tx) =>
    raiseIncident(tx, deps, {
      rotation,
      raisedBy: manager,
      source: 'user',
      message: title,
      severity: 'P2',
      urgency: 'high',
      now: t.clock.now(),
    }),
  );
}

/** The notifications of a person since a time, oldest first, opened. */
async function notificationsOf(user: User, since: Date) {
  const rows = await t.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), sql`${notifications.createdAt} >= ${since}`))
    .orderBy(asc(notifications.id));
  return rows.map((row) => ({ ...row, content: decryptContent(row, t.cipher) }));
}

const kinds = (rows: { kind: string; channel: string; pageId: number | null }[]) =>
  rows.map((r) => `${r.kind}/${r.channel}/${r.pageId}`);

const sent: OutgoingMessage[] = [];
const accepting = (name: 'email' | 'sms'): Channel => ({
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
    channels: { email: accepting('email'), sms: accepting('sms') },
  });

describe('follow-ups of an integration', () => {
  test('the first incident pages the holder; the rest within five minutes join one follow-up per channel', async () => {
    const since = t.clock.now();
    const first = await raiseFromIntegration('HighCPU on db-1');
    t.clock.advance(10 * SECOND);
    const second = await raiseFromIntegration('Disk <full> on db-2', { severity: 'P2' });
    t.clock.advance(10 * SECOND);
    const third = await raiseFromIntegration('Latency on api');
    t.clock.advance(10 * SECOND);
    const fourth = await raiseFromIntegration('Queue lag');

    const rows = await notificationsOf(ana, since);
    expect(kinds(rows)).toEqual([
      `page/email/${first.id}`,
      `page/sms/${first.id}`,
      `page.follow_up/email/${second.id}`,
      `page.follow_up/sms/${second.id}`,
    ]);
    const [email, sms] = rows.slice(2);
    // Sent a minute after the first incident it gathered, whatever joined since.
    expect(email.nextAttemptAt).toEqual(
      new Date(since.getTime() + 10 * SECOND + FOLLOW_UP_DELAY_MS),
    );
    expect(email.status).toBe('pending');
    expect(email.content.subject).toBe('3 more incidents from Prometheus: Payments');
    expect(email.content.html).toContain(`/incidents/${second.id}">Disk &lt;full&gt; on db-2</a>`);
    expect(email.content.html).toContain(`/incidents/${fourth.id}">Queue lag</a>`);
    expect(sms.content.text).toBe(
      `Baton: 3 more incidents from Prometheus (Payments): P2 Disk <full> on db-2; P1 Latency on api; P1 Queue lag. Acknowledge in Baton: http://localhost:3000/incidents?status=triggered&rotation=${rotation.id}`,
    );
    expect(sms.content.to).toBe('+15550100101');

    // Each incident is still Ana's: assigned, notified, on its policy; only its page is gathered.
    for (const incident of [second, third, fourth]) {
      const [row] = await t.database.db.select().from(pages).where(eq(pages.id, incident.id));
      expect(row.assigneeIds).toEqual([ana.id]);
      expect(row.notifiedIds).toEqual([ana.id]);
      const [event] = await t.database.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.targetId, String(incident.id)),
            eq(auditEvents.action, 'incident.step_reached'),
          ),
        );
      expect(event.details).toMatchObject({ followUpIds: [ana.id] });
    }
    // No SMS reply code for a gathered incident: the follow-up has none to give.
    const codes = await t.database.db
      .select()
      .from(smsReplyCodes)
      .where(inArray(smsReplyCodes.pageId, [first.id, second.id, third.id, fourth.id]));
    expect(codes.map((c) => c.pageId)).toEqual([first.id]);

    // Due a minute later: sent once, per channel, with the follow-up's items stripped.
    t.clock.set(new Date(since.getTime() + 10 * SECOND + FOLLOW_UP_DELAY_MS - 1));
    expect((await deliver()).sent).toBe(2); // the first incident's page
    t.clock.advance(1);
    sent.length = 0;
    expect((await deliver()).sent).toBe(2);
    // What goes out is the message alone: the follow-up's items stay sealed in the row.
    expect(sent.map((m) => Object.keys(m).sort().join()).sort()).toEqual([
      'html,idempotencyKey,subject,text,to',
      'idempotencyKey,subject,text,to',
    ]);
    expect(sent.find((m) => m.to === '+15550100101')?.text).toBe(sms.content.text);

    // After it went out, a further incident starts a new follow-up.
    t.clock.advance(30 * SECOND);
    const fifth = await raiseFromIntegration('Fifth');
    const later = (await notificationsOf(ana, since)).slice(4);
    expect(kinds(later)).toEqual([
      `page.follow_up/email/${fifth.id}`,
      `page.follow_up/sms/${fifth.id}`,
    ]);
    expect(later[0].content.subject).toBe('1 more incident from Prometheus: Payments');
  });

  test('a low-urgency incident joins the email follow-up only', async () => {
    const since = t.clock.now();
    const first = await raiseFromIntegration('HighCPU');
    const low = await raiseFromIntegration('Disk at 80%', { severity: 'P3', urgency: 'low' });
    expect(kinds(await notificationsOf(ana, since))).toEqual([
      `page/email/${first.id}`,
      `page/sms/${first.id}`,
      `page.follow_up/email/${low.id}`,
    ]);
  });

  test('once the page is acknowledged, or five minutes on, the next incident is paged on its own', async () => {
    const since = t.clock.now();
    const first = await raiseFromIntegration('First');
    await acknowledgeIncidentAs(deps, ana, first.id);
    t.clock.advance(SECOND);
    const second = await raiseFromIntegration('Second');
    t.clock.advance(5 * MINUTE);
    const third = await raiseFromIntegration('Third');
    // Second: the page of First is acknowledged. Third: Second's page is five minutes old.
    expect(kinds(await notificationsOf(ana, since))).toEqual([
      `page/email/${first.id}`,
      `page/sms/${first.id}`,
      `page/email/${second.id}`,
      `page/sms/${second.id}`,
      `page/email/${third.id}`,
      `page/sms/${third.id}`,
    ]);
  });

  test('incidents a person raised are never gathered', async () => {
    const since = t.clock.now();
    await raiseFromIntegration('From Prometheus');
    const own = await raiseByPerson('Checkout is failing');
    const own2 = await raiseByPerson('Checkout still failing');
    const rows = await notificationsOf(ana, since);
    expect(rows.filter((r) => r.kind === 'page.follow_up')).toEqual([]);
    expect(rows.filter((r) => r.pageId === own.id || r.pageId === own2.id)).toHaveLength(4);
  });

  test('the escalation climbs each incident; the next person gets one page and one follow-up, with the alert shown', async () => {
    const since = t.clock.now();
    const first = await raiseFromIntegration('HighCPU on db-1');
    // What the intake stores: the alert, its event sealed, on the incident.
    const event: Pick<AlertEvent, 'summary' | 'source' | 'details' | 'links'> = {
      summary: 'HighCPU on db-1',
      source: 'db-1:9100',
      details: [{ section: 'Labels', label: '<script>x</script>', value: 'HighCPU' }],
      links: [{ href: 'https://prometheus.example.test/graph', text: 'Prometheus' }],
    };
    const [alert] = await t.database.db
      .insert(alerts)
      .values({
        integrationId,
        pageId: first.id,
        format: 'alertmanager',
        action: 'trigger',
        outcome: 'raised',
        dedupKeyHash: 'a'.repeat(64),
        eventHash: 'b'.repeat(64),
        severity: 'P1',
        eventEnc: 'pending',
        payloadEnc: t.cipher.encrypt('{}', { table: 'alerts', column: 'payload', rowId: 0 }),
        receivedAt: t.clock.now(),
        lastSeenAt: t.clock.now(),
      })
      .returning();
    await t.database.db
      .update(alerts)
      .set({
        eventEnc: t.cipher.encrypt(JSON.stringify(event), {
          table: 'alerts',
          column: 'event',
          rowId: alert.id,
        }),
      })
      .where(eq(alerts.id, alert.id));
    t.clock.advance(5 * SECOND);
    const second = await raiseFromIntegration('Disk full');
    const third = await raiseFromIntegration('Latency');

    t.clock.advance(5 * MINUTE);
    await runIncidentTimers(deps, t.clock.now());
    const toBen = await notificationsOf(ben, since);
    expect(kinds(toBen)).toEqual([
      `page.escalated/email/${first.id}`,
      `page.follow_up/email/${second.id}`,
    ]);
    const [escalated, followUp] = toBen;
    expect(escalated.content.subject).toBe(
      'Escalated page (P1, high urgency): Payments: HighCPU on db-1',
    );
    expect(escalated.content.html).toContain('>Labels</p><table');
    expect(escalated.content.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(escalated.content.html).toContain('<a href="https://prometheus.example.test/graph">');
    expect(escalated.content.text).toContain('Source: db-1:9100');
    expect(followUp.content.subject).toBe('2 more incidents from Prometheus: Payments');
    expect(followUp.content.html).toContain('Escalated to you');
    expect(followUp.content.html).toContain(`/incidents/${third.id}">Latency</a>`);
    for (const incident of [first, second, third]) {
      const [row] = await t.database.db.select().from(pages).where(eq(pages.id, incident.id));
      expect(row.status).toBe('escalated');
      expect(row.assigneeIds).toEqual([ben.id]);
    }
  });
});
