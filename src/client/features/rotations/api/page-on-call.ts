import type { PageInput } from '@shared/contracts/rotations';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '../lib/notify';

export type PageResponse = { sentTo: { name: string } };
export type PageOnCallVariables = PageInput & { rotationId: number };

/** usePageOnCall sends an urgent page to the rotation's holder (POST .../page). */
export function usePageOnCall() {
  return useMutation({
    mutationFn: ({ rotationId, message, urgency }: PageOnCallVariables) =>
      apiRequest<PageResponse>('POST', `/api/rotations/${rotationId}/page`, {
        message: message.trim(),
        urgency,
      }),
    onSuccess: (data) =>
      notifySuccess(
        'Page alert sent',
        data?.sentTo?.name
          ? `Page alert sent to ${data.sentTo.name}.`
          : 'Page alert sent to the on-call person.',
      ),
    onError: (error) =>
      notifyError(
        'Error sending page alert',
        error,
        'There was an error sending the page alert. Please try again.',
      ),
  });
}
