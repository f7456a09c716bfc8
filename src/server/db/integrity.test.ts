import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../../tests/setup/test-database';
import { FieldCipher, generateMasterKey, parseMasterKey } from '../crypto/field-crypto';
import { insertRotation, insertUser } from '../seed/factories';
import { type Database, type Db, selectRows } from './client';

/**
 * The database keeps data sane whatever code path writes (decision 004): raw statements that
 * break a rule are refused with the rule's SQLSTATE, and deleting a user or a rotation does what
 * the migrations (drizzle/*.sql) chose for each foreign key. Runs on PGlite, and on PostgreSQL
 * when TEST_DATABASE_URL is set.
 */

let database: Database;
let db: Db;
const cipher = new FieldCipher(parseMasterKey(generateMasterKey()));

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database.close());

/** sqlState returns the SQLSTATE of a failed statement, looking through Drizzle's wrapping. */
function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

async function refusal(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
  } catch (err) {
    return sqlState(err) ?? `no SQLSTATE: ${String(err)}`;
  }
  return 'accepted';
}

const exec = (query: SQL) => db.execute(query);
const count = async (query: SQL) =>
  Number((await selectRows<{ n: number }>(db, query))[0]?.n ?? Number.NaN);

const users = async (n: number) =>
  Promise.all(Array.from({ length: n }, () => insertUser(db, cipher)));

describe(`constraints (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  test('a second membership of the same user in a rotation is refused (23505)', async () => {
    const [a] = await users(1);
    const rotation = await insertRotation(db, { memberIds: [a.id] });
    expect(
      await refusal(() =>
        exec(
          sql`insert into rotation_members (rotation_id, user_id, "order") values (${rotation.id}, ${a.id}, 5)`,
        ),
      ),
    ).toBe('23505');
    expect(
      await count(
        sql`select count(*)::int as n from rotation_members where rotation_id = ${rotation.id}`,
      ),
    ).toBe(1);
  });

  test('a duplicate order in a rotation is refused (23505), at commit since the rule is deferred', async () => {
    const [a, b, c] = await users(3);
    const rotation = await insertRotation(db, { memberIds: [a.id, b.id] });
    const orders = () =>
      selectRows<{ user_id: number; order: number }>(
        db,
        sql`select user_id, "order" from rotation_members where rotation_id = ${rotation.id} order by "order"`,
      );

    // On its own, a statement is its own transaction: refused.
    expect(
      await refusal(() =>
        exec(
          sql`insert into rotation_members (rotation_id, user_id, "order") values (${rotation.id}, ${c.id}, 0)`,
        ),
      ),
    ).toBe('23505');

    // Inside a transaction the check waits for the commit, which is refused; nothing is kept.
    let insertedInside = false;
    expect(
      await refusal(() =>
        db.transaction(async (tx) => {
          await tx.execute(
            sql`insert into rotation_members (rotation_id, user_id, "order") values (${rotation.id}, ${c.id}, 1)`,
          );
          insertedInside = true;
        }),
      ),
    ).toBe('23505');
    expect(insertedInside).toBe(true);
    expect(await orders()).toEqual([
      { user_id: a.id, order: 0 },
      { user_id: b.id, order: 1 },
    ]);

    // Deferred is what lets a reorder swap two positions in one transaction.
    await db.transaction(async (tx) => {
      await tx.execute(
        sql`update rotation_members set "order" = 1 where rotation_id = ${rotation.id} and user_id = ${a.id}`,
      );
      await tx.execute(
        sql`update rotation_members set "order" = 0 where rotation_id = ${rotation.id} and user_id = ${b.id}`,
      );
    });
    expect(await orders()).toEqual([
      { user_id: b.id, order: 0 },
      { user_id: a.id, order: 1 },
    ]);
  });

  test('a holder who is not a member of the rotation is refused (23503)', async () => {
    const [member, outsider] = await users(2);
    const rotation = await insertRotation(db, { memberIds: [member.id] });
    // The outsider is a member elsewhere, which does not make them a member here.
    await insertRotation(db, { memberIds: [outsider.id] });
    expect(
      await refusal(() =>
        exec(sql`update rotations set holder_user_id = ${outsider.id} where id = ${rotation.id}`),
      ),
    ).toBe('23503');
    expect(
      await refusal(() =>
        exec(
          sql`insert into rotations (name, holder_user_id, escalation_policy_id)
              values ('No members', ${member.id}, ${rotation.escalationPolicyId})`,
        ),
      ),
    ).toBe('23503');
    // A member may hold it.
    expect(
      await refusal(() =>
        exec(sql`update rotations set holder_user_id = ${member.id} where id = ${rotation.id}`),
      ),
    ).toBe('accepted');
  });

  test('a schedule entry that does not end after it starts is refused (23514)', async () => {
    const [a] = await users(1);
    const rotation = await insertRotation(db, { type: 'scheduled', memberIds: [a.id] });
    for (const [start, end] of [
      ['2026-11-10T09:00:00Z', '2026-11-10T09:00:00Z'],
      ['2026-11-10T09:00:00Z', '2026-11-10T08:59:59Z'],
    ]) {
      expect(
        await refusal(() =>
          exec(
            sql`insert into schedule_entries (rotation_id, user_id, start_at, end_at) values (${rotation.id}, ${a.id}, ${start}, ${end})`,
          ),
        ),
      ).toBe('23514');
    }
    expect(
      await refusal(() =>
        exec(
          sql`insert into schedule_entries (rotation_id, user_id, start_at, end_at) values (${rotation.id}, ${a.id}, '2026-11-10T09:00:00Z', '2026-11-10T09:00:01Z')`,
        ),
      ),
    ).toBe('accepted');
  });

  test('a coverage window that does not end after it starts is refused (23514)', async () => {
    const [a, b] = await users(2);
    const rotation = await insertRotation(db, { memberIds: [a.id, b.id], holderId: a.id });
    for (const [start, end] of [
      ['2026-11-10T09:00:00Z', '2026-11-10T09:00:00Z'],
      ['2026-11-11T09:00:00Z', '2026-11-10T09:00:00Z'],
    ]) {
      expect(
        await refusal(() =>
          exec(
            sql`insert into coverage_requests (rotation_id, requester_id, covering_user_id, start_at, end_at)
                values (${rotation.id}, ${a.id}, ${b.id}, ${start}, ${end})`,
          ),
        ),
      ).toBe('23514');
    }
  });
});

describe('what a deletion takes with it', () => {
  /** a rotation with everything that can point at its holder, `gone`, or at the rotation */
  async function world() {
    const [gone, stays, creator] = await users(3);
    const rotation = await insertRotation(db, {
      memberIds: [gone.id, stays.id],
      holderId: gone.id,
      createdById: gone.id,
    });
    const other = await insertRotation(db, { memberIds: [stays.id], createdById: creator.id });
    const at = '2026-11-10T09:00:00Z';
    const later = '2026-11-11T09:00:00Z';
    await exec(sql`insert into sessions (token_hash, user_id, idle_expires_at, absolute_expires_at)
                   values (${`hash-${gone.id}`}, ${gone.id}, ${later}, ${later})`);
    await exec(sql`insert into schedule_entries (rotation_id, user_id, start_at, end_at, created_by_id) values
                   (${rotation.id}, ${gone.id}, ${at}, ${later}, ${creator.id}),
                   (${rotation.id}, ${stays.id}, ${at}, ${later}, ${gone.id})`);
    await exec(sql`insert into coverage_requests (rotation_id, requester_id, covering_user_id, start_at, end_at) values
                   (${rotation.id}, ${gone.id}, ${stays.id}, ${at}, ${later}),
                   (${rotation.id}, ${stays.id}, ${gone.id}, ${at}, ${later})`);
    await exec(sql`insert into handoffs (rotation_id, from_user_id, to_user_id, kind)
                   values (${rotation.id}, ${gone.id}, ${stays.id}, 'pass'), (${rotation.id}, ${stays.id}, ${gone.id}, 'pass')`);
    const policy = JSON.stringify({ name: 'Copy', repeat: 0, steps: [] });
    await exec(sql`insert into pages (rotation_id, paged_by_id, target_user_id, message, policy)
                   values (${rotation.id}, ${gone.id}, ${stays.id}, 'disk full', ${policy}::jsonb),
                          (${rotation.id}, ${stays.id}, ${gone.id}, 'disk full', ${policy}::jsonb)`);
    await exec(sql`insert into audit_events (actor_user_id, action, target_type, target_id)
                   values (${gone.id}, 'rotation.updated', 'rotation', ${String(rotation.id)})`);
    await exec(sql`insert into invitations (name_enc, email_enc, email_index, role, token_hash, expires_at, invited_by_id, accepted_user_id)
                   values ('v1.x', 'v1.x', ${`index-${gone.id}`}, 'manager', ${`token-${gone.id}`}, ${later}, ${gone.id}, ${gone.id})`);
    await exec(sql`insert into notifications (user_id, channel, kind, content_enc, dedupe_key)
                   values (${gone.id}, 'email', 'handoff', 'v1.x', ${`dedupe-${gone.id}`})`);
    return { gone, stays, creator, rotation, other };
  }

  test('deleting a user removes what was theirs and keeps history with the user cleared', async () => {
    const { gone, stays, rotation, other } = await world();
    await exec(sql`delete from users where id = ${gone.id}`);

    // Cascades: memberships, sessions, their schedule entries, coverage requests, notifications.
    expect(
      await selectRows(
        db,
        sql`select user_id from rotation_members where rotation_id = ${rotation.id}`,
      ),
    ).toEqual([{ user_id: stays.id }]);
    for (const [table, column] of [
      ['rotation_members', 'user_id'],
      ['sessions', 'user_id'],
      ['schedule_entries', 'user_id'],
      ['coverage_requests', 'requester_id'],
      ['coverage_requests', 'covering_user_id'],
      ['notifications', 'user_id'],
    ] as const) {
      expect(
        await count(
          sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${gone.id}`,
        ),
        `${table}.${column}`,
      ).toBe(0);
    }
    // Set null: the holder (the membership went), who created the rotation, and the history.
    const [after] = await selectRows<{
      holder_user_id: number | null;
      created_by_id: number | null;
    }>(db, sql`select holder_user_id, created_by_id from rotations where id = ${rotation.id}`);
    expect(after).toEqual({ holder_user_id: null, created_by_id: null });
    expect(
      await selectRows(
        db,
        sql`select user_id, created_by_id from schedule_entries where rotation_id = ${rotation.id}`,
      ),
    ).toEqual([{ user_id: stays.id, created_by_id: null }]);
    expect(
      await selectRows(
        db,
        sql`select from_user_id, to_user_id from handoffs where rotation_id = ${rotation.id} order by id`,
      ),
    ).toEqual([
      { from_user_id: null, to_user_id: stays.id },
      { from_user_id: stays.id, to_user_id: null },
    ]);
    expect(
      await selectRows(
        db,
        sql`select paged_by_id, target_user_id from pages where rotation_id = ${rotation.id} order by id`,
      ),
    ).toEqual([
      { paged_by_id: null, target_user_id: stays.id },
      { paged_by_id: stays.id, target_user_id: null },
    ]);
    expect(
      await selectRows(
        db,
        sql`select actor_user_id from audit_events where target_id = ${String(rotation.id)}`,
      ),
      // The audit trail is append-only and keeps who acted (decision 172): no foreign key.
    ).toEqual([{ actor_user_id: gone.id }]);
    expect(
      await selectRows(
        db,
        sql`select invited_by_id, accepted_user_id from invitations where token_hash = ${`token-${gone.id}`}`,
      ),
    ).toEqual([{ invited_by_id: null, accepted_user_id: null }]);
    // Nothing else moved.
    expect(
      await count(
        sql`select count(*)::int as n from rotations where id in (${rotation.id}, ${other.id})`,
      ),
    ).toBe(2);
  });

  test('deleting a rotation removes its members, schedule, handoffs, coverage and pages; people stay', async () => {
    const { gone, stays, creator, rotation, other } = await world();
    await exec(sql`delete from rotations where id = ${rotation.id}`);
    for (const table of [
      'rotation_members',
      'schedule_entries',
      'coverage_requests',
      'handoffs',
      'pages',
    ]) {
      expect(
        await count(
          sql`select count(*)::int as n from ${sql.identifier(table)} where rotation_id = ${rotation.id}`,
        ),
        table,
      ).toBe(0);
    }
    expect(
      await count(
        sql`select count(*)::int as n from users where id in (${gone.id}, ${stays.id}, ${creator.id})`,
      ),
    ).toBe(3);
    // The administrative trail is not tied to the rotation row: it outlives it.
    expect(
      await count(
        sql`select count(*)::int as n from audit_events where target_type = 'rotation' and target_id = ${String(rotation.id)}`,
      ),
    ).toBe(1);
    expect(
      await count(
        sql`select count(*)::int as n from rotation_members where rotation_id = ${other.id}`,
      ),
    ).toBe(1);
  });

  test("the holder's membership cannot be pointed at another user (23503: no action on update)", async () => {
    const [holder, other] = await users(2);
    const rotation = await insertRotation(db, { memberIds: [holder.id], holderId: holder.id });
    expect(
      await refusal(() =>
        exec(
          sql`update rotation_members set user_id = ${other.id} where rotation_id = ${rotation.id} and user_id = ${holder.id}`,
        ),
      ),
    ).toBe('23503');
    // Removing the membership itself clears the holder instead (ON DELETE SET NULL).
    await exec(
      sql`delete from rotation_members where rotation_id = ${rotation.id} and user_id = ${holder.id}`,
    );
    expect(
      await selectRows(db, sql`select holder_user_id from rotations where id = ${rotation.id}`),
    ).toEqual([{ holder_user_id: null }]);
  });
});
