import type { Integration, TestAlertResult } from '@shared/contracts/integrations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { incidentReadsQueryKey } from '@/lib/shared-reads';
import { integrationsQueryKey } from './keys';

/**
 * useSendTestAlert raises a test incident through an integration (POST
 * /api/integrations/{id}/test, 201 { incidentId, outcome }), as a monitoring tool would: the toast
 * links to the incident. The integration's counts and recent alerts and the incident reads are
 * read again.
 */
export function useSendTestAlert() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (integration: Pick<Integration, 'id' | 'name'>) =>
      apiRequest<TestAlertResult>('POST', `/api/integrations/${integration.id}/test`),
    onSuccess: async (result, integration) => {
      const { incidentId } = result;
      notifySuccess(
        'Test alert sent',
        incidentId === null ? (
          `${integration.name} received it; it raised no incident (${result.outcome}).`
        ) : (
          <>
            {integration.name} raised incident #{incidentId}.{' '}
            {/* The toasts live outside the router: the link navigates by hand, in the app. */}
            <a
              href={`/incidents/${incidentId}`}
              className="font-medium underline underline-offset-4"
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                navigate(`/incidents/${incidentId}`);
              }}
            >
              Open the incident
            </a>
          </>
        ),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: integrationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: incidentReadsQueryKey }),
      ]);
    },
    onError: (error) =>
      notifyError('Error sending test alert', error, 'The test alert could not be sent.'),
  });
}
