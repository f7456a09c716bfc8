import { eq } from 'drizzle-orm';
import type { EscalationStep } from '../../shared/contracts/escalation-policies';
import {
  INTEGRATION_SOURCE_DEFAULT,
  type IntegrationSource,
} from '../../shared/contracts/integrations';
import type { Role } from '../../shared/domain/roles';
import { nextHandoffAt } from '../../shared/domain/shifts';
import type { FieldCipher } from '../crypto/field-crypto';
import type { Db, Tx } from '../db/client';
import { allocateIds } from '../db/ids';
import { handoffs, integrations, rotationMembers, rotations } from '../db/schema';
import { insertPolicyRow } from '../modules/escalation-policies/escalation-policy-repository';
import {
  generateIntegrationKey,
  hashIntegrationKey,
  type IntegrationRow,
  keyHintOf,
} from '../modules/integrations/integration-keys';
import { insertDefaultPolicies } from '../modules/rotations/rotation-repository';
import { insertUsers, type NewUser } from '../modules/users/user-repository';

/**
 * Factories build plain objects (build*) and insert rows (insert*). Tests and the demo seed share
 * them, so what tests exercise is what a demo shows.
 */
let sequence = 0;

/** buildUser returns a new-user object with unique defaults, overridden by `overrides`. */
function buildUser(overrides: Partial<NewUser> = {}, domain = 'example.com'): NewUser {
  sequence += 1;
  const n = `${Date.now().toString(36)}${sequence}`;
  return { name: `Test User ${n}`, email: `user.${n}@${domain}`, roles: ['on-call'], ...overrides };
}

/** insertUser creates one user. */
export async function insertUser(
  db: Db | Tx,
  cipher: FieldCipher,
  overrides: Partial<NewUser> & { roles?: Role[] } = {},
  domain?: string,
) {
  const [user] = await insertUsers(db, cipher, [buildUser(overrides, domain)]);
  return user;
}

export interface RotationSeed {
  name?: string;
  description?: string | null;
  cadence?: 'daily' | 'weekly';
  type?: 'fixed' | 'scheduled';
  suspended?: boolean;
  timeZone?: string;
  handoffTime?: string;
  handoffWeekday?: number;
  memberIds?: number[];
  holderId?: number | null;
  holderSince?: Date;
  createdById?: number | null;
  now?: Date;
}

/** insertRotation creates a rotation with members in the given order and an optional holder. */
export async function insertRotation(db: Db | Tx, seed: RotationSeed = {}) {
  sequence += 1;
  const now = seed.now ?? new Date();
  const pattern = {
    cadence: seed.cadence ?? 'weekly',
    timeZone: seed.timeZone ?? 'UTC',
    handoffTime: seed.handoffTime ?? '09:00',
    handoffWeekday: seed.handoffWeekday ?? 1,
  } as const;
  // Every rotation has its own default escalation policy (decision 202), which names it.
  const [id] = await allocateIds(db, 'rotations');
  const name = seed.name ?? `Rotation ${sequence}`;
  const policies = await insertDefaultPolicies(db, [{ id, name }], seed.createdById ?? null, now);
  const [rotation] = await db
    .insert(rotations)
    .values({
      id,
      escalationPolicyId: policies.get(id) as number,
      name,
      description: seed.description ?? null,
      type: seed.type ?? 'fixed',
      suspended: seed.suspended ?? false,
      ...pattern,
      nextHandoffAt: seed.suspended ? null : nextHandoffAt(pattern, now),
      createdById: seed.createdById ?? null,
    })
    .returning();
  const memberIds = seed.memberIds ?? [];
  if (memberIds.length > 0) {
    await db
      .insert(rotationMembers)
      .values(memberIds.map((userId, order) => ({ rotationId: rotation.id, userId, order })));
  }
  if (seed.holderId) {
    const [updated] = await db
      .update(rotations)
      .set({ holderUserId: seed.holderId, holderSince: seed.holderSince ?? now })
      .where(eq(rotations.id, rotation.id))
      .returning();
    return updated;
  }
  return rotation;
}

export interface HandoffSeed {
  rotationId: number;
  fromUserId?: number | null;
  toUserId?: number | null;
  status?: string;
  kind?: string;
  notes?: string | null;
  occurredAt?: Date;
  acknowledgedAt?: Date | null;
}

/** insertHandoffs records handoff history rows. */
export async function insertHandoffs(db: Db | Tx, seeds: HandoffSeed[]) {
  if (seeds.length === 0) return [];
  return db
    .insert(handoffs)
    .values(
      seeds.map((h) => ({
        rotationId: h.rotationId,
        fromUserId: h.fromUserId ?? null,
        toUserId: h.toUserId ?? null,
        status: h.status ?? 'success',
        kind: h.kind ?? 'pass',
        notes: h.notes ?? null,
        occurredAt: h.occurredAt ?? new Date(),
        acknowledgedAt: h.acknowledgedAt ?? null,
      })),
    )
    .returning();
}

export interface IntegrationSeed {
  name?: string;
  /** the rotation its incidents follow (else `escalationPolicyId`) */
  rotationId?: number;
  escalationPolicyId?: number;
  /** the tool it is for (default generic, as the API's) */
  source?: IntegrationSource;
  grouping?: 'group' | 'fingerprint';
  /** how email becomes incidents: one per subject (default) or each message its own */
  emailDedup?: 'subject' | 'message';
  urgency?: 'severity' | 'high' | 'low';
  stormLimit?: number;
  rateLimit?: number;
  /** Grafana's signing secret, sealed to the row as the integrations route seals it */
  signingSecret?: string;
  /** the key (default: a new one) */
  key?: string;
  createdById?: number | null;
  now?: Date;
}

/**
 * insertIntegration creates an integration as POST /api/integrations does (id first, key hashed,
 * signing secret sealed to the row) and answers it with its key.
 */
export async function insertIntegration(
  db: Db | Tx,
  cipher: FieldCipher,
  seed: IntegrationSeed,
): Promise<{ integration: IntegrationRow; key: string }> {
  sequence += 1;
  const key = seed.key ?? generateIntegrationKey();
  const [id] = await allocateIds(db, 'integrations');
  const [integration] = await db
    .insert(integrations)
    .values({
      id,
      name: seed.name ?? `Integration ${sequence}`,
      rotationId: seed.rotationId ?? null,
      escalationPolicyId: seed.rotationId === undefined ? (seed.escalationPolicyId ?? null) : null,
      keyHash: hashIntegrationKey(key),
      keyHint: keyHintOf(key),
      source: seed.source ?? INTEGRATION_SOURCE_DEFAULT,
      grouping: seed.grouping ?? 'group',
      emailDedup: seed.emailDedup ?? 'subject',
      urgency: seed.urgency ?? 'severity',
      stormLimit: seed.stormLimit ?? 20,
      rateLimit: seed.rateLimit ?? 50,
      signingSecretEnc: cipher.encryptNullable(seed.signingSecret, {
        table: 'integrations',
        column: 'signing_secret',
        rowId: id,
      }),
      createdById: seed.createdById ?? null,
      createdAt: seed.now ?? new Date(),
    })
    .returning();
  return { integration, key };
}

/** stepsReaching: a policy's steps that reach each person in turn, `delayMinutes` apart. */
export const stepsReaching = (people: readonly { id: number }[], delayMinutes = 1) =>
  people.map((p) => ({
    delayMinutes,
    targets: [{ type: 'user' as const, id: p.id }],
    assignment: 'everyone' as const,
    activeHours: null,
  }));

/**
 * followNewPolicy stores a policy of `steps` (no repeat) and makes the rotation follow it; answers
 * the policy's id.
 */
export async function followNewPolicy(
  db: Db,
  rotationId: number,
  steps: EscalationStep[],
  options: { name?: string; createdById: number | null; now: Date },
): Promise<number> {
  const policy = await db.transaction((tx) =>
    insertPolicyRow(
      tx,
      { name: options.name ?? `Policy of rotation ${rotationId}`, repeat: 0, steps },
      options.createdById,
      options.now,
    ),
  );
  await db
    .update(rotations)
    .set({ escalationPolicyId: policy.id })
    .where(eq(rotations.id, rotationId));
  return policy.id;
}
