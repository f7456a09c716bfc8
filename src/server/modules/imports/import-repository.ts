import { and, desc, eq, sql } from 'drizzle-orm';
import type { RotationLayer } from '../../../shared/contracts/rotations';
import { canHoldBaton } from '../../../shared/domain/rotation';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { importLinks, imports, invitations } from '../../db/schema';
import { listPolicyRows, policyValueOf } from '../escalation-policies/escalation-policy-repository';
import { findIntegrationRow } from '../integrations/integration-repository';
import { toInvitation } from '../invitations/invitation-repository';
import { findRotationRow } from '../rotations/rotation-repository';
import { listUpcomingEntries } from '../schedules/schedule-repository';
import { listAllUsers } from '../users/user-repository';
import type { BatonRotation, BatonState, LinkKind, PlanBody } from './import-plan';
import { linkKey } from './import-plan';
import { snapshotFromJson, snapshotToJson } from './snapshot-json';
import type { SourceSnapshot } from './source-snapshot';

/** Queries of imports and their links (issue 34, decision 268). */

export type ImportRow = typeof imports.$inferSelect;

const sealCtx = (column: 'snapshot' | 'plan', rowId: number) => ({
  table: 'imports',
  column,
  rowId,
});

/** A stored import, opened. */
export interface StoredImport {
  row: ImportRow;
  snapshot: SourceSnapshot;
  plan: PlanBody;
}

const open = (cipher: FieldCipher, row: ImportRow): StoredImport => ({
  row,
  snapshot: snapshotFromJson(cipher.decrypt(row.snapshotEnc, sealCtx('snapshot', row.id))),
  plan: JSON.parse(cipher.decrypt(row.planEnc, sealCtx('plan', row.id))) as PlanBody,
});

/** insertImport stores a new plan with its snapshot, both sealed to the row. */
export async function insertImport(
  tx: Tx,
  cipher: FieldCipher,
  values: { snapshot: SourceSnapshot; plan: PlanBody; createdById: number; now: Date },
): Promise<StoredImport> {
  const [id] = await allocateIds(tx, 'imports');
  const [row] = await tx
    .insert(imports)
    .values({
      id,
      source: values.snapshot.source,
      account: values.snapshot.account,
      createdById: values.createdById,
      createdAt: values.now,
      windowFrom: values.snapshot.window.from,
      windowTo: values.snapshot.window.to,
      snapshotEnc: cipher.encrypt(snapshotToJson(values.snapshot), sealCtx('snapshot', id)),
      planEnc: cipher.encrypt(JSON.stringify(values.plan), sealCtx('plan', id)),
    })
    .returning();
  return open(cipher, row);
}

/** findImport opens one import, or undefined. */
export async function findImport(
  db: Db | Tx,
  cipher: FieldCipher,
  id: number,
): Promise<StoredImport | undefined> {
  const [row] = await db.select().from(imports).where(eq(imports.id, id));
  return row ? open(cipher, row) : undefined;
}

/** lockImport opens one import holding its row's lock, so one apply runs at a time. */
export async function lockImport(
  tx: Tx,
  cipher: FieldCipher,
  id: number,
): Promise<StoredImport | undefined> {
  const [row] = await tx.select().from(imports).where(eq(imports.id, id)).for('update');
  return row ? open(cipher, row) : undefined;
}

/**
 * lockAccount holds, until the transaction ends, the one lock of a source's account: two applies
 * of the same account (two plans made one after the other) run one after the other, so the
 * second sees the first's links and updates instead of making the objects again.
 */
export async function lockAccount(tx: Tx, source: string, account: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`import:${source}:${account}`}, 0))`,
  );
}

/** listImportRows opens the most recent imports, newest first. */
export async function listImportRows(
  db: Db | Tx,
  cipher: FieldCipher,
  limit: number,
): Promise<StoredImport[]> {
  const rows = await db.select().from(imports).orderBy(desc(imports.id)).limit(limit);
  return rows.map((row) => open(cipher, row));
}

/** markApplied stores the plan as applied (with the Baton ids and endpoints it made). */
export async function markApplied(
  tx: Tx,
  cipher: FieldCipher,
  id: number,
  plan: PlanBody,
  at: Date,
): Promise<ImportRow> {
  const [row] = await tx
    .update(imports)
    .set({
      status: 'applied',
      appliedAt: at,
      planEnc: cipher.encrypt(JSON.stringify(plan), sealCtx('plan', id)),
    })
    .where(eq(imports.id, id))
    .returning();
  return row;
}

/** listLinks reads what earlier imports of this source and account made: key → Baton id. */
export async function listLinks(
  db: Db | Tx,
  source: string,
  account: string,
): Promise<Map<string, number>> {
  const rows = await db
    .select()
    .from(importLinks)
    .where(and(eq(importLinks.source, source), eq(importLinks.account, account)));
  return new Map(rows.map((r) => [linkKey(r.kind as LinkKind, r.sourceId), r.batonId]));
}

/** saveLink records (or moves) what a source object became. */
export async function saveLink(
  tx: Tx,
  link: { source: string; account: string; kind: LinkKind; sourceId: string; batonId: number },
  importId: number,
  now: Date,
): Promise<void> {
  await tx
    .insert(importLinks)
    .values({ ...link, importId, updatedAt: now })
    .onConflictDoUpdate({
      target: [importLinks.source, importLinks.account, importLinks.kind, importLinks.sourceId],
      set: { batonId: link.batonId, importId, updatedAt: now },
    });
}

/** pendingInvitationEmails lists the lower-cased addresses of invitations still pending. */
async function pendingInvitationEmails(db: Db | Tx, cipher: FieldCipher, now: Date) {
  const rows = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.status, 'pending'), sql`${invitations.expiresAt} > ${now}`));
  return new Set(rows.map((r) => toInvitation(r, cipher, now).email.toLowerCase()));
}

async function rotationOf(db: Db | Tx, id: number, now: Date): Promise<BatonRotation | null> {
  const row = await findRotationRow(db, id);
  if (!row) return null;
  const type = row.type as BatonRotation['type'];
  const far = new Date(now.getTime() + 400 * 86_400_000);
  const entries =
    type === 'scheduled'
      ? (await listUpcomingEntries(db, now, far, id)).map((e) => ({
          id: e.id,
          userId: e.userId,
          start: new Date(Math.max(e.startAt.getTime(), now.getTime())),
          end: e.endAt,
        }))
      : [];
  return {
    id,
    name: row.name,
    type,
    timeZone: row.timeZone,
    layers: (row.layers as RotationLayer[] | null) ?? null,
    entries,
  };
}

/**
 * loadBatonState reads what a plan is made against: Baton's people, pending invitations, and the
 * objects earlier imports of this source and account made (a link whose object is gone is left
 * out, so the object is made again).
 */
export async function loadBatonState(
  db: Db | Tx,
  cipher: FieldCipher,
  companyDomain: string,
  snapshot: Pick<SourceSnapshot, 'source' | 'account'>,
  now: Date,
): Promise<BatonState> {
  const people = (await listAllUsers(db, cipher)).map((u) => ({
    id: u.id,
    name: u.name,
    email: u.email,
    canHold: canHoldBaton(u.roles),
  }));
  const allLinks = await listLinks(db, snapshot.source, snapshot.account);
  const links = new Map<string, number>();
  const rotations = new Map<number, BatonRotation>();
  const integrations = new Map<number, { id: number; name: string; source: string }>();
  const userIds = new Set(people.map((p) => p.id));
  const policyIds = [...allLinks].filter(([k]) => k.startsWith('policy:')).map(([, id]) => id);
  const policies = new Map(
    (await listPolicyRows(db, policyIds)).map((row) => {
      const value = policyValueOf(row);
      return [row.id, { id: row.id, ...value }];
    }),
  );
  for (const [key, id] of allLinks) {
    const kind = key.slice(0, key.indexOf(':')) as LinkKind;
    let exists = true;
    if (kind === 'person') exists = userIds.has(id);
    if (kind === 'policy') exists = policies.has(id);
    if (kind === 'rotation') {
      const rotation = await rotationOf(db, id, now);
      if (rotation) rotations.set(id, rotation);
      exists = rotation !== null;
    }
    if (kind === 'integration') {
      const found = await findIntegrationRow(db, id);
      if (found)
        integrations.set(id, {
          id,
          name: found.integration.name,
          source: found.integration.source,
        });
      exists = found !== undefined;
    }
    if (exists) links.set(key, id);
  }
  return {
    now,
    companyDomain,
    people,
    pendingInvitations: await pendingInvitationEmails(db, cipher, now),
    links,
    rotations,
    policies,
    integrations,
  };
}
