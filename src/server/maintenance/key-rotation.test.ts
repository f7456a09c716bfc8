import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { normalizePhone } from '../../shared/domain/notification-routing';
import { startRuntime } from '../bootstrap';
import { ManualClock } from '../core/clock';
import { hashToken } from '../crypto/bearer-secrets';
import { FieldCipher, parseMasterKey } from '../crypto/field-crypto';
import { openPglite, selectRows } from '../db/client';
import { receiveAlerts } from '../modules/alerts/alert-intake';
import { verifyAuditChain } from '../modules/audit/audit-chain';
import { auditReasonCtx } from '../modules/audit/audit-sealed';
import { recordAdminEvent } from '../modules/audit/people-events';
import { insertImport } from '../modules/imports/import-repository';
import { raiseIncident } from '../modules/incidents/incident-engine';
import { addIncidentNote } from '../modules/incidents/incident-notes';
import {
  type IncidentTextField,
  incidentTextCtx,
  pageMessageOf,
} from '../modules/incidents/incident-text';
import { pageRotation } from '../modules/incidents/rotation-page';
import { insertInvitation } from '../modules/invitations/invitation-repository';
import { enqueueNotifications } from '../modules/notifications/outbox';
import { saveSubscription } from '../modules/push/push-subscription-repository';
import { readOrCreateVapidKeys } from '../modules/push/vapid-keys';
import { createSession } from '../modules/sessions/session-service';
import { timeOffNoteCtx } from '../modules/time-off/time-off-repository';
import { addTimeOff } from '../modules/time-off/time-off-service';
import { startTokenSync } from '../modules/token-sync/token-sync-service';
import { findUserRowByEmail, toUser } from '../modules/users/user-repository';
import { secretsPath } from '../secrets';
import { insertIntegration } from '../seed/factories';
import { ENCRYPTED_COLUMNS, rotateKeys } from './key-rotation';

let dataDir: string | undefined;
let codePhone = '';
let oldFormerNumberHash = '';
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const readSecrets = async (dir: string) =>
  JSON.parse(await readFile(secretsPath(dir), 'utf8')) as {
    encryptionKey: string;
    previousEncryptionKeys: string[];
  };

test('keys:rotate on a demo data directory: a new key in secrets.json, every value under it', async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'baton-rotate-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  const clock = new ManualClock('2026-11-04T15:00:00Z');

  // A demo team, plus a value in every encrypted column: an invitation, a notification and a
  // page; and a page as stored before decision 163, its text in clear, which keys:rotate seals.
  const runtime = await startRuntime(env, clock);
  const oldKeyId = runtime.cipher.keyId;
  try {
    const { db } = runtime.database;
    await insertInvitation(db, runtime.cipher, {
      name: 'Ines Invitee',
      email: 'ines.invitee@example.com',
      role: 'manager',
      expiresAt: new Date('2026-11-11T15:00:00Z'),
    });
    await enqueueNotifications(db, runtime.cipher, clock.now(), [
      {
        eventKey: 'rotation-check',
        kind: 'notice',
        recipient: {
          id: null,
          email: 'ines.invitee@example.com',
          phone: null,
          notificationPreference: 'email',
        },
        subject: 'Before the rotation',
        text: 'Sealed under the old key.',
      },
    ]);
    // A deletion in the append-only audit trail, with the name it seals (decisions 132, 172).
    const admin = await findUserRowByEmail(db, runtime.cipher, 'avery.admin@example.com');
    await db.transaction((tx) =>
      recordAdminEvent(
        tx,
        {
          actorUserId: admin!.id,
          action: 'user.deleted',
          targetType: 'user',
          targetId: 999,
          at: clock.now(),
        },
        { cipher: runtime.cipher, targetName: 'Dora Departed' },
      ),
    );
    const [rotation] = await selectRows<{ id: number; holder: number }>(
      db,
      sql`select id, holder_user_id as holder from rotations where holder_user_id is not null limit 1`,
    );
    // A page made the way a user makes one: the administrator pages the rotation's holder.
    await pageRotation(runtime, toUser(admin!, runtime.cipher), rotation.id, {
      message: 'Sealed page text',
      urgency: 'high',
    });
    // An incident with every text of its own sealed (decision 204).
    const [policy] = await selectRows<{ id: number }>(
      db,
      sql`select escalation_policy_id as id from rotations where id = ${rotation.id}`,
    );
    await db.transaction((tx) =>
      raiseIncident(tx, runtime, {
        rotation: null,
        policyId: policy.id,
        raisedBy: toUser(admin!, runtime.cipher),
        source: 'user',
        title: 'Sealed title',
        message: 'Sealed incident text',
        severity: 'P2',
        urgency: 'low',
        description: 'Sealed description',
        impact: 'Sealed impact',
        troubleshootingSteps: 'Sealed steps',
        now: clock.now(),
      }),
    );
    await db.execute(
      sql`insert into pages (rotation_id, paged_by_id, target_user_id, message, policy)
          values (${rotation.id}, ${rotation.holder}, ${rotation.holder}, 'Clear page text',
                  '{"name":"Old","repeat":0,"steps":[]}'::jsonb)`,
    );
    // An incident's sealed fields and a note on it (issue 16, decision 205).
    const [paged] = await selectRows<{ id: number }>(
      db,
      sql`select id from pages where message_enc is not null order by id limit 1`,
    );
    const seal = (field: IncidentTextField, value: string) =>
      runtime.cipher.encrypt(value, incidentTextCtx(field, paged.id));
    await db.execute(
      sql`update pages set title_enc = ${seal('title', 'Sealed title')},
                           description_enc = ${seal('description', 'Sealed description')},
                           impact_enc = ${seal('impact', 'Sealed impact')},
                           troubleshooting_enc = ${seal('troubleshooting', 'Sealed steps')}
           where id = ${paged.id}`,
    );
    await addIncidentNote(runtime, toUser(admin!, runtime.cipher), paged.id, 'Sealed note');
    // An integration with Grafana's signing secret, and an alert through it (issue 17): the secret,
    // the alert's envelope and its raw payload are sealed.
    const { integration } = await insertIntegration(db, runtime.cipher, {
      name: 'Grafana',
      rotationId: rotation.id,
      signingSecret: 'sealed-signing-secret',
      now: clock.now(),
    });
    await receiveAlerts(runtime, integration, {
      format: 'generic',
      events: [
        {
          action: 'trigger',
          dedupKey: 'sealed-alert',
          summary: 'Sealed alert',
          source: 'cron',
          severity: 'P3',
          urgency: 'low',
          details: [{ section: 'Details', label: 'job', value: 'backup' }],
          links: [],
        },
      ],
      payload: 'summary=Sealed+alert',
    });
    // Time off with its note (issue 18), recorded as a person records it.
    await addTimeOff(runtime, toUser(admin!, runtime.cipher), admin!.id, {
      startTime: '2026-11-09T00:00:00Z',
      endTime: '2026-11-13T00:00:00Z',
      note: 'Sealed time off note',
    });
    // Two SMS reply codes of the page (decision 201): one sent to the holder's number, kept as
    // its hash under the old key; one sent to a number they no longer have.
    const [holder] = await selectRows<{ id: number; phone: string }>(
      db,
      sql`select id, phone_enc as phone from users where id = ${rotation.holder}`,
    );
    const holderPhone = normalizePhone(
      runtime.cipher.decrypt(holder.phone, { table: 'users', column: 'phone', rowId: holder.id }),
    );
    expect(holderPhone, 'the demo holder has a phone').toBeTruthy();
    const [sentPage] = await selectRows<{ id: number }>(
      db,
      sql`select id from pages order by id desc limit 1`,
    );
    await db.execute(
      sql`insert into sms_reply_codes (page_id, user_id, phone_hash, code) values
            (${sentPage.id}, ${holder.id}, ${runtime.cipher.phoneIndex(holderPhone ?? '')}, '4821'),
            (${sentPage.id}, ${holder.id}, ${runtime.cipher.phoneIndex('+15550000000')}, '4822')`,
    );
    oldFormerNumberHash = runtime.cipher.phoneIndex('+15550000000');
    codePhone = holderPhone ?? '';
    // A session synced to a companion service (issue 21): its ID and refresh tokens are sealed.
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const idToken = `${b64({ alg: 'RS256' })}.${b64({ sub: 'sealed', iat: 1_793_800_000 })}.sig`;
    await db.transaction(async (tx) => {
      const { token } = await createSession(tx, clock, runtime.config.session, admin!.id);
      await startTokenSync(
        tx,
        runtime.cipher,
        clock.now(),
        { tokenHash: hashToken(token), userId: admin!.id },
        { source: 'oidc', idToken, refreshToken: 'sealed-refresh-token' },
      );
      // A device for push (issue 33, decision 253): its endpoint, keys and name are sealed.
      await saveSubscription(tx, runtime.cipher, {
        userId: admin!.id,
        endpoint: 'https://push.example.com/send/sealed-endpoint',
        keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
        name: 'Sealed phone',
        expiresAt: null,
        now: clock.now(),
      });
      // An import (issue 34, decision 268): its snapshot and plan hold people's names, sealed.
      const window = { from: clock.now(), to: new Date(clock.now().getTime() + 86_400_000) };
      await insertImport(tx, runtime.cipher, {
        snapshot: {
          source: 'csv',
          account: 'team.csv',
          window,
          people: [{ sourceId: 'row 2', name: 'Sealed Person', email: 'sealed@example.com' }],
          schedules: [],
          policies: [],
          integrations: [],
          notes: [],
        },
        plan: {
          source: 'csv',
          account: 'team.csv',
          window: { from: window.from.toISOString(), to: window.to.toISOString() },
          summary: { create: 0, update: 0, unchanged: 0, invite: 0, warnings: 0 },
          people: [],
          changes: [],
          notes: [],
          endpoints: [],
        },
        createdById: admin!.id,
        now: clock.now(),
      });
    });
    // Baton's VAPID key pair, generated once: its private key is sealed.
    await readOrCreateVapidKeys({ config: runtime.config, db, cipher: runtime.cipher });
  } finally {
    await runtime.database.close();
  }
  const before = await readSecrets(dataDir);

  const result = await rotateKeys(env);

  // secrets.json holds the new key alone (the old one is forgotten once nothing needs it).
  const after = await readSecrets(dataDir);
  expect(after.encryptionKey).not.toBe(before.encryptionKey);
  expect(after.previousEncryptionKeys).toEqual([]);
  const cipher = new FieldCipher(parseMasterKey(after.encryptionKey));
  expect(result).toEqual({ count: expect.any(Number), keyId: cipher.keyId, fromEnv: false });
  expect(cipher.keyId).not.toBe(oldKeyId);

  // Every value opens with the new key alone; none is under the old key id.
  const database = await openPglite(dataDir);
  try {
    let values = 0;
    for (const spec of ENCRYPTED_COLUMNS) {
      const rows = await selectRows<{ id: number; value: string }>(
        database.db,
        sql`select id, ${sql.identifier(spec.column)} as value from ${sql.identifier(spec.table)}
            where ${sql.identifier(spec.column)} is not null`,
      );
      expect(rows.length, `${spec.table}.${spec.column} has values`).toBeGreaterThan(0);
      for (const row of rows) {
        const where = `${spec.table}.${spec.column} #${row.id}`;
        expect(row.value.startsWith(`v1.${oldKeyId}.`), where).toBe(false);
        expect(row.value.startsWith(`v1.${cipher.keyId}.`), where).toBe(true);
        const ctx = { table: spec.table, column: spec.field, rowId: Number(row.id) };
        expect(() => cipher.decrypt(row.value, ctx), where).not.toThrow();
      }
      values += rows.length;
    }
    // The trail's sealed name was re-sealed under the new key; the chain still verifies.
    const sealed = await selectRows<{ id: number; value: string }>(
      database.db,
      sql`select id, details ->> 'targetNameEnc' as value from audit_events
           where details ? 'targetNameEnc'`,
    );
    expect(sealed).toHaveLength(1);
    expect(sealed[0].value.startsWith(`v1.${cipher.keyId}.`)).toBe(true);
    expect(await verifyAuditChain(database.db, cipher)).toMatchObject({
      status: 'intact',
      firstBroken: null,
    });
    // The note too (decision 205): it opens with the new key and reads back on the incident.
    const notes = await selectRows<{ id: number; value: string }>(
      database.db,
      sql`select id, details ->> 'reasonEnc' as value from audit_events
           where action = 'incident.note'`,
    );
    expect(notes).toHaveLength(1);
    expect(notes[0].value.startsWith(`v1.${cipher.keyId}.`)).toBe(true);
    expect(cipher.decrypt(notes[0].value, auditReasonCtx(Number(notes[0].id)))).toBe('Sealed note');
    // The code sent to the holder's number is under the new key's hash, so their reply is still
    // recognised once the old key is gone; the one sent to a former number is left as it was.
    const codes = await selectRows<{ code: string; phoneHash: string }>(
      database.db,
      sql`select code, phone_hash as "phoneHash" from sms_reply_codes order by code`,
    );
    expect(codes).toEqual([
      { code: '4821', phoneHash: cipher.phoneIndex(codePhone) },
      { code: '4822', phoneHash: oldFormerNumberHash },
    ]);
    expect(result.count).toBe(values + 2 + 1);
    const pageRows = await selectRows<{
      id: number;
      messageEnc: string | null;
      legacyMessage: string | null;
    }>(
      database.db,
      sql`select id, message_enc as "messageEnc", message as "legacyMessage" from pages order by id`,
    );
    expect(pageRows.map((p) => [p.legacyMessage, pageMessageOf(p, cipher)])).toEqual([
      // The demo team's three incidents (the seed: two raised by people, one by an alert), then
      // the ones made here.
      [null, 'Replication lag on the primary above 30 seconds'],
      [null, 'Checkout API returns 502 for 5% of requests'],
      [null, 'Disk 85% full on db-2'],
      [null, 'Sealed page text'],
      [null, 'Sealed incident text'],
      [null, 'Clear page text'],
      [null, 'Sealed alert'],
    ]);
    // The time off's note opens with the new key alone.
    const [away] = await selectRows<{ id: number; value: string }>(
      database.db,
      sql`select id, note_enc as value from time_off`,
    );
    expect(cipher.decrypt(away.value, timeOffNoteCtx(Number(away.id)))).toBe(
      'Sealed time off note',
    );
    // Sign-in lookups work under the new key: the blind index was recomputed.
    const admin = await findUserRowByEmail(database.db, cipher, 'avery.admin@example.com');
    expect(admin && toUser(admin, cipher).name).toBe('Avery Admin');
  } finally {
    await database.close();
  }
});
