import type { DestinationTestResult } from '@shared/contracts/destinations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { deliveriesQueryKey } from './keys';

/** useSendTestEvent queues a test event through the outbox; the delivery log shows it go. */
export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest<DestinationTestResult>('POST', `/api/destinations/${id}/test`),
    onSuccess: async (_result, id) => {
      notifySuccess('Test event queued', 'The delivery log shows when it is delivered.');
      await queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(id) });
    },
    onError: (error) =>
      notifyError('Error sending test event', error, 'The test event could not be queued.'),
  });
}
