import { and, isNull, lte, sql } from 'drizzle-orm';
import {
  DESTINATION_KIND_LABELS,
  type DestinationKind,
} from '../../../shared/contracts/destinations';
import { effectiveRoles, hasRole } from '../../../shared/domain/roles';
import type { Db } from '../../db/client';
import { destinations } from '../../db/schema';
import { findDestinationRow } from '../destinations/destination-repository';
import { listMemberRoles } from '../members/member-reads';
import { findUsers, listUsersWithRoles } from '../users/user-repository';
import { announce } from './announce';
import type { NotifyDeps } from './notify';
import { toldAs } from './person-events';

/**
 * A destination failing for an hour (decision 221): its owners are told once per run of failures
 * (`failing_told_at`, cleared with `failing_since` by the next delivery). The owners are the
 * managers of its rotation (its creator and the members who are managers), or, for a policy's or
 * integration's destination without one, the administrators.
 */

export const FAILING_NOTICE_AFTER_MS = 60 * 60 * 1000;

/**
 * tellFailingOwners tells the owners of each destination (or only `destinationId`) failing for an
 * hour and not told yet. The conditional update claims each one, so two instances tell once.
 */
export async function tellFailingOwners(
  db: Db,
  deps: NotifyDeps,
  now: Date,
  destinationId?: number,
): Promise<number> {
  const since = new Date(now.getTime() - FAILING_NOTICE_AFTER_MS);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(destinations)
      .set({ failingToldAt: now })
      .where(
        and(
          lte(destinations.failingSince, since),
          isNull(destinations.failingToldAt),
          destinationId === undefined ? undefined : sql`${destinations.id} = ${destinationId}`,
        ),
      )
      .returning({ id: destinations.id });
    let told = 0;
    for (const { id } of claimed) {
      const row = await findDestinationRow(tx, id);
      if (!row) continue;
      const d = row.destination;
      let ownerIds: number[] = [];
      if (row.rotation) {
        const members = await listMemberRoles(tx, [row.rotation.id]);
        ownerIds = [
          ...(row.rotation.createdById === null ? [] : [row.rotation.createdById]),
          ...members
            .filter((m) => hasRole(effectiveRoles(m.roles, m.role), 'manager'))
            .map((m) => m.userId),
        ];
      }
      const owners =
        ownerIds.length > 0
          ? [...(await findUsers(tx, deps.cipher, ownerIds)).values()]
          : await listUsersWithRoles(tx, deps.cipher, ['admin']);
      told += await announce(tx, deps, now, {
        type: 'destination.failing',
        key: `destination:${id}:failing:${(d.failingSince ?? now).toISOString()}`,
        at: now,
        told: toldAs('to', owners),
        kindLabel: DESTINATION_KIND_LABELS[d.kind as DestinationKind],
        urlHint: d.urlHint,
        targetName: row.rotation?.name ?? row.policy?.name ?? row.integration?.name ?? '',
        rotationId: row.rotation?.id ?? null,
        failingSince: d.failingSince ?? now,
      });
    }
    return told;
  });
}
