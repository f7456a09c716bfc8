import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../../../tests/setup/test-database';
import { hashToken } from '../../crypto/bearer-secrets';
import { FieldCipher, generateMasterKey, parseMasterKey } from '../../crypto/field-crypto';
import { type Database, selectRows } from '../../db/client';
import { insertUser } from '../../seed/factories';
import {
  findInvitationByToken,
  insertInvitation,
  markInvitationAccepted,
  recoverInvitationToken,
} from './invitation-repository';

const cipher = new FieldCipher(parseMasterKey(generateMasterKey()));
const createdAt = new Date('2026-11-24T09:00:00Z');
const expiresAt = new Date('2026-12-01T09:00:00Z');
const input = (email: string) => ({
  name: 'Tia Token',
  email,
  role: 'member',
  expiresAt,
  createdAt,
});

// Two copies of the same template: the same next id, the same instant, the same key.
let first: Database;
let second: Database;
beforeAll(async () => {
  [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

describe('invitation tokens (decision 110)', () => {
  test('are random: the same id, instant and key still give unrelated 256-bit tokens', async () => {
    const a = await insertInvitation(first.db, cipher, input('tia.token@example.com'));
    const b = await insertInvitation(second.db, cipher, input('tia.token@example.com'));
    expect(a.row.id).toBe(b.row.id);
    expect(a.token).toMatch(/^[\w-]{43}$/);
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(b.token).not.toBe(a.token);
    // Within one database as well.
    const c = await insertInvitation(first.db, cipher, input('tia.other@example.com'));
    expect(new Set([a.token, b.token, c.token]).size).toBe(3);
  });

  test('are stored only as a hash and a sealed copy, never in clear', async () => {
    const { token, row } = await insertInvitation(
      first.db,
      cipher,
      input('sealed.token@example.com'),
    );
    const [raw] = await selectRows<Record<string, unknown>>(
      first.db,
      sql`select * from invitations where id = ${row.id}`,
    );
    expect(JSON.stringify(raw)).not.toContain(token);
    expect(raw.token_hash).toBe(hashToken(token));
    expect(String(raw.token_enc)).toMatch(/^v1\./);
    expect((await findInvitationByToken(first.db, token))?.id).toBe(row.id);
    expect(recoverInvitationToken(cipher, row)).toBe(token);
  });

  test('the sealed copy is bound to its row and cleared once the invitation is used', async () => {
    const one = await insertInvitation(first.db, cipher, input('bound.one@example.com'));
    const two = await insertInvitation(first.db, cipher, input('bound.two@example.com'));
    // A sealed token moved to another row does not open there.
    expect(() =>
      recoverInvitationToken(cipher, { ...two.row, tokenEnc: one.row.tokenEnc }),
    ).toThrow();

    const user = await insertUser(first.db, cipher, { email: 'bound.one@example.com' });
    expect(await markInvitationAccepted(first.db, one.row.id, user.id, createdAt)).toBe(true);
    const row = await findInvitationByToken(first.db, one.token);
    expect(row?.status).toBe('accepted');
    expect(row?.tokenEnc).toBeNull();
  });

  test('an invitation made before decision 110 (no sealed token) is found by its hash, shown without link', async () => {
    const { row } = await insertInvitation(first.db, cipher, input('legacy.link@example.com'));
    const legacyToken = 'legacy-derived-token-0123456789abcdefghijklm';
    await first.db.execute(
      sql`update invitations set token_hash = ${hashToken(legacyToken)}, token_enc = null
          where id = ${row.id}`,
    );
    const found = await findInvitationByToken(first.db, legacyToken);
    expect(found?.id).toBe(row.id);
    expect(found && recoverInvitationToken(cipher, found)).toBeNull();
  });
});
