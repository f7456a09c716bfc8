/*
 * The query keys of the destination reads. Every key starts with '/api/destinations', so
 * invalidating that prefix after a change reads the lists and the delivery logs again.
 */

/** What destinations belong to: a rotation, an escalation policy or an integration; or a kind. */
export type DestinationScope =
  | { rotationId: number }
  | { escalationPolicyId: number }
  | { integrationId: number }
  | { kind: string };

export const destinationsQueryKey = ['/api/destinations'] as const;

/** scopeQuery returns the list's query string for a scope: 'rotationId=4'. */
export function scopeQuery(scope: DestinationScope): string {
  const [name, value] = Object.entries(scope)[0];
  return `${name}=${encodeURIComponent(String(value))}`;
}

export const destinationListQueryKey = (scope: DestinationScope) =>
  ['/api/destinations', 'list', scopeQuery(scope)] as const;

export const deliveriesQueryKey = (destinationId: number) =>
  ['/api/destinations', destinationId, 'deliveries'] as const;
