import type {
  NotificationTestInput,
  NotificationTestResult,
} from '@shared/contracts/notification-test';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** useSendTest: POST /api/users/{id}/notification-test, answering what became of the test. */
export function useSendTest(userId: number) {
  return useMutation({
    mutationFn: (input: NotificationTestInput) =>
      apiRequest<NotificationTestResult>('POST', `/api/users/${userId}/notification-test`, input),
  });
}
