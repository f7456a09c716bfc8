import type { ReorderMembersInput, Rotation } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { reorderPayload } from '../lib/rotation-view';
import { rotationQueryKey } from './get-rotation';
import { refreshRotationViews } from './refresh';

export type ReorderMembersVariables = {
  rotationId: number;
  /** every member id, in the new order */
  memberIds: number[];
};

/**
 * useReorderMembers sends the complete new order (PATCH .../members/reorder). The cached
 * rotation shows the new order at once and goes back if the server refuses.
 */
export function useReorderMembers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId, memberIds }: ReorderMembersVariables) => {
      const body: ReorderMembersInput = { members: reorderPayload(memberIds) };
      return apiRequest<unknown>('PATCH', `/api/rotations/${rotationId}/members/reorder`, body);
    },
    onMutate: async ({ rotationId, memberIds }) => {
      const key = rotationQueryKey(rotationId);
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const previous = queryClient.getQueryData<Rotation>(key);
      if (previous) {
        const position = new Map(memberIds.map((id, order) => [id, order]));
        queryClient.setQueryData<Rotation>(key, {
          ...previous,
          members: previous.members.map((m) => ({ ...m, order: position.get(m.id) ?? m.order })),
        });
      }
      return { previous };
    },
    onSuccess: () => notifySuccess('Rotation order updated', 'The new order has been saved.'),
    onError: (error, { rotationId }, context) => {
      if (context?.previous)
        queryClient.setQueryData(rotationQueryKey(rotationId), context.previous);
      notifyError(
        'Error updating order',
        error,
        'There was an error updating the order. Please try again.',
      );
    },
    onSettled: () => refreshRotationViews(queryClient),
  });
}
