import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { SetupFacts } from '../../../shared/domain/setup-checklist';
import type { Db, Tx } from '../../db/client';
import {
  escalationPolicies,
  integrations,
  invitations,
  rotationMembers,
  rotations,
  setupChecklists,
  users,
} from '../../db/schema';

/** The setup checklist's queries (decision 258): counts of the install's rows, and the reader's marks. */

/**
 * readSetupFacts counts what the checklist ticks from, for the administrator `userId`, with
 * whether they dismissed it (their marks are one row).
 */
export async function readSetupFacts(
  db: Db | Tx,
  userId: number,
  now: Date,
): Promise<{ facts: SetupFacts; dismissed: boolean }> {
  const [people] = await db
    .select({
      all: count(),
      // The phone is sealed, so "has one" is only whether the column holds an envelope.
      ready: sql<number>`count(*) filter (where ${users.phoneEnc} is not null and ${users.timezone} <> 'UTC')`,
    })
    .from(users);
  const [open] = await db
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.status, 'pending'), gt(invitations.expiresAt, now)));
  const [firstRotation] = await db
    .select({ id: rotations.id, escalationPolicyId: rotations.escalationPolicyId })
    .from(rotations)
    .where(
      sql`exists (select 1 from ${rotationMembers} where ${rotationMembers.rotationId} = ${rotations.id})`,
    )
    .orderBy(asc(rotations.id))
    .limit(1);
  const policiesInUse = await db
    .selectDistinct({
      id: escalationPolicies.id,
      repeat: escalationPolicies.repeat,
      steps: escalationPolicies.steps,
    })
    .from(escalationPolicies)
    .innerJoin(rotations, eq(rotations.escalationPolicyId, escalationPolicies.id));
  const [wired] = await db.select({ n: count() }).from(integrations);
  const [mine] = await db
    .select({ testPageAt: setupChecklists.testPageAt, dismissedAt: setupChecklists.dismissedAt })
    .from(setupChecklists)
    .where(eq(setupChecklists.userId, userId));
  return {
    facts: {
      people: Number(people?.all ?? 0),
      peopleReady: Number(people?.ready ?? 0),
      openInvitations: Number(open?.n ?? 0),
      firstRotation: firstRotation ?? null,
      policiesInUse,
      integrations: Number(wired?.n ?? 0),
      testPageAt: mine?.testPageAt ?? null,
    },
    dismissed: Boolean(mine?.dismissedAt),
  };
}

/** markSetup records when the administrator dismissed the checklist, or a test page reached them. */
export async function markSetup(
  tx: Tx,
  userId: number,
  mark: 'dismissedAt' | 'testPageAt',
  at: Date,
): Promise<void> {
  await tx
    .insert(setupChecklists)
    .values({ userId, [mark]: at })
    .onConflictDoUpdate({
      target: setupChecklists.userId,
      set: { [mark]: at },
    });
}
