import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startFakeTwilio } from '../../../tests/setup/fake-twilio';
import { startSmtpServer } from '../../../tests/setup/smtp-server';
import { testConfig, withOwnOrigin } from '../../../tests/setup/test-app';
import { createTestDatabase } from '../../../tests/setup/test-database';
import type { Page } from '../../shared/contracts/paging';
import type { User } from '../../shared/contracts/users';
import { buildApp } from '../app';
import { ManualClock } from '../core/clock';
import { type Database, selectRows, wrapPglite } from '../db/client';
import { allocateIds } from '../db/ids';
import { auditEvents, invitations, notifications, pages, users } from '../db/schema';
import { reencryptAll } from '../maintenance/key-rotation';
import { verifyAuditChain } from '../modules/audit/audit-chain';
import { recordAdminEvent } from '../modules/audit/people-events';
import { pageMessageOf, sealClearPageContent } from '../modules/incidents/incident-text';
import { pageRotation } from '../modules/incidents/rotation-page';
import {
  insertInvitation,
  recoverInvitationToken,
  toInvitation,
} from '../modules/invitations/invitation-repository';
import { createEmailChannel, createSmsChannel } from '../modules/notifications/channels';
import { deliverDue, enqueueNotifications } from '../modules/notifications/outbox';
import { createSession, sessionCookie } from '../modules/sessions/session-service';
import { findUserRowByEmail, insertUsers, toUser } from '../modules/users/user-repository';
import { insertRotation } from '../seed/factories';
import {
  FieldCipher,
  FieldDecryptionError,
  generateMasterKey,
  parseMasterKey,
} from './field-crypto';

// Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (.ci/run does both).
let database: Database;
const oldKey = parseMasterKey(generateMasterKey());
const cipher = new FieldCipher(oldKey);
const secrets = [
  'Grace Hopper',
  'grace.hopper',
  '+15550199999',
  'Alan Turing',
  'alan.turing',
  'Page: disk full on db-7',
  'Katherine Johnson',
  'boarding flight BA117',
];
let invitationToken: string;
/** the PGlite instance itself, to read its files (data directory and write-ahead log) */
let pglite: PGlite | undefined;
/** PostgreSQL: where the write-ahead log stood before this file wrote anything */
let walStart: string | undefined;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    database = await createTestDatabase();
    [{ walStart }] = await selectRows<{ walStart: string }>(
      database.db,
      sql`select pg_walfile_name(pg_current_wal_lsn()) as "walStart"`,
    );
  } else {
    pglite = await PGlite.create({
      loadDataDir: new Blob([await readFile(inject('pgliteTemplate'))]),
    });
    database = wrapPglite(pglite, 'pglite:memory');
  }
  const { db } = database;
  const [grace, alan] = await insertUsers(db, cipher, [
    {
      name: 'Grace Hopper',
      email: 'Grace.Hopper@example.com',
      phone: '+15550199999',
      roles: ['admin'],
    },
    { name: 'Alan Turing', email: 'alan.turing@example.com', roles: ['on-call'] },
  ]);
  ({ token: invitationToken } = await insertInvitation(db, cipher, {
    name: 'Ada Lovelace',
    email: 'ada.lovelace@example.com',
    role: 'manager',
    expiresAt: new Date('2030-01-01T00:00:00Z'),
  }));
  const [id] = await allocateIds(db, 'notifications');
  await db.insert(notifications).values({
    id,
    channel: 'email',
    kind: 'page',
    contentEnc: cipher.encrypt(JSON.stringify({ text: 'Page: disk full on db-7' }), {
      table: 'notifications',
      column: 'content',
      rowId: id,
    }),
    dedupeKey: 'test-1',
  });
  await failDeliveryTo(grace);
  // A page's text is sealed like notifications' content (decision 163).
  const rotation = await insertRotation(db, {
    memberIds: [grace.id, alan.id],
    holderId: grace.id,
  });
  // Paged the way a user pages: the page row, its link and its notifications.
  await pageRotation(
    { database, cipher, clock: new ManualClock('2026-11-02T12:00:00Z') },
    grace,
    rotation.id,
    {
      message: 'Page: disk full on db-7',
      urgency: 'high',
    },
  );
  const [page] = await db.select().from(pages).where(eq(pages.rotationId, rotation.id));
  // Its escalation reason too: what people type about a page is sealed (decision 163).
  await pageApi(new ManualClock('2026-11-02T12:05:00Z'), grace, {
    method: 'POST',
    url: `/api/pages/${page.id}/escalate`,
    body: { reason: 'Grace is boarding flight BA117' },
  });
  // A deletion's audit event keeps the target's name sealed in its details.
  await db.transaction((tx) =>
    recordAdminEvent(
      tx,
      {
        actorUserId: grace.id,
        action: 'user.deleted',
        targetType: 'user',
        targetId: 4242,
        details: { roles: ['on-call'] },
        at: new Date(),
      },
      { cipher, targetName: 'Katherine Johnson' },
    ),
  );
});
afterAll(() => database.close());

/**
 * pageApi calls the specification's Page API over HTTP, signed in as the user, on this file's
 * database and cipher (the Page API is paging's own: nothing outside it imports it, decision
 * 239), and returns the answer's body; anything but 200 fails.
 */
async function pageApi(
  clock: ManualClock,
  user: { id: number },
  request: { method: 'GET' | 'POST'; url: string; body?: unknown },
): Promise<unknown> {
  const config = testConfig();
  const app = await buildApp({ config, database, cipher, clock, logger: false });
  try {
    await app.ready();
    const { token } = await createSession(database.db, clock, config.session, user.id);
    withOwnOrigin(app);
    const answer = await app.inject({
      method: request.method,
      url: request.url,
      payload: request.body as never,
      headers: { cookie: `${sessionCookie(config).name}=${token}` },
    });
    if (answer.statusCode !== 200) throw new Error(`${request.url}: ${answer.body}`);
    return answer.json();
  } finally {
    await app.close();
  }
}

/**
 * failDeliveryTo sends the user an email and an SMS that the providers refuse with answers
 * quoting the address and the number, as real ones do; the outbox stores those answers.
 */
async function failDeliveryTo(user: User) {
  const smtp = await startSmtpServer();
  const twilio = await startFakeTwilio();
  try {
    const clock = new ManualClock('2026-11-02T12:00:00Z');
    await enqueueNotifications(database.db, cipher, clock.now(), [
      {
        eventKey: 'refused',
        kind: 'page',
        recipient: { ...user, notificationPreference: 'both' },
        subject: 'Page: disk full on db-7',
        text: 'Page: disk full on db-7',
      },
    ]);
    smtp.failNext(1, 550, (to) => `5.1.1 <${to[0]}>: Recipient address rejected: User unknown`);
    twilio.next({ kind: 'unsubscribed' });
    const channels = {
      email: createEmailChannel(smtp.url, 'Baton <baton@example.com>', 2_000),
      sms: createSmsChannel({ ...twilio, from: '+15550000000' }, 2_000),
    };
    const report = await deliverDue({ db: database.db, cipher, channels, clock });
    expect(report).toEqual({ sent: 0, failed: 2, retrying: 0 });
  } finally {
    await smtp.close();
    await twilio.close();
  }
}

/**
 * databaseFiles returns the bytes of the database's files: PGlite's whole data directory (tables
 * and write-ahead log), or on PostgreSQL, read through the server (the test role is a superuser),
 * every write-ahead log segment written since this file started and the files of its tables.
 */
async function databaseFiles(): Promise<Buffer> {
  if (pglite) {
    await pglite.query('checkpoint');
    const dump = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
    expect(dump.includes('pg_wal/')).toBe(true);
    return dump;
  }
  const { db } = database;
  const [{ walEnd }] = await selectRows<{ walEnd: string }>(
    db,
    sql`select pg_walfile_name(pg_current_wal_lsn()) as "walEnd"`,
  );
  const segments = await selectRows<{ name: string }>(
    db,
    sql`select name from pg_ls_waldir() where name ~ '^[0-9A-F]{24}$'
          and name >= ${walStart} and name <= ${walEnd} order by name`,
  );
  expect(segments.length).toBeGreaterThan(0);
  const parts: Buffer[] = [];
  for (const { name } of segments) {
    const [row] = await selectRows<{ data: Buffer }>(
      db,
      sql`select pg_read_binary_file(${`pg_wal/${name}`}) as data`,
    );
    parts.push(row.data);
  }
  await db.execute(sql`checkpoint`);
  for (const table of ['users', 'invitations', 'notifications', 'audit_events', 'pages']) {
    const [row] = await selectRows<{ data: Buffer }>(
      db,
      sql`select pg_read_binary_file(pg_relation_filepath(${table})) as data`,
    );
    parts.push(row.data);
  }
  return Buffer.concat(parts);
}

async function rawDump(): Promise<string> {
  const out: unknown[] = [];
  for (const table of ['users', 'invitations', 'notifications', 'audit_events', 'pages']) {
    out.push(await selectRows(database.db, sql.raw(`select * from ${table}`)));
  }
  return JSON.stringify(out);
}

describe(`personal fields at rest (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  test('raw rows hold no personal value in clear', async () => {
    // The refused deliveries kept the providers' answers, without the address and number.
    const refused = await database.db
      .select()
      .from(notifications)
      .where(eq(notifications.status, 'failed'))
      .orderBy(notifications.channel);
    expect(refused.map((r) => [r.channel, r.lastError, r.providerResponse])).toEqual([
      [
        'email',
        '550 5.1.1 <(address hidden)>: Recipient address rejected: User unknown',
        '550 5.1.1 <(address hidden)>: Recipient address rejected: User unknown',
      ],
      ['sms', 'SMS provider answered 400', expect.stringContaining('"code":21610')],
    ]);
    expect(refused[1].providerResponse).toContain('unsubscribed recipient (number hidden)');
    const dump = (await rawDump()).toLowerCase();
    for (const secret of [...secrets, 'Ada Lovelace', 'ada.lovelace', invitationToken]) {
      expect(dump).not.toContain(secret.toLowerCase());
    }
    expect(dump).toContain('v1.');
  });

  test("the database's files, write-ahead log included, hold no personal value in clear", async () => {
    const files = await databaseFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const secret of [...secrets, 'Ada Lovelace', invitationToken]) {
      expect(files.includes(secret), secret).toBe(false);
    }
  });

  test('page texts stored in clear before decision 163 are sealed by the data step', async () => {
    const [grace] = await database.db.select().from(users).orderBy(users.id).limit(1);
    const [page] = await database.db.select().from(pages).limit(1);
    // A row as migration 0007 finds it: the text in the clear column only.
    await database.db.execute(
      sql`insert into pages (rotation_id, paged_by_id, target_user_id, message, policy)
          values (${page.rotationId}, ${grace.id}, ${grace.id}, 'Legacy: router 3 is down',
                  ${JSON.stringify(page.policy)}::jsonb)`,
    );
    // An escalation as it was recorded before: the reason in clear in the details.
    await database.db.insert(auditEvents).values({
      actorUserId: grace.id,
      action: 'page.escalated',
      targetType: 'page',
      targetId: String(page.id),
      details: { rotationName: 'R', reason: 'Legacy: on a train', automatic: false },
    });
    expect(await sealClearPageContent(database.db, cipher)).toBe(2);
    expect(await sealClearPageContent(database.db, cipher)).toBe(0);
    // Sealing the reason is a re-seal of the append-only trail: its hash chain still verifies.
    expect(await verifyAuditChain(database.db, cipher)).toMatchObject({ status: 'intact' });
    const rows = await database.db.select().from(pages).orderBy(pages.id);
    expect(rows.map((r) => r.legacyMessage)).toEqual([null, null]);
    expect(rows.map((r) => pageMessageOf(r, cipher))).toEqual([
      'Page: disk full on db-7',
      'Legacy: router 3 is down',
    ]);
    expect((await rawDump()).toLowerCase()).not.toContain('router 3');
    expect((await rawDump()).toLowerCase()).not.toContain('on a train');
    // The history reads both reasons opened.
    const histories = (await pageApi(new ManualClock('2026-11-02T13:00:00Z'), grace, {
      method: 'GET',
      url: `/api/rotations/${page.rotationId}/pages?limit=10`,
    })) as Page[];
    const history = histories.find((h) => h.id === page.id);
    expect(history?.events.filter((e) => e.kind === 'escalated').map((e) => e.reason)).toEqual([
      'Grace is boarding flight BA117',
      'Legacy: on a train',
    ]);
  });

  test('users are found by email through the blind index, in any letter case', async () => {
    const row = await findUserRowByEmail(database.db, cipher, '  GRACE.hopper@EXAMPLE.com');
    expect(row && toUser(row, cipher)).toMatchObject({
      name: 'Grace Hopper',
      phone: '+15550199999',
    });
  });

  test('a value swapped between rows is refused on read', async () => {
    const [grace, alan] = await database.db.select().from(users).orderBy(users.id);
    const swapped = { ...grace, emailEnc: alan.emailEnc };
    expect(() => toUser(swapped, cipher)).toThrow(FieldDecryptionError);
    const moved = { ...grace, nameEnc: grace.emailEnc };
    expect(() => toUser(moved, cipher)).toThrow(FieldDecryptionError);
  });

  test('a value changed in the database is refused on read', async () => {
    const [grace] = await database.db.select().from(users).orderBy(users.id).limit(1);
    const parts = grace.nameEnc.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 0x80;
    parts[3] = body.toString('base64url');
    await database.db
      .update(users)
      .set({ nameEnc: parts.join('.') })
      .where(eq(users.id, grace.id));
    const [tampered] = await database.db.select().from(users).where(eq(users.id, grace.id));
    expect(() => toUser(tampered, cipher)).toThrow(FieldDecryptionError);
    await database.db.update(users).set({ nameEnc: grace.nameEnc }).where(eq(users.id, grace.id));
  });

  test('key rotation re-encrypts everything; afterwards the new key alone reads it all', async () => {
    const newKey = parseMasterKey(generateMasterKey());
    const during = new FieldCipher(newKey, [oldKey]);
    const rewritten = await reencryptAll(database.db, during);
    // users: 2 names, 2 emails, 1 phone (Alan has none); invitation: name, email, token;
    // 5 notifications (the page's to Grace, the escalation's to Alan); 2 page texts; 1 audit
    // event's target name and 2 escalation reasons
    expect(rewritten).toBe(18);
    expect(await reencryptAll(database.db, during)).toBe(0);

    const after = new FieldCipher(newKey);
    const rows = await database.db.select().from(users).orderBy(users.id);
    expect(rows.map((r) => toUser(r, after).name)).toEqual(['Grace Hopper', 'Alan Turing']);
    const row = await findUserRowByEmail(database.db, after, 'alan.turing@example.com');
    expect(row?.id).toBe(rows[1].id);
    const [invitation] = await database.db.select().from(invitations);
    expect(toInvitation(invitation, after).name).toBe('Ada Lovelace');
    expect(recoverInvitationToken(after, invitation)).toBe(invitationToken);
    expect(() => toInvitation(invitation, new FieldCipher(oldKey))).toThrow(FieldDecryptionError);
    // The deletion's event (the page's incident events come with it, decision 204).
    const event = (await database.db.select().from(auditEvents)).find(
      (e) => e.details?.targetNameEnc !== undefined,
    ) as typeof auditEvents.$inferSelect;
    const sealed = String(event.details.targetNameEnc);
    const ctx = { table: 'audit_events', column: 'target_name', rowId: event.id };
    expect(sealed.startsWith(`v1.${after.keyId}.`)).toBe(true);
    expect(after.decrypt(sealed, ctx)).toBe('Katherine Johnson');
    expect(event.details.roles).toEqual(['on-call']);
    const sealedPages = await database.db.select().from(pages).orderBy(pages.id);
    expect(sealedPages.map((p) => pageMessageOf(p, after))).toEqual([
      'Page: disk full on db-7',
      'Legacy: router 3 is down',
    ]);
    const dump = (await rawDump()).toLowerCase();
    for (const secret of [...secrets, invitationToken]) {
      expect(dump).not.toContain(secret.toLowerCase());
    }
  });
});
