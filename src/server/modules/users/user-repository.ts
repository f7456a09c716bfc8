import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { NotificationRulesSchema } from '../../../shared/contracts/notification-rules';
import type { PagePerson } from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import type { NotificationRules } from '../../../shared/domain/notification-rules';
import { effectiveRoles, hasRole, primaryRole, type Role } from '../../../shared/domain/roles';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { rotationMembers, rotations, users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

export interface NewUser {
  name: string;
  email: string;
  phone?: string | null;
  roles: Role[];
  timezone?: string;
  notificationPreference?: User['notificationPreference'];
  oidcIssuer?: string;
  oidcSubject?: string;
}

const ctx = (column: string, rowId: number) => ({ table: 'users', column, rowId });

/** toUser decrypts a stored user row into the API's user shape. */
/** The columns of a user row that make a person: who they are and how to reach them. */
export type PersonRow = Pick<UserRow, 'id' | 'nameEnc' | 'emailEnc' | 'phoneEnc'>;

/** toPerson decrypts a person from their user row. */
export function toPerson(
  row: PersonRow,
  cipher: FieldCipher,
): Pick<User, 'id' | 'name' | 'email' | 'phone'> {
  return {
    id: row.id,
    name: cipher.decrypt(row.nameEnc, ctx('name', row.id)),
    email: cipher.decrypt(row.emailEnc, ctx('email', row.id)),
    phone: cipher.decryptNullable(row.phoneEnc, ctx('phone', row.id)),
  };
}

export function toUser(row: UserRow, cipher: FieldCipher): User {
  const roles = effectiveRoles(row.roles, row.role);
  return {
    ...toPerson(row, cipher),
    role: primaryRole(roles),
    roles,
    timezone: row.timezone,
    notificationPreference: row.notificationPreference as User['notificationPreference'],
  };
}

/** insertUsers creates users with their personal fields encrypted and returns them decrypted. */
export async function insertUsers(
  db: Db | Tx,
  cipher: FieldCipher,
  input: NewUser[],
): Promise<User[]> {
  if (input.length === 0) return [];
  const ids = await allocateIds(db, 'users', input.length);
  const rows = await db
    .insert(users)
    .values(
      input.map((u, i) => {
        const id = ids[i];
        return {
          id,
          nameEnc: cipher.encrypt(u.name, ctx('name', id)),
          emailEnc: cipher.encrypt(u.email.trim(), ctx('email', id)),
          emailIndex: cipher.blindIndex(u.email),
          phoneEnc: cipher.encryptNullable(u.phone || null, ctx('phone', id)),
          role: primaryRole(u.roles),
          roles: u.roles,
          timezone: u.timezone ?? 'UTC',
          notificationPreference: u.notificationPreference ?? 'email',
          oidcIssuer: u.oidcIssuer ?? null,
          oidcSubject: u.oidcSubject ?? null,
        };
      }),
    )
    .returning();
  return rows.map((r) => toUser(r, cipher));
}

/** findUserRowByEmail looks a user up through the blind index of the address. */
export async function findUserRowByEmail(
  db: Db | Tx,
  cipher: FieldCipher,
  email: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(inArray(users.emailIndex, cipher.blindIndexes(email)))
    .limit(1);
  return row;
}

/** findUserRowById returns the stored row of a user, or undefined. */
export async function findUserRowById(db: Db | Tx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** countAdmins counts users holding the admin role. */
export async function countAdmins(db: Db | Tx): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(sql`'admin' = any(${users.roles}) or ${users.role} = 'admin'`);
  return Number(row?.n ?? 0);
}

/** setUserRoles replaces a user's roles, keeping the legacy single role in step. */
export async function setUserRoles(db: Db | Tx, id: number, roles: Role[]): Promise<void> {
  await db
    .update(users)
    .set({ roles, role: primaryRole(roles), updatedAt: sql`now()` })
    .where(eq(users.id, id));
}

/**
 * listUsersWithRoles returns the users holding any of the roles (admin counts as manager and
 * incident manager; legacy member as on-call), sorted by name.
 */
export async function listUsersWithRoles(
  db: Db | Tx,
  cipher: FieldCipher,
  roles: Role[],
): Promise<User[]> {
  const stored = new Set<string>(roles);
  if (roles.includes('on-call')) stored.add('member');
  if (roles.includes('manager') || roles.includes('incident_manager')) stored.add('admin');
  const list = [...stored];
  const rows = await db
    .select()
    .from(users)
    .where(
      sql`${users.roles} && ${sql.param(list)}::text[] or ${users.role} = any(${sql.param(list)}::text[])`,
    );
  return rows
    .map((r) => toUser(r, cipher))
    .filter((u) => roles.some((r) => hasRole(u.roles, r)))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** listAllUsers returns every user, decrypted, sorted by name (one query). */
export async function listAllUsers(db: Db | Tx, cipher: FieldCipher): Promise<User[]> {
  const rows = await db.select().from(users);
  return rows.map((r) => toUser(r, cipher)).sort((a, b) => a.name.localeCompare(b.name));
}

/** lockUserRow returns a user's row locked for update (until the transaction ends), or undefined. */
export async function lockUserRow(tx: Tx, id: number): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return row;
}

/** updateUserProfile writes the given profile fields (personal ones encrypted) and returns the user. */
export async function updateUserProfile(
  db: Db | Tx,
  cipher: FieldCipher,
  id: number,
  input: {
    name?: string;
    phone?: string | null;
    timezone?: string;
    notificationPreference?: User['notificationPreference'];
  },
): Promise<User | undefined> {
  const [row] = await db
    .update(users)
    .set({
      ...(input.name !== undefined ? { nameEnc: cipher.encrypt(input.name, ctx('name', id)) } : {}),
      ...(input.phone !== undefined
        ? { phoneEnc: cipher.encryptNullable(input.phone, ctx('phone', id)) }
        : {}),
      ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
      ...(input.notificationPreference !== undefined
        ? { notificationPreference: input.notificationPreference }
        : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, id))
    .returning();
  return row ? toUser(row, cipher) : undefined;
}

/** deleteUserRow deletes a user; memberships, sessions and schedule entries go with it (cascade). */
export async function deleteUserRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(users).where(eq(users.id, id));
}

/** listRotationsOf returns the rotations a user is a member of, by name, and who holds each (one query). */
export async function listRotationsOf(db: Db | Tx, userId: number) {
  return db
    .select({
      id: rotations.id,
      name: rotations.name,
      isSuspended: rotations.suspended,
      holderUserId: rotations.holderUserId,
    })
    .from(rotationMembers)
    .innerJoin(rotations, eq(rotations.id, rotationMembers.rotationId))
    .where(eq(rotationMembers.userId, userId))
    .orderBy(asc(sql`lower(${rotations.name})`), asc(rotations.id));
}

/**
 * findUserRows returns the user rows of the ids (one query): the one people loader (decision 243);
 * each caller decrypts what it shows.
 */
export async function findUserRows(db: Db | Tx, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
}

/**
 * findUsers returns the decrypted users of the ids, by id (one query at most, through
 * findUserRows): rows the caller already read in this transaction (`known`, such as a rotation's
 * members) are not read again; null and undefined ids are skipped.
 */
export async function findUsers(
  db: Db | Tx,
  cipher: FieldCipher,
  ids: readonly (number | null | undefined)[],
  known: readonly UserRow[] = [],
): Promise<Map<number, User>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  const knownById = new Map(known.map((row) => [row.id, row]));
  const rows = wanted.flatMap((id) => knownById.get(id) ?? []);
  rows.push(
    ...(await findUserRows(
      db,
      wanted.filter((id) => !knownById.has(id)),
    )),
  );
  return new Map(rows.map((row) => [row.id, toUser(row, cipher)]));
}

/** loadNames reads and decrypts only the names of the users (one query). */
export async function loadNames(
  db: Db | Tx,
  cipher: FieldCipher,
  ids: readonly (number | null | undefined)[],
): Promise<Map<number, PagePerson>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (wanted.length === 0) return new Map();
  const rows = await findUserRows(db, wanted);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        name: cipher.decrypt(r.nameEnc, { table: 'users', column: 'name', rowId: r.id }),
      },
    ]),
  );
}

/**
 * rulesOf reads a user row's own notification rules (decision 251), or null when they have none
 * (or what is stored is not rules: the preference then decides, never a broken page).
 */
export function rulesOf(row: Pick<UserRow, 'notificationRules'>): NotificationRules | null {
  const parsed = NotificationRulesSchema.safeParse(row.notificationRules);
  return parsed.success ? parsed.data : null;
}

/** setNotificationRules stores a user's own rules, or null to return them to their preference. */
export async function setNotificationRules(
  db: Db | Tx,
  id: number,
  rules: NotificationRules | null,
): Promise<void> {
  await db
    .update(users)
    .set({ notificationRules: rules, updatedAt: sql`now()` })
    .where(eq(users.id, id));
}

/** findNotificationRules reads the own rules of the users who have them, by id (one query). */
export async function findNotificationRules(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, NotificationRules>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, notificationRules: users.notificationRules })
    .from(users)
    .where(and(inArray(users.id, [...new Set(ids)]), isNotNull(users.notificationRules)));
  return new Map(
    rows.flatMap((row) => {
      const rules = rulesOf(row);
      return rules ? [[row.id, rules] as const] : [];
    }),
  );
}
