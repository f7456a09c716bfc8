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
import { listUsersWithRoles } from '../users/user-repository';
import { composeMessage, formatWhen } from './message-layout';
import { loadRecipients, type NotifyDeps, sendNotices } from './notify';

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
          ? [...(await loadRecipients(tx, deps.cipher, ownerIds)).values()]
          : await listUsersWithRoles(tx, deps.cipher, ['admin']);
      const kind = DESTINATION_KIND_LABELS[d.kind as DestinationKind];
      const targetName = row.rotation?.name ?? row.policy?.name ?? row.integration?.name ?? '';
      const failingSince = d.failingSince ?? now;
      const rotationRef = { id: row.rotation?.id ?? 0, name: targetName };
      told += await sendNotices(
        tx,
        deps,
        now,
        rotationRef,
        owners.map((owner) => ({
          eventKey: `destination:${id}:failing:${failingSince.toISOString()}`,
          kind: 'destination.failing',
          recipient: owner,
          message: (c) =>
            composeMessage(
              {
                subject: `${kind} destination failing for ${targetName}`,
                lead: `Baton has not been able to post to the ${kind} destination ${d.urlHint} of ${targetName} since ${formatWhen(failingSince, c.timeZone)}. Its messages are retried; check the URL or the receiving service.`,
                details: [
                  ['Destination', `${kind} ${d.urlHint}`],
                  ['Failing since', formatWhen(failingSince, c.timeZone)],
                ],
                action: {
                  label: 'Open the delivery log in Baton',
                  url: row.rotation
                    ? `${c.baseUrl}/rotations/${row.rotation.id}`
                    : `${c.baseUrl}/settings`,
                },
                sms: `Baton: the ${kind} destination of ${targetName} has failed for an hour.`,
                timeZone: c.timeZone,
              },
              c.baseUrl,
            ),
        })),
      );
    }
    return told;
  });
}
