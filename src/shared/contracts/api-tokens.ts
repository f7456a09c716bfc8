import { z } from 'zod';
import { text } from './primitives';

/**
 * Contracts of personal API tokens (issue 20, decision 223): `POST`, `GET /api/user/tokens`,
 * `DELETE /api/user/tokens/{id}`, and the administrators' list of everyone's tokens
 * (`GET /api/admin/api-tokens`).
 */

/** What a token may do: `read` only reads (GET, HEAD), `write` does what its person may. */
export const API_TOKEN_SCOPES = ['read', 'write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Read',
  write: 'Read and write',
};

/** Every token begins with this, so it is recognisable in a script or a secret scanner. */
export const API_TOKEN_PREFIX = 'baton_';
/** A token lasts this many days unless its person chooses otherwise, and at most a year. */
export const API_TOKEN_DEFAULT_DAYS = 90;
export const API_TOKEN_MAX_DAYS = 365;
export const API_TOKEN_NAME_MAX = 100;

/** ApiTokenInputSchema is the body of POST /api/user/tokens. */
export const ApiTokenInputSchema = z.object({
  name: text({ label: 'Name', trim: true, error: 'Name is required' })
    .min(1, 'Name is required')
    .max(API_TOKEN_NAME_MAX, `Name must be at most ${API_TOKEN_NAME_MAX} characters`),
  scope: z.enum(API_TOKEN_SCOPES, { error: 'Scope must be read or write' }),
  expiresInDays: z
    .number({ error: 'Expiry must be a number of days' })
    .int('Expiry must be a whole number of days')
    .min(1, 'Expiry must be at least 1 day')
    .max(API_TOKEN_MAX_DAYS, `Expiry must be at most ${API_TOKEN_MAX_DAYS} days (one year)`)
    .default(API_TOKEN_DEFAULT_DAYS),
});
export type ApiTokenInput = z.input<typeof ApiTokenInputSchema>;

/** ApiTokenSchema is a token as its person and administrators see it: never the token itself. */
export const ApiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  /** the token's last four characters, to tell tokens apart */
  tokenHint: z.string(),
  /** ISO */
  createdAt: z.string(),
  /** ISO; null until first used (recorded at most once a minute) */
  lastUsedAt: z.string().nullable(),
  /** ISO */
  expiresAt: z.string(),
  /** the person whose permissions it carries */
  owner: z.object({ id: z.number().int(), name: z.string() }),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** CreatedApiTokenSchema is the answer of POST /api/user/tokens: the only time `token` is shown. */
export const CreatedApiTokenSchema = ApiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

/** ApiTokenListSchema is GET /api/user/tokens (one's own) and GET /api/admin/api-tokens (all). */
export const ApiTokenListSchema = z.object({ tokens: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;
