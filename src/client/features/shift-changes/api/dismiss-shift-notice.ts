import type { ShiftNotice } from '@shared/contracts/shift-changes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import { shiftNoticesQueryKey } from './get-shift-notices';

/** useDismissShiftNotice dismisses one notice; it leaves the list at once and comes back on failure. */
export function useDismissShiftNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<void>('POST', `/api/user/shift-notices/${id}/dismiss`),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: shiftNoticesQueryKey });
      const previous = queryClient.getQueryData<ShiftNotice[]>(shiftNoticesQueryKey);
      queryClient.setQueryData<ShiftNotice[]>(shiftNoticesQueryKey, (list) =>
        list?.filter((n) => n.id !== id),
      );
      return { previous };
    },
    onError: (error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(shiftNoticesQueryKey, context.previous);
      notifyError(
        'Error dismissing notice',
        error,
        'There was an error dismissing the notice. Please try again.',
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: shiftNoticesQueryKey }),
  });
}
