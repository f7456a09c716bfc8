import type { CreateRotationInput, Rotation } from '@shared/contracts/rotations';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { CREATE_REFETCH_DELAY_MS } from '../constants';
import { rotationsQueryKey } from './get-rotations';

/**
 * createRotationMutationOptions creates a rotation (POST /api/rotations; the answer carries its
 * id), then invalidates the list and fetches it again about 500 ms later (section 7).
 */
export const createRotationMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (input: CreateRotationInput) =>
      apiRequest<Rotation>('POST', '/api/rotations', input),
    onSuccess: () => {
      notifySuccess('Rotation created', 'Your rotation has been created successfully.');
      void queryClient.invalidateQueries({ queryKey: rotationsQueryKey, exact: true });
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

/** useCreateRotation creates a rotation (POST /api/rotations); the answer carries its id. */
export function useCreateRotation() {
  return useMutation(createRotationMutationOptions(useQueryClient()));
}
