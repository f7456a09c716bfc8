import { createConnection } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { ALERT_BODY_MAX, INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
import type { AlertEvent } from '../../../shared/domain/alerts';
import type { Db } from '../../db/client';
import { alerts, integrations, pages } from '../../db/schema';
import { type IntegrationSeed, insertIntegration, insertRotation } from '../../seed/factories';
import { pageMessageOf } from '../incidents/incident-text';
import { generateIntegrationKey } from '../integrations/integration-keys';
import { countIncidentAlerts } from '../integrations/integration-repository';
import {
  ALERT_EMAIL_CLIENTS_PER_ADDRESS,
  ALERT_EMAIL_RECIPIENTS_MAX,
  type AlertEmailServer,
  keyOfRecipient,
  startAlertEmailServer,
} from './alert-email';
import type { IntakeDeps } from './alert-intake';
import { KEY_GUESS_LIMIT_DEFAULT, KEY_GUESS_WINDOW_MS } from './key-guesses';

/**
 * Alert email (decision 212) over a real SMTP conversation: the listener on a loopback port, mail
 * sent with nodemailer as any tool would, and what it stored read back from the database. Runs on
 * PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

let t: TestApp;
let deps: IntakeDeps;
let server: AlertEmailServer;
let holder: User;
let rotationId: number;
const logged: { level: 'warn' | 'error'; message: string; detail: object }[] = [];
const log = {
  warn: (detail: object, message: string) => logged.push({ level: 'warn', message, detail }),
  error: (detail: object, message: string) => logged.push({ level: 'error', message, detail }),
};

beforeAll(async () => {
  t = await createTestApp();
  deps = { database: t.database, cipher: t.cipher, clock: t.clock, config: t.config };
  holder = await t.createUser({ name: 'Hana Holder' });
  const next = await t.createUser({ name: 'Ned Next' });
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id, next.id],
    holderId: holder.id,
    now: t.clock.now(),
  });
  rotationId = rotation.id;
  server = await startAlertEmailServer(deps, { port: 0, host: '127.0.0.1', log });
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const newIntegration = (seed: IntegrationSeed = {}) =>
  insertIntegration(t.database.db, t.cipher, { name: 'Backup cron', rotationId, ...seed });

const transport = (port = server.port) =>
  nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });

type Mail = Parameters<ReturnType<typeof transport>['sendMail']>[0];
const send = (mail: Mail, port?: number) =>
  transport(port).sendMail({ from: 'Cron Daemon <root@db1.example.com>', ...mail });

/** The error a refused delivery rejects with: the SMTP reply code and text. */
async function refusal(sending: Promise<unknown>): Promise<{ code: number; text: string }> {
  try {
    await sending;
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message: string };
    return { code: e.responseCode ?? 0, text: e.response ?? e.message };
  }
  throw new Error('the message was accepted');
}

/** an integration's incidents, each with its count of distinct alerts */
const incidentsOf = async (integrationId: number) => {
  const rows = await t.database.db
    .select()
    .from(pages)
    .where(eq(pages.integrationId, integrationId))
    .orderBy(asc(pages.id));
  const counted = await countIncidentAlerts(
    t.database.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, alertCount: counted.get(r.id)?.alertCount ?? 0 }));
};
const alertsOf = (integrationId: number) =>
  t.database.db
    .select()
    .from(alerts)
    .where(eq(alerts.integrationId, integrationId))
    .orderBy(asc(alerts.id));
const countAll = async (db: Db) => ({
  pages: (await db.select({ id: pages.id }).from(pages)).length,
  alerts: (await db.select({ id: alerts.id }).from(alerts)).length,
});
const eventOf = (row: typeof alerts.$inferSelect): AlertEvent =>
  JSON.parse(t.cipher.decrypt(row.eventEnc, { table: 'alerts', column: 'event', rowId: row.id }));
const payloadOf = (row: typeof alerts.$inferSelect): string =>
  t.cipher.decrypt(row.payloadEnc ?? '', { table: 'alerts', column: 'payload', rowId: row.id });
// An incident's title is its page message unless a person retitled it.
const titleOf = (row: typeof pages.$inferSelect) =>
  row.titleEnc === null
    ? pageMessageOf(row, t.cipher)
    : t.cipher.decrypt(row.titleEnc, { table: 'pages', column: 'title', rowId: row.id });

describe('a message to <key>@ any domain', () => {
  test('raises an incident on the integration: subject as title, From, Subject and body as details', async () => {
    const { integration, key } = await newIntegration();
    const info = await send({
      to: `${key}@alerts.example.com`,
      subject: 'Backup of db1 failed',
      text: 'pg_dump: exit 2\nLog: https://ci.example.com/jobs/42\n',
      messageId: '<backup-1@db1.example.com>',
    });
    expect(info.accepted).toEqual([`${key}@alerts.example.com`]);
    const [incident, ...more] = await incidentsOf(integration.id);
    expect(more).toEqual([]);
    expect(info.response).toBe(`250 Alert received (incident ${incident.id})`);
    expect(incident).toMatchObject({
      rotationId,
      integrationId: integration.id,
      severity: 'P2',
      urgency: 'high',
      status: 'triggered',
    });
    expect(titleOf(incident)).toBe('Backup of db1 failed');
    const [alert] = await alertsOf(integration.id);
    expect(alert).toMatchObject({ format: 'email', action: 'trigger', pageId: incident.id });
    expect(eventOf(alert)).toMatchObject({
      summary: 'Backup of db1 failed',
      source: 'root@db1.example.com',
      details: [
        { section: 'Email', label: 'From', value: '"Cron Daemon" <root@db1.example.com>' },
        { section: 'Email', label: 'Subject', value: 'Backup of db1 failed' },
        {
          section: 'Email',
          label: 'Body',
          value: 'pg_dump: exit 2\nLog: https://ci.example.com/jobs/42',
        },
      ],
      links: [{ href: 'https://ci.example.com/jobs/42' }],
    });
    // The raw message is kept, headers and all.
    const raw = payloadOf(alert);
    expect(raw).toContain('Message-ID: <backup-1@db1.example.com>');
    expect(raw).toContain('pg_dump: exit 2');
  });

  test('the key is read in any case, at any domain', async () => {
    const { integration, key } = await newIntegration();
    await send({ to: `${key.toUpperCase()}@mail.internal`, subject: 'Upper case key', text: 'x' });
    expect(await incidentsOf(integration.id)).toHaveLength(1);
  });

  test('the same subject again is the same incident; another subject is another', async () => {
    const { integration, key } = await newIntegration();
    const to = `${key}@alerts.example.com`;
    const date = new Date('2026-11-27T03:00:00Z');
    await send({ to, date, subject: 'Disk full on db1', text: 'used 97%' });
    await send({ to, date, subject: 'Disk full on db1', text: 'used 99%' });
    // The same message again (white space in the subject folded) is a repeat of the last one.
    await send({ to, date, subject: '  Disk full   on db1 ', text: 'used 99%' });
    const [incident, ...more] = await incidentsOf(integration.id);
    expect(more).toEqual([]);
    expect(incident.alertCount).toBe(2);
    const rows = await alertsOf(integration.id);
    expect(rows.map((r) => [r.outcome, r.seenCount])).toEqual([
      ['raised', 1],
      ['updated', 2],
    ]);
    await send({ to, date, subject: 'Disk full on db2', text: 'used 98%' });
    expect(await incidentsOf(integration.id)).toHaveLength(2);
  });

  test("with the integration's email dedup 'message', each message is its own incident", async () => {
    const { integration, key } = await newIntegration({ emailDedup: 'message' });
    const to = `${key}@alerts.example.com`;
    await send({ to, subject: 'Build failed', text: 'build 1', messageId: '<b1@ci>' });
    await send({ to, subject: 'Build failed', text: 'build 2', messageId: '<b2@ci>' });
    expect(await incidentsOf(integration.id)).toHaveLength(2);
    // The same message delivered again (a retry: same Message-ID) is still the one incident.
    await send({ to, subject: 'Build failed', text: 'build 2', messageId: '<b2@ci>' });
    expect(await incidentsOf(integration.id)).toHaveLength(2);
  });

  test('HTML-only mail becomes readable text', async () => {
    const { integration, key } = await newIntegration();
    await send({
      to: `${key}@alerts.example.com`,
      subject: 'Uptime check failed',
      html: '<html><body><h1>Site down</h1><p>https check of <b>shop.example.com</b> failed:<br>HTTP&nbsp;503</p><p><a href="https://status.example.com/checks/9">Open the check</a></p></body></html>',
    });
    const [alert] = await alertsOf(integration.id);
    const body = eventOf(alert).details.find((d) => d.label === 'Body')?.value ?? '';
    expect(body).not.toMatch(/<[a-z/]/i);
    expect(body).not.toContain('&nbsp;');
    expect(body).toContain('SITE DOWN');
    expect(body).toContain('https check of shop.example.com failed:\nHTTP 503');
    expect(body).toContain('Open the check [https://status.example.com/checks/9]');
    expect(eventOf(alert).links).toEqual([
      { href: 'https://status.example.com/checks/9', text: 'https://status.example.com/checks/9' },
    ]);
  });

  test('one message to two integrations raises an incident on each', async () => {
    const a = await newIntegration();
    const b = await newIntegration({ name: 'Second' });
    const info = await send({
      to: [`${a.key}@alerts.example.com`, `${b.key}@alerts.example.com`],
      subject: 'Shared failure',
      text: 'x',
    });
    expect(info.accepted).toHaveLength(2);
    expect(await incidentsOf(a.integration.id)).toHaveLength(1);
    expect(await incidentsOf(b.integration.id)).toHaveLength(1);
  });
});

describe('refusals write nothing', () => {
  test('a recipient that is no integration key is refused at RCPT with 550', async () => {
    const before = await countAll(t.database.db);
    const refused = await refusal(
      send({ to: `${generateIntegrationKey()}@alerts.example.com`, subject: 'x', text: 'y' }),
    );
    expect(refused.code).toBe(550);
    expect(refused.text).toContain(INTEGRATION_MESSAGES.keyUnknown);
    expect(await countAll(t.database.db)).toEqual(before);
  });

  test('a message naming a known and an unknown key is delivered to the known one only', async () => {
    const { integration, key } = await newIntegration();
    const wrong = `not-a-key@alerts.example.com`;
    const info = await send({
      to: [`${key}@alerts.example.com`, wrong],
      subject: 'Half right',
      text: 'x',
    });
    expect(info.accepted).toEqual([`${key}@alerts.example.com`]);
    expect(info.rejected).toEqual([wrong]);
    expect(await incidentsOf(integration.id)).toHaveLength(1);
  });

  test('a message larger than ALERT_BODY_MAX is refused with 552', async () => {
    const { integration, key } = await newIntegration();
    const before = await countAll(t.database.db);
    const refused = await refusal(
      send({
        to: `${key}@alerts.example.com`,
        subject: 'Too big',
        text: 'z'.repeat(ALERT_BODY_MAX + 1024),
      }),
    );
    expect(refused.code).toBe(552);
    expect(await countAll(t.database.db)).toEqual(before);
    expect(await alertsOf(integration.id)).toEqual([]);
  });

  test(`at most ${ALERT_EMAIL_RECIPIENTS_MAX} recipients: the rest are answered 452`, async () => {
    const keys = await Promise.all(
      Array.from({ length: ALERT_EMAIL_RECIPIENTS_MAX + 2 }, () => newIntegration()),
    );
    const to = keys.map((k) => `${k.key}@alerts.example.com`);
    const info = await send({ to, subject: 'Many', text: 'x' });
    expect(info.accepted).toEqual(to.slice(0, ALERT_EMAIL_RECIPIENTS_MAX));
    expect(info.rejected).toEqual(to.slice(ALERT_EMAIL_RECIPIENTS_MAX));
    const last = keys[keys.length - 1];
    expect(await incidentsOf(last.integration.id)).toEqual([]);
  });
});

describe('failures', () => {
  test('a failure to store answers 451 (the sender retries), is logged, and ends nothing', async () => {
    const { integration, key } = await newIntegration();
    // The same database, except that no transaction can commit.
    const db = new Proxy(t.database.db, {
      get(target, prop) {
        if (prop === 'transaction') return () => Promise.reject(new Error('database is down'));
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const broken = await startAlertEmailServer(
      { ...deps, database: { ...t.database, db } },
      { port: 0, host: '127.0.0.1', log },
    );
    try {
      logged.length = 0;
      const refused = await refusal(
        send({ to: `${key}@alerts.example.com`, subject: 'Lost?', text: 'x' }, broken.port),
      );
      expect(refused.code).toBe(451);
      expect(refused.text).toContain('try again later');
      expect(logged).toEqual([
        expect.objectContaining({
          level: 'error',
          message: 'alert email: could not store an alert',
        }),
      ]);
      expect(await alertsOf(integration.id)).toEqual([]);
      // The retry, once the database is back, delivers it.
      await send({ to: `${key}@alerts.example.com`, subject: 'Lost?', text: 'x' });
      expect(await incidentsOf(integration.id)).toHaveLength(1);
    } finally {
      await broken.close();
    }
  });

  test('a port already taken fails the start with the reason', async () => {
    await expect(
      startAlertEmailServer(deps, { port: server.port, host: '127.0.0.1', log }),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});

test.each([
  ['0123abcd@alerts.example.com', '0123abcd'],
  ['key@sub.domain@weird', 'key@sub.domain'],
  ['no-domain', 'no-domain'],
  ['@example.com', ''],
])('keyOfRecipient(%s) is %j', (address, key) => {
  expect(keyOfRecipient(address)).toBe(key);
});

test('the metrics count stored alerts and refused messages of the email source (decision 225)', async () => {
  const counted = await startAlertEmailServer(deps, {
    port: 0,
    host: '127.0.0.1',
    log,
    metrics: t.app.metrics,
  });
  try {
    const { key } = await newIntegration();
    await send({ to: `${key}@alerts.example.com`, subject: 'Counted', text: 'x' }, counted.port);
    const refused = await refusal(
      send(
        { to: `${generateIntegrationKey()}@alerts.example.com`, subject: 'x', text: 'y' },
        counted.port,
      ),
    );
    expect(refused.code).toBe(550);
    const text = await t.app.metrics.registry.metrics();
    expect(text).toContain('baton_alerts_received_total{source="email"} 1\n');
    expect(text).toContain('baton_alerts_refused_total{source="email",status="550"} 1\n');
  } finally {
    await counted.close();
  }
});

/**
 * A raw SMTP conversation on loopback, one line at a time, as a client that holds connections
 * open or guesses keys would speak it: `reply` waits for the server's next reply, `command` sends
 * a line and waits for the reply to it; `ended` settles when the server closes the connection.
 */
async function rawSmtp(port: number) {
  const socket = createConnection({ host: '127.0.0.1', port });
  socket.setEncoding('utf8');
  let buffer = '';
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let end = buffer.indexOf('\r\n');
    while (end >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      // A multi-line reply ends with the line whose code is followed by a space.
      if (/^\d{3} /.test(line)) {
        const next = waiting.shift();
        if (next) next(line);
        else ready.push(line);
      }
      end = buffer.indexOf('\r\n');
    }
  });
  const reply = () =>
    new Promise<string>((resolve) => {
      const line = ready.shift();
      if (line !== undefined) resolve(line);
      else waiting.push(resolve);
    });
  const greeting = await reply();
  return {
    greeting,
    reply,
    ended,
    command: (line: string) => {
      socket.write(`${line}\r\n`);
      return reply();
    },
    close: () => {
      socket.destroy();
      return ended;
    },
  };
}

describe('limits for clients that guess or hold connections (issue 30)', () => {
  test('the key of an integration with a signing secret is refused at RCPT, and at DATA if given one since', async () => {
    const signed = await newIntegration({ signingSecret: 'grafana-signing-secret' });
    const before = await countAll(t.database.db);
    const refused = await refusal(
      send({ to: `${signed.key}@alerts.example.com`, subject: 'Unsigned', text: 'x' }),
    );
    expect(refused.code).toBe(550);
    expect(refused.text).toContain(INTEGRATION_MESSAGES.signedOnly);

    // Accepted at RCPT, then given a secret before the message is in: refused at DATA.
    const plain = await newIntegration();
    const smtp = await rawSmtp(server.port);
    try {
      expect(await smtp.command('HELO cron.example.com')).toMatch(/^250 /);
      expect(await smtp.command('MAIL FROM:<root@db1.example.com>')).toMatch(/^250 /);
      expect(await smtp.command(`RCPT TO:<${plain.key}@alerts.example.com>`)).toMatch(/^250 /);
      await t.database.db
        .update(integrations)
        .set({
          signingSecretEnc: t.cipher.encrypt('grafana-signing-secret', {
            table: 'integrations',
            column: 'signing_secret',
            rowId: plain.integration.id,
          }),
        })
        .where(eq(integrations.id, plain.integration.id));
      expect(await smtp.command('DATA')).toMatch(/^354 /);
      const answer = await smtp.command('Subject: Unsigned\r\n\r\nx\r\n.');
      expect(answer).toMatch(/^550 /);
      expect(answer).toContain(INTEGRATION_MESSAGES.signedOnly);
    } finally {
      await smtp.close();
    }
    expect(await countAll(t.database.db)).toEqual(before);
  });

  test('wrong keys at RCPT count with the address’s HTTP ones: past the limit, 421 and disconnected, even for a right key', async () => {
    const { key } = await newIntegration();
    // A new window: the wrong keys of the tests before are forgotten.
    t.clock.advance(KEY_GUESS_WINDOW_MS);
    // Half the guesses over HTTP, from the same address (loopback): one count for both.
    const half = KEY_GUESS_LIMIT_DEFAULT / 2;
    for (let i = 0; i < half; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/alerts/generic?token=${generateIntegrationKey()}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ summary: 'x' }),
      });
      expect(res.statusCode).toBe(401);
    }
    const before = await countAll(t.database.db);
    const smtp = await rawSmtp(server.port);
    try {
      expect(await smtp.command('HELO guesser.example.com')).toMatch(/^250 /);
      expect(await smtp.command('MAIL FROM:<x@guesser.example.com>')).toMatch(/^250 /);
      for (let i = 0; i < KEY_GUESS_LIMIT_DEFAULT - half; i++) {
        expect(await smtp.command(`RCPT TO:<${generateIntegrationKey()}@a.example>`)).toMatch(
          /^550 /,
        );
      }
      const limited = await smtp.command(`RCPT TO:<${generateIntegrationKey()}@a.example>`);
      expect(limited).toMatch(/^421 /);
      expect(limited).toContain('Too many wrong integration keys');
      await smtp.ended;
      // A new connection from the address is turned away at once, right key or not.
      const again = await rawSmtp(server.port);
      expect(again.greeting).toMatch(/^421 .*Too many wrong integration keys/);
      await again.ended;
      const refused = await refusal(
        send({ to: `${key}@alerts.example.com`, subject: 'Right key', text: 'x' }),
      );
      expect(refused.code).toBe(421);
      expect(await countAll(t.database.db)).toEqual(before);
    } finally {
      await smtp.close();
      // The window ends: the address (every later test's) may send again.
      t.clock.advance(KEY_GUESS_WINDOW_MS);
    }
    const info = await send({ to: `${key}@alerts.example.com`, subject: 'Right key', text: 'x' });
    expect(info.accepted).toEqual([`${key}@alerts.example.com`]);
  });

  test(`at most ${ALERT_EMAIL_CLIENTS_PER_ADDRESS} connections at once from one address; a closed one frees its place`, async () => {
    const capped = await startAlertEmailServer(deps, { port: 0, host: '127.0.0.1', log });
    const open: Awaited<ReturnType<typeof rawSmtp>>[] = [];
    try {
      for (let i = 0; i < ALERT_EMAIL_CLIENTS_PER_ADDRESS; i++) {
        const smtp = await rawSmtp(capped.port);
        expect(smtp.greeting).toMatch(/^220 /);
        open.push(smtp);
      }
      const extra = await rawSmtp(capped.port);
      expect(extra.greeting).toMatch(/^421 .*Too many connections from your address/);
      await extra.ended;
      await open.shift()?.close();
      // The server counts the close on its own schedule: wait for the place to be free.
      let next = await rawSmtp(capped.port);
      for (let i = 0; i < 50 && next.greeting.startsWith('421'); i++) {
        await next.ended;
        await new Promise((r) => setTimeout(r, 20));
        next = await rawSmtp(capped.port);
      }
      expect(next.greeting).toMatch(/^220 /);
      open.push(next);
    } finally {
      await Promise.all(open.map((smtp) => smtp.close()));
      await capped.close();
    }
  });

  test('an idle connection is answered 421 and closed after the idle timeout, freeing its place', async () => {
    const idle = await startAlertEmailServer(deps, {
      port: 0,
      host: '127.0.0.1',
      log,
      clientsPerAddress: 1,
      idleTimeoutMs: 300,
    });
    try {
      const smtp = await rawSmtp(idle.port);
      expect(smtp.greeting).toMatch(/^220 /);
      expect(await smtp.reply()).toMatch(/^421 .*Timeout/);
      await smtp.ended;
      let next = await rawSmtp(idle.port);
      for (let i = 0; i < 50 && next.greeting.startsWith('421'); i++) {
        await next.ended;
        await new Promise((r) => setTimeout(r, 20));
        next = await rawSmtp(idle.port);
      }
      expect(next.greeting).toMatch(/^220 /);
      await next.close();
    } finally {
      await idle.close();
    }
  });
});
