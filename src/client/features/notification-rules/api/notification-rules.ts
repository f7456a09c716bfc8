import type {
  NotificationRulesAnswer,
  NotificationRulesInput,
} from '@shared/contracts/notification-rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';

/*
 * A person's notification rules (decision 251): GET, PUT and DELETE
 * /api/users/{id}/notification-rules, one's own or (administrators) anyone's. A write's answer
 * replaces the cached read.
 */

const pathOf = (userId: number) => `/api/users/${userId}/notification-rules`;
export const notificationRulesQueryKey = (userId: number) => [pathOf(userId)] as const;

/** useNotificationRules reads a person's rules, or their preference's (own: false). */
export function useNotificationRules(userId: number) {
  return useQuery({
    queryKey: notificationRulesQueryKey(userId),
    queryFn: ({ signal }) =>
      apiRequest<NotificationRulesAnswer>('GET', pathOf(userId), undefined, { signal }),
  });
}

/**
 * useSaveNotificationRules sets a person's own rules (PUT), or with null returns them to their
 * Notification Preference (DELETE). A refusal is left to the editor (its fields beside the rules).
 * `name` names someone else in the toast (an administrator editing their rules).
 */
export function useSaveNotificationRules(userId: number, name?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: NotificationRulesInput | null) =>
      rules === null
        ? apiRequest<NotificationRulesAnswer>('DELETE', pathOf(userId))
        : apiRequest<NotificationRulesAnswer>('PUT', pathOf(userId), rules),
    onSuccess: (answer) => {
      queryClient.setQueryData(notificationRulesQueryKey(userId), answer);
      notifySuccess(
        'Notification rules saved',
        answer.own
          ? `Pages now reach ${name ?? 'you'} by these rules.`
          : `Pages follow ${name ? `${name}'s` : 'your'} Notification Preference again.`,
      );
    },
  });
}
