import type { DestinationDeliveryList } from '@shared/contracts/destinations';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { deliveriesQueryKey } from './keys';

/** useDeliveries reads a destination's delivery log, newest first, while it is shown. */
export function useDeliveries(destinationId: number) {
  return useQuery({
    queryKey: deliveriesQueryKey(destinationId),
    queryFn: ({ signal }) =>
      apiRequest<DestinationDeliveryList>(
        'GET',
        `/api/destinations/${destinationId}/deliveries`,
        undefined,
        { signal },
      ),
    // The outbox delivers within seconds: follow a test event as it goes out.
    refetchInterval: 3_000,
  });
}
