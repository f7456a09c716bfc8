import type { z } from 'zod';
import {
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenInputSchema,
  type ApiTokenList,
  type ApiTokenScope,
  type CreatedApiToken,
} from '../../../shared/contracts/api-tokens';
import type { User } from '../../../shared/contracts/users';
import {
  API_TOKEN_MESSAGES,
  isLastUseStale,
  isTokenExpired,
  tokenExpiresAt,
} from '../../../shared/domain/api-tokens';
import { isAdmin } from '../../../shared/domain/roles';
import type { Clock } from '../../core/clock';
import { hashToken, newBearerSecret } from '../../crypto/bearer-secrets';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import { recordAdminEvent } from '../audit/people-events';
import { toUser, type UserRow } from '../users/user-repository';
import {
  type ApiTokenRow,
  deleteApiTokenRow,
  findApiTokenByHash,
  insertApiTokenRow,
  listApiTokenRows,
  lockApiTokenRow,
  touchApiToken,
} from './api-token-repository';

/**
 * Personal API tokens (issue 20, decision 223): a person makes them in their profile, each with a
 * name, a scope and an expiry; the token is answered once and only its SHA-256 is kept. A token
 * carries its person's permissions, narrowed by its scope, on every `/api` route.
 */

export interface ApiTokenDeps {
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
}

type ApiTokenCreate = z.output<typeof ApiTokenInputSchema>;

function present(token: ApiTokenRow, owner: { id: number; name: string }): ApiToken {
  return {
    id: token.id,
    name: token.name,
    scope: token.scope as ApiTokenScope,
    tokenHint: token.tokenHint,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    expiresAt: token.expiresAt.toISOString(),
    owner,
  };
}

/**
 * createApiToken makes a token for the actor, in one transaction with its audit event, and
 * answers it with the token itself: the only time anyone sees it.
 */
export async function createApiToken(
  deps: ApiTokenDeps,
  actor: User,
  input: ApiTokenCreate,
): Promise<CreatedApiToken> {
  const token = newBearerSecret('api-token');
  const row = await deps.database.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const created = await insertApiTokenRow(tx, {
      userId: actor.id,
      name: input.name,
      scope: input.scope,
      tokenHash: hashToken(token),
      tokenHint: token.slice(-4),
      createdAt: now,
      expiresAt: tokenExpiresAt(now, input.expiresInDays),
    });
    await recordAdminEvent(tx, {
      actorUserId: actor.id,
      action: 'api_token.created',
      targetType: 'user',
      targetId: actor.id,
      details: tokenDetails(created),
      at: now,
    });
    return created;
  });
  return { ...present(row, { id: actor.id, name: actor.name }), token };
}

/** What the audit trail keeps of a token: never the token or its hash. */
function tokenDetails(token: ApiTokenRow): Record<string, unknown> {
  return {
    tokenId: token.id,
    name: token.name,
    scope: token.scope,
    expiresAt: token.expiresAt.toISOString(),
  };
}

/**
 * listApiTokens returns the actor's own tokens, or with `everyone` (administrators) every
 * person's, newest first, in one query; expired tokens are listed (marked by their expiry) until
 * revoked.
 */
export async function listApiTokens(
  deps: ApiTokenDeps,
  actor: User,
  everyone = false,
): Promise<ApiTokenList> {
  const rows = await listApiTokenRows(deps.database.db, everyone ? undefined : actor.id);
  return {
    tokens: rows.map(({ token, owner }) =>
      present(token, { id: owner.id, name: toUser(owner, deps.cipher).name }),
    ),
  };
}

/**
 * revokeApiToken deletes a token, in one transaction with its audit event: the actor's own, or
 * anyone's for an administrator. Another person's token answers 404 to anyone else, as a token
 * that does not exist does, so ids tell nothing.
 */
export async function revokeApiToken(deps: ApiTokenDeps, actor: User, id: number): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const row = await lockApiTokenRow(tx, id);
    if (!row || (row.userId !== actor.id && !isAdmin(actor.roles))) {
      throw notFound(API_TOKEN_MESSAGES.notFound);
    }
    await deleteApiTokenRow(tx, id);
    await recordAdminEvent(tx, {
      actorUserId: actor.id,
      action: 'api_token.revoked',
      targetType: 'user',
      targetId: row.userId,
      details: tokenDetails(row),
      at: deps.clock.now(),
    });
  });
}

/** What a bearer token resolves to. */
export type ResolvedApiToken =
  | { status: 'valid'; token: ApiTokenRow; user: UserRow; tokenHash: string; snapshot: string }
  | { status: 'expired'; expiresAt: Date }
  | { status: 'invalid' };

/**
 * resolveApiToken reads the token a request carries, in one indexed query on every request (no
 * cache: a revocation on any instance is seen by the next request everywhere), and records its
 * use at most once a minute. Unknown, revoked (deleted) and malformed tokens are `invalid`; a
 * token of a deleted person went with them.
 */
export async function resolveApiToken(
  deps: Pick<ApiTokenDeps, 'database' | 'clock'>,
  token: string,
): Promise<ResolvedApiToken> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 100) return { status: 'invalid' };
  const tokenHash = hashToken(token);
  const found = await findApiTokenByHash(deps.database.db, tokenHash);
  if (!found) return { status: 'invalid' };
  const now = deps.clock.now();
  if (isTokenExpired(found.token.expiresAt, now)) {
    return { status: 'expired', expiresAt: found.token.expiresAt };
  }
  if (isLastUseStale(found.token.lastUsedAt, now)) {
    await touchApiToken(deps.database.db, found.token.id, now);
  }
  return {
    status: 'valid',
    token: found.token,
    user: found.user,
    tokenHash,
    snapshot: found.snapshot,
  };
}
