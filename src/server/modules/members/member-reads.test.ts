import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../../../tests/setup/test-database';
import { FieldCipher, generateMasterKey, parseMasterKey } from '../../crypto/field-crypto';
import type { Database, Db } from '../../db/client';
import { users } from '../../db/schema';
import { insertRotation, insertUser } from '../../seed/factories';
import { personReader } from '../users/person-reader';
import { listMembersWithPeople, listMembersWithUsers } from './member-reads';

/**
 * The lists and the calendar read members with their persons and roles only (decision 294): the
 * same members in the same order as the whole rows, the same people once decrypted, and none of
 * the columns no list shows (the person's rules, hours, sign-in ids and hashes).
 */

let database: Database;
let db: Db;
const cipher = new FieldCipher(parseMasterKey(generateMasterKey()));
let rotationIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const people = [];
  for (const name of ['Avery Adams', 'Morgan Brooks', 'Iris Chen']) {
    people.push(await insertUser(db, cipher, { name, roles: ['on-call'] }));
  }
  await db
    .update(users)
    .set({ notificationRules: { high: [{ method: 'push', delayMinutes: 0 }], low: [] } })
    .where(eq(users.id, people[0].id));
  const first = await insertRotation(db, { memberIds: [people[2].id, people[0].id] });
  const second = await insertRotation(db, { memberIds: [people[1].id, people[2].id] });
  rotationIds = [second.id, first.id];
});
afterAll(() => database.close());

describe('listMembersWithPeople (decision 294)', () => {
  test('the members of listMembersWithUsers, in order, with only the person and the roles', async () => {
    const whole = await listMembersWithUsers(db, rotationIds);
    const people = await listMembersWithPeople(db, rotationIds);
    expect(people.map((m) => m.member)).toEqual(whole.map((m) => m.member));
    for (const m of people) {
      expect(Object.keys(m.user).sort()).toEqual(
        ['emailEnc', 'id', 'nameEnc', 'phoneEnc', 'role', 'roles'].sort(),
      );
    }
    // A reader each: one remembers every person it has decrypted.
    const readPeople = personReader(cipher);
    const readWhole = personReader(cipher);
    const fromPeople = people.map((m) => readPeople(m.user));
    const fromWhole = whole.map((m) => readWhole(m.user));
    expect(fromPeople).toEqual(fromWhole);
    expect(fromPeople.map((p) => p.name)).toEqual([
      'Iris Chen',
      'Avery Adams',
      'Morgan Brooks',
      'Iris Chen',
    ]);
    expect(await listMembersWithPeople(db, [])).toEqual([]);
  });
});
