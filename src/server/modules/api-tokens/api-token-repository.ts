import { desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { apiTokens, users } from '../../db/schema';
import type { UserRow } from '../users/user-repository';

/** The queries of personal API tokens (issue 20, decision 223), on the module's own table. */

export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type NewApiTokenRow = typeof apiTokens.$inferInsert;

/** insertApiTokenRow stores a new token (its hash, never the token) and returns the row. */
export async function insertApiTokenRow(tx: Tx, row: NewApiTokenRow): Promise<ApiTokenRow> {
  const [created] = await tx.insert(apiTokens).values(row).returning();
  return created;
}

/** listApiTokenRows returns a person's tokens, or everyone's when `userId` is undefined, newest first. */
export async function listApiTokenRows(
  db: Db | Tx,
  userId: number | undefined,
): Promise<{ token: ApiTokenRow; owner: UserRow }[]> {
  return db
    .select({ token: apiTokens, owner: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(userId === undefined ? undefined : eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** lockApiTokenRow returns a token's row locked for the transaction, or undefined. */
export async function lockApiTokenRow(tx: Tx, id: number): Promise<ApiTokenRow | undefined> {
  const [row] = await tx.select().from(apiTokens).where(eq(apiTokens.id, id)).for('update');
  return row;
}

/** deleteApiTokenRow deletes a token: revoked, it opens nothing from the next request on. */
export async function deleteApiTokenRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(apiTokens).where(eq(apiTokens.id, id));
}

/**
 * The token read runs on every request that carries one: prepared once per database (on
 * PostgreSQL a named statement per connection), one lookup by the unique hash index joined to
 * the person, with the snapshot the read cache keys on (decision 140).
 */
function prepareTokenLookup(db: Db) {
  return db
    .select({
      token: apiTokens,
      user: users,
      snapshot: sql<string>`pg_current_snapshot()::text`,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('baton_api_token_lookup');
}

const tokenLookups = new WeakMap<Db, ReturnType<typeof prepareTokenLookup>>();

/** findApiTokenByHash returns the token stored as `tokenHash` with its person, or undefined. */
export async function findApiTokenByHash(
  db: Db,
  tokenHash: string,
): Promise<{ token: ApiTokenRow; user: UserRow; snapshot: string } | undefined> {
  let lookup = tokenLookups.get(db);
  if (!lookup) {
    lookup = prepareTokenLookup(db);
    tokenLookups.set(db, lookup);
  }
  const [row] = await lookup.execute({ tokenHash });
  return row;
}

/** touchApiToken records a use at `now` (callers write it at most once a minute). */
export async function touchApiToken(db: Db, id: number, now: Date): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, id));
}
