import type { PageInput } from '@shared/contracts/rotations';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshPageViews } from '@/lib/shared-reads';

export type PageResponse = { sentTo: { name: string } };
export type PageOnCallVariables = PageInput & { rotationId: number };

/**
 * pageOnCallMutationOptions sends an urgent page to the rotation's holder (POST .../page), then
 * refreshes the reads the new page appears in: the rotation's page history and the signed-in
 * user's pages (the answer names only who was paged, not the page, so they are read again).
 */
export const pageOnCallMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: ({ rotationId, message, urgency }: PageOnCallVariables) =>
      apiRequest<PageResponse>('POST', `/api/rotations/${rotationId}/page`, {
        message: message.trim(),
        urgency,
      }),
    onSuccess: async (data, { rotationId }) => {
      notifySuccess(
        'Page alert sent',
        data?.sentTo?.name
          ? `Page alert sent to ${data.sentTo.name}.`
          : 'Page alert sent to the on-call person.',
      );
      await refreshPageViews(queryClient, rotationId);
    },
    onError: (error) =>
      notifyError(
        'Error sending page alert',
        error,
        'There was an error sending the page alert. Please try again.',
      ),
  });

/** usePageOnCall sends an urgent page to the rotation's holder (POST .../page). */
export function usePageOnCall() {
  return useMutation(pageOnCallMutationOptions(useQueryClient()));
}
