import type { CreateRotationInput, Rotation } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { CREATE_REFETCH_DELAY_MS } from '../constants';
import { notifyError, notifySuccess } from '../lib/notify';
import { rotationsQueryKey } from './get-rotations';

/** useCreateRotation creates a rotation (POST /api/rotations); the answer carries its id. */
export function useCreateRotation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateRotationInput) =>
      apiRequest<Rotation>('POST', '/api/rotations', input),
    onSuccess: () => {
      notifySuccess('Rotation created', 'Your rotation has been created successfully.');
      void queryClient.invalidateQueries({ queryKey: rotationsQueryKey, exact: true });
      // Section 7: the list is fetched again about 500 ms later as well.
      setTimeout(() => {
        void queryClient.refetchQueries({ queryKey: rotationsQueryKey, exact: true });
      }, CREATE_REFETCH_DELAY_MS);
    },
    onError: (error) =>
      notifyError(
        'Error creating rotation',
        error,
        'There was an error creating the rotation. Please try again.',
      ),
  });
}
