import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../../../tests/setup/test-database';
import { FieldCipher, generateMasterKey, parseMasterKey } from '../../crypto/field-crypto';
import { type Database, type Db, selectRows } from '../../db/client';
import { reencryptAll } from '../../maintenance/key-rotation';
import { insertUser } from '../../seed/factories';
import { recordAdminEvent } from '../audit/people-events';
import { insertAuditEvent } from '../rotations/rotation-repository';
import { AUDIT_GENESIS_HASH, verifyAuditChain } from './audit-chain';

/**
 * The audit trail is append-only and hash-chained by the database itself (decision 172, migration
 * 0006): raw UPDATE, DELETE and TRUNCATE are refused, every insert is chained to the one before,
 * and verifyAuditChain finds the first broken link when someone with the power to switch the
 * triggers off edits the table. Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */

let database: Database;
let db: Db;
const oldKey = generateMasterKey();
let cipher = new FieldCipher(parseMasterKey(oldKey));
let actorId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  actorId = (await insertUser(db, cipher, { name: 'Avery Admin', roles: ['admin'] })).id;
});
afterAll(() => database.close());

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute));

/** rotationEvent writes one event the way the rotation service does. */
async function rotationEvent(action: string, minute: number) {
  await db.transaction((tx) =>
    insertAuditEvent(tx, {
      actorUserId: actorId,
      action,
      rotationId: 1,
      details: { minute },
      at: at(minute),
    }),
  );
}

/** deletionEvent writes a user's deletion with the name it seals (decision 132). */
async function deletionEvent(targetId: number, name: string, minute: number) {
  await db.transaction((tx) =>
    recordAdminEvent(
      tx,
      {
        actorUserId: actorId,
        action: 'user.deleted',
        targetType: 'user',
        targetId,
        at: at(minute),
      },
      { cipher, targetName: name },
    ),
  );
}

interface EventRow {
  id: number;
  chain_seq: number;
  prev_hash: string;
  hash: string;
  action: string;
  sealed: string | null;
}

async function events(): Promise<EventRow[]> {
  const rows = await selectRows<EventRow>(
    db,
    sql`select id, chain_seq, prev_hash, hash, action, details ->> 'targetNameEnc' as sealed
          from audit_events order by chain_seq`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), chain_seq: Number(r.chain_seq) }));
}

/** refusal runs a statement and answers the database's message, or 'accepted'. */
async function refusal(statement: SQL): Promise<string> {
  try {
    await db.execute(statement);
  } catch (err) {
    for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
      const message = (e as { message?: unknown }).message;
      if (typeof message === 'string' && /refused/.test(message)) return message;
    }
    return `refused otherwise: ${String(err)}`;
  }
  return 'accepted';
}

/**
 * asSuperuser does what only the tables' owner or a superuser can: switch the user triggers off
 * for one transaction and edit the trail directly.
 */
async function asSuperuser(...statements: SQL[]) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_events disable trigger user`);
    for (const s of statements) await tx.execute(s);
    await tx.execute(sql`alter table audit_events enable trigger user`);
  });
}

describe('the audit trail', () => {
  test('every insert is chained to the one before, in one line', async () => {
    await rotationEvent('rotation.created', 0);
    await rotationEvent('rotation.updated', 1);
    await deletionEvent(101, 'Dana Deleted', 2);
    // Several events in one statement are chained one after another too.
    await db.execute(sql`insert into audit_events (actor_user_id, action, target_type, target_id, created_at)
                         values (${actorId}, 'rotation.suspended', 'rotation', '1', ${at(3).toISOString()}),
                                (${actorId}, 'rotation.activated', 'rotation', '1', ${at(4).toISOString()})`);
    await deletionEvent(102, 'Eli Erased', 5);
    await rotationEvent('rotation.deleted', 6);

    const rows = await events();
    expect(rows.map((r) => r.chain_seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(rows[0].prev_hash).toBe(AUDIT_GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
    for (const r of rows) expect(r.hash).toMatch(/^[0-9a-f]{64}$/);

    expect(await verifyAuditChain(db, cipher)).toEqual({
      status: 'intact',
      eventsChecked: 7,
      head: { seq: 7, hash: rows[6].hash },
      firstBroken: null,
    });
    // Walking in small batches gives the same answer.
    expect((await verifyAuditChain(db, cipher, { batch: 2 })).status).toBe('intact');
  });

  test('the database refuses UPDATE, DELETE and TRUNCATE of events, and any change of the head', async () => {
    const before = await events();
    const [first, , sealed] = before;
    expect(
      await refusal(
        sql`update audit_events set action = 'rotation.renamed' where id = ${first.id}`,
      ),
    ).toBe('audit_events is append-only: UPDATE refused');
    expect(await refusal(sql`update audit_events set actor_user_id = null`)).toBe(
      'audit_events is append-only: UPDATE refused',
    );
    expect(await refusal(sql`delete from audit_events where id = ${first.id}`)).toBe(
      'audit_events is append-only: DELETE refused',
    );
    expect(await refusal(sql`truncate audit_events`)).toBe(
      'audit_events is append-only: TRUNCATE refused',
    );
    expect(await refusal(sql`update audit_chain_head set seq = 1`)).toBe(
      'audit_chain_head changes only with an audit event: UPDATE refused',
    );
    expect(await refusal(sql`delete from audit_chain_head`)).toBe(
      'audit_chain_head changes only with an audit event: DELETE refused',
    );
    // A sealed name is re-sealed only by key rotation's transaction, which says so …
    const other = before[5].sealed;
    expect(
      await refusal(
        sql`update audit_events set details = jsonb_set(details, '{targetNameEnc}', to_jsonb(${other}::text)) where id = ${sealed.id}`,
      ),
    ).toBe('audit_events is append-only: UPDATE refused');
    // … and even then nothing the hash covers may change.
    const resealed = await db
      .transaction(async (tx) => {
        await tx.execute(sql`select set_config('baton.audit_reseal', 'on', true)`);
        await tx.execute(
          sql`update audit_events set action = 'user.restored' where id = ${sealed.id}`,
        );
      })
      .then(
        () => 'accepted',
        (err: unknown) => String((err as { cause?: Error }).cause?.message ?? err),
      );
    expect(resealed).toBe('audit_events is append-only: UPDATE refused');
    expect(await events()).toEqual(before);
    expect((await verifyAuditChain(db, cipher)).status).toBe('intact');
  });

  test('an edit made with the triggers switched off is found at the event it touched', async () => {
    const rows = await events();
    const third = rows[2];
    const fourth = rows[3];
    const last = rows[rows.length - 1];

    // A field changed: that event's hash no longer matches it.
    await asSuperuser(sql`update audit_events set actor_user_id = 999 where id = ${fourth.id}`);
    expect((await verifyAuditChain(db, cipher)).firstBroken).toEqual({
      kind: 'altered',
      chainSeq: 4,
      eventId: fourth.id,
      message: `Event ${fourth.id} (position 4) was changed after it was written: its fields no longer give its hash.`,
    });
    // Its hash recomputed too: now the next event does not follow it.
    await asSuperuser(
      sql`update audit_events e set hash = audit_event_digest(e) where id = ${fourth.id}`,
    );
    expect((await verifyAuditChain(db, cipher)).firstBroken).toMatchObject({
      kind: 'unlinked',
      chainSeq: 5,
      eventId: rows[4].id,
    });
    await asSuperuser(
      sql`update audit_events set actor_user_id = ${actorId}, hash = ${fourth.hash} where id = ${fourth.id}`,
    );
    expect((await verifyAuditChain(db, cipher)).status).toBe('intact');

    // An event deleted from the middle: its position is missing.
    await asSuperuser(sql`delete from audit_events where id = ${fourth.id}`);
    const gap = await verifyAuditChain(db, cipher);
    expect(gap).toMatchObject({
      status: 'broken',
      eventsChecked: 3,
      firstBroken: {
        kind: 'missing',
        chainSeq: 4,
        eventId: null,
        message: `Position 4 of the chain has no event: an event was deleted before event ${rows[4].id}.`,
      },
    });

    // The last event deleted: only the head knows.
    const restore = await selectRows<Record<string, unknown>>(
      db,
      sql`select id, chain_seq, prev_hash, hash, actor_user_id, action, target_type, target_id,
                 details::text as details, created_at::text as created_at
            from audit_events where id = ${last.id}`,
    );
    await asSuperuser(sql`delete from audit_events where id = ${last.id}`);
    expect((await verifyAuditChain(db, cipher)).firstBroken?.kind).toBe('missing');
    // (The middle one back first, as it was, so the tail is the only damage.)
    await asSuperuser(
      sql`insert into audit_events (id, chain_seq, prev_hash, hash, actor_user_id, action, target_type, target_id, details, created_at)
          values (${fourth.id}, 4, ${third.hash}, ${fourth.hash}, ${actorId}, 'rotation.suspended', 'rotation', '1', '{}', ${at(3).toISOString()})`,
    );
    expect((await verifyAuditChain(db, cipher)).firstBroken).toEqual({
      kind: 'head',
      chainSeq: 7,
      eventId: null,
      message: `The chain head is at position 7 but the last event is at 6 (event ${rows[5].id}): events at the end were deleted.`,
    });
    const r = restore[0];
    await asSuperuser(
      sql`insert into audit_events (id, chain_seq, prev_hash, hash, actor_user_id, action, target_type, target_id, details, created_at)
          values (${r.id}, ${r.chain_seq}, ${r.prev_hash}, ${r.hash}, ${r.actor_user_id}, ${r.action}, ${r.target_type}, ${r.target_id}, ${r.details}::jsonb, ${r.created_at}::timestamptz)`,
    );
    expect(await verifyAuditChain(db, cipher)).toMatchObject({
      status: 'intact',
      eventsChecked: 7,
    });
  });

  test('a sealed name moved from another event is found, though the hash counts it only as present', async () => {
    const rows = await events();
    const [a, b] = rows.filter((r) => r.sealed !== null);
    await asSuperuser(
      sql`update audit_events set details = jsonb_set(details, '{targetNameEnc}', to_jsonb(${b.sealed}::text)) where id = ${a.id}`,
    );
    expect((await verifyAuditChain(db, cipher)).firstBroken).toEqual({
      kind: 'sealed',
      chainSeq: a.chain_seq,
      eventId: a.id,
      message: `Event ${a.id} (position ${a.chain_seq}) holds a sealed value (a name or a reason) that does not open for it: altered, or moved from another event.`,
    });
    await asSuperuser(
      sql`update audit_events set details = jsonb_set(details, '{targetNameEnc}', to_jsonb(${a.sealed}::text)) where id = ${a.id}`,
    );
    expect((await verifyAuditChain(db, cipher)).status).toBe('intact');
  });

  test('key rotation re-seals the names in the trail and the chain still verifies', async () => {
    const before = await events();
    const newKey = generateMasterKey();
    const newCipher = new FieldCipher(parseMasterKey(newKey), [parseMasterKey(oldKey)]);
    const count = await reencryptAll(db, newCipher);
    expect(count).toBeGreaterThanOrEqual(2);
    const after = await events();
    for (const [i, row] of after.entries()) {
      const was = before[i];
      expect({ ...row, sealed: null }).toEqual({ ...was, sealed: null });
      if (was.sealed) {
        expect(row.sealed).not.toBe(was.sealed);
        expect(row.sealed?.startsWith(`v1.${newCipher.keyId}.`)).toBe(true);
      }
    }
    // The chain verifies under the new key alone: the old one is no longer needed.
    cipher = new FieldCipher(parseMasterKey(newKey));
    expect(await verifyAuditChain(db, cipher)).toMatchObject({
      status: 'intact',
      eventsChecked: 7,
    });
  });

  test('one transaction with many events, part of them rolled back to a savepoint, stays one line', async () => {
    const before = await events();
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into audit_events (action, target_type, target_id)
                           select 'page.escalated', 'page', g::text from generate_series(1, 300) g`);
      // A savepoint rolled back takes its events, and the chain's tip, with it.
      await tx
        .transaction(async (inner) => {
          await inner.execute(
            sql`insert into audit_events (action, target_type) values ('page.resolved', 'page')`,
          );
          throw new Error('roll back to the savepoint');
        })
        .catch(() => undefined);
      await tx.execute(
        sql`insert into audit_events (action, target_type) values ('page.acknowledged', 'page')`,
      );
    });
    const rows = await events();
    expect(rows).toHaveLength(before.length + 301);
    expect(rows.map((r) => r.chain_seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.filter((r) => r.action === 'page.resolved')).toEqual([]);
    expect(rows[rows.length - 1].action).toBe('page.acknowledged');
    expect(await verifyAuditChain(db, cipher, { batch: 128 })).toEqual({
      status: 'intact',
      eventsChecked: rows.length,
      head: { seq: rows.length, hash: rows[rows.length - 1].hash },
      firstBroken: null,
    });
    // And the next transaction goes on from the head.
    await rotationEvent('rotation.updated', 30);
    expect((await verifyAuditChain(db, cipher)).eventsChecked).toBe(rows.length + 1);
  });
});
