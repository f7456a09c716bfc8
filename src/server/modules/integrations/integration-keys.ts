import { eq } from 'drizzle-orm';
import type { NormalizeOptions } from '../../../shared/domain/alerts';
import { hashToken, newBearerSecret } from '../../crypto/bearer-secrets';
import type { Db, Tx } from '../../db/client';
import { integrations } from '../../db/schema';

/** An integration as stored. */
export type IntegrationRow = typeof integrations.$inferSelect;

/** generateIntegrationKey makes a new integration key (its shape: `crypto/bearer-secrets.ts`). */
export function generateIntegrationKey(): string {
  return newBearerSecret('integration-key');
}

/** hashIntegrationKey is what is stored of a key: SHA-256, hex (the key is random, not a password). */
export function hashIntegrationKey(key: string): string {
  return hashToken(key.trim().toLowerCase());
}

/** keyHintOf: the last four characters of a key, shown to tell keys apart. */
export const keyHintOf = (key: string) => key.slice(-4);

/** findIntegrationByKey: the integration a key opens, or undefined (unknown, regenerated, deleted). */
export async function findIntegrationByKey(
  db: Db | Tx,
  key: string | undefined,
): Promise<IntegrationRow | undefined> {
  if (key === undefined || key.trim() === '' || key.length > 200) return undefined;
  return findIntegrationByKeyHash(db, hashIntegrationKey(key));
}

/** findIntegrationByKeyHash: the integration whose key is stored as `keyHash`, or undefined. */
export async function findIntegrationByKeyHash(
  db: Db | Tx,
  keyHash: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await db.select().from(integrations).where(eq(integrations.keyHash, keyHash));
  return row;
}

/**
 * IntegrationKeyGone: the key a request was admitted with no longer opens its integration (it was
 * regenerated or the integration deleted since its row was read). Nothing has been written; the
 * inbound routes answer it as a wrong key.
 */
export class IntegrationKeyGone extends Error {
  constructor() {
    super('The integration key was regenerated or the integration deleted.');
    this.name = 'IntegrationKeyGone';
  }
}

/** How long this process answers a key from the row it last read (RecentIntegrations). */
export const RECENT_INTEGRATION_MS = 60_000;

/**
 * RecentIntegrations: the integration rows keys opened in this process within the last minute,
 * by key hash (decision 216). A row from here is trusted for no write: the repeat statement checks
 * the key against the stored one, and anything else reads the row again first, so a key
 * regenerated or deleted on any instance opens nothing from the next request on. What it saves is
 * the read of a busy key's row on each repeat; what may lag by up to a minute on another instance
 * is a setting read from it (the rate limit, the urgency).
 */
export class RecentIntegrations {
  private readonly rows = new Map<string, { row: IntegrationRow; readAt: number }>();

  get(keyHash: string, now: Date): IntegrationRow | undefined {
    const entry = this.rows.get(keyHash);
    if (!entry) return undefined;
    if (now.getTime() - entry.readAt < RECENT_INTEGRATION_MS) return entry.row;
    this.rows.delete(keyHash);
    return undefined;
  }

  /** used: the row's key was used at `at` (its last-used time was recorded, alert-intake.ts). */
  used(keyHash: string, at: Date): void {
    const entry = this.rows.get(keyHash);
    if (entry) entry.row = { ...entry.row, lastUsedAt: at };
  }

  remember(row: IntegrationRow, now: Date): void {
    if (this.rows.size >= 10_000) this.rows.clear();
    this.rows.set(row.keyHash, { row, readAt: now.getTime() });
  }
}

/** normalizeOptionsOf: what an integration's settings tell the alert normalizers. */
export function normalizeOptionsOf(integration: Pick<IntegrationRow, 'urgency'>): NormalizeOptions {
  return integration.urgency === 'high' || integration.urgency === 'low'
    ? { urgency: integration.urgency }
    : {};
}
