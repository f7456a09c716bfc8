import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { NormalizeOptions } from '../../../shared/domain/alerts';
import type { Db, Tx } from '../../db/client';
import { integrations } from '../../db/schema';

/** An integration as stored. */
export type IntegrationRow = typeof integrations.$inferSelect;

/**
 * generateIntegrationKey makes a new integration key: 128 random bits as 32 lowercase hex
 * characters, the shape of a PagerDuty integration key, so tools that check a routing key's form
 * take it, and so it can stand as an email address's local part (`<key>@…`) in any case.
 */
export function generateIntegrationKey(): string {
  return randomBytes(16).toString('hex');
}

/** hashIntegrationKey is what is stored of a key: SHA-256, hex (the key is random, not a password). */
export function hashIntegrationKey(key: string): string {
  return createHash('sha256').update(key.trim().toLowerCase()).digest('hex');
}

/** keyHintOf: the last four characters of a key, shown to tell keys apart. */
export const keyHintOf = (key: string) => key.slice(-4);

/** findIntegrationByKey: the integration a key opens, or undefined (unknown, regenerated, deleted). */
export async function findIntegrationByKey(
  db: Db | Tx,
  key: string | undefined,
): Promise<IntegrationRow | undefined> {
  if (key === undefined || key.trim() === '' || key.length > 200) return undefined;
  const [row] = await db
    .select()
    .from(integrations)
    .where(eq(integrations.keyHash, hashIntegrationKey(key)));
  return row;
}

/** normalizeOptionsOf: what an integration's settings tell the alert normalizers. */
export function normalizeOptionsOf(integration: Pick<IntegrationRow, 'urgency'>): NormalizeOptions {
  return integration.urgency === 'high' || integration.urgency === 'low'
    ? { urgency: integration.urgency }
    : {};
}
