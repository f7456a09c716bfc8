import { randomBytes } from 'node:crypto';
import type { DestinationTestResult } from '../../../shared/contracts/destinations';
import type { User } from '../../../shared/contracts/users';
import { type DestinationDeps, inManagedDestination } from '../destinations/destination-service';
import { announce } from './announce';

/**
 * "Send test event" (decision 221): a message to one destination, announced like every other
 * event (decision 241), so the test goes through the same renderer, body and outbox row.
 */

/** sendTestEvent queues a test message to destination `id` through the outbox. */
export async function sendTestEvent(
  deps: DestinationDeps,
  actor: User,
  id: number,
): Promise<DestinationTestResult> {
  return inManagedDestination(deps, actor, id, async (tx, _row, now) => {
    // Each test is its own event: the key carries a fresh id.
    const [deliveryId] = await announce(tx, deps, now, {
      type: 'test',
      key: `test:${randomBytes(8).toString('hex')}`,
      at: now,
      destinationId: id,
      actorName: actor.name,
    });
    return { deliveryId };
  });
}
