import type { PushDevice, PushPublicKey, PushSubscriptionInput } from '@shared/contracts/push';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';

/*
 * A person's devices for push (decision 253): GET, POST, PATCH and DELETE
 * /api/users/{id}/push-subscriptions, one's own or (administrators) anyone's, and Baton's VAPID
 * public key. A change reads the list again.
 */

const pathOf = (userId: number) => `/api/users/${userId}/push-subscriptions`;
export const pushDevicesQueryKey = (userId: number) => [pathOf(userId)] as const;

/** usePushDevices lists a person's devices (never their keys). */
export function usePushDevices(userId: number) {
  return useQuery({
    queryKey: pushDevicesQueryKey(userId),
    queryFn: ({ signal }) => apiRequest<PushDevice[]>('GET', pathOf(userId), undefined, { signal }),
  });
}

/** readPublicKey reads Baton's VAPID public key, when a device is about to subscribe. */
export const readPublicKey = () => apiRequest<PushPublicKey>('GET', '/api/push/public-key');

function useRefresh(userId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: pushDevicesQueryKey(userId) });
}

/** useSaveSubscription keeps a browser's subscription for the person. */
export function useSaveSubscription(userId: number) {
  const refresh = useRefresh(userId);
  return useMutation({
    mutationFn: (subscription: PushSubscriptionInput) =>
      apiRequest<PushDevice>('POST', pathOf(userId), subscription),
    onSuccess: async (device) => {
      await refresh();
      notifySuccess('This device is notified', `Pages by a push rule now reach ${device.name}.`);
    },
  });
}

/** useRenameDevice names a device. */
export function useRenameDevice(userId: number) {
  const refresh = useRefresh(userId);
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      apiRequest<PushDevice>('PATCH', `${pathOf(userId)}/${id}`, { name }),
    onSuccess: refresh,
  });
}

/** useRemoveDevice removes a device: no more pushes go to it. */
export function useRemoveDevice(userId: number) {
  const refresh = useRefresh(userId);
  return useMutation({
    mutationFn: (device: PushDevice) =>
      apiRequest<void>('DELETE', `${pathOf(userId)}/${device.id}`),
    onSuccess: async (_answer, device) => {
      await refresh();
      notifySuccess('Device removed', `${device.name} gets no more pushes.`);
    },
  });
}
