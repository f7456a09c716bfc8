import type { Incident, IncidentInput } from '@shared/contracts/incidents';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { refreshPageViews } from '@/lib/shared-reads';
import { incidentQueryKey, incidentsQueryKey } from './keys';

/**
 * useRaiseIncident raises an incident (POST /api/incidents). The answer is written into the
 * incident's read and the lists are read again. A refusal is left to the form, which shows field
 * messages beside their fields and anything else in a toast.
 */
export function useRaiseIncident() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: IncidentInput) => apiRequest<Incident>('POST', '/api/incidents', input),
    onSuccess: async (incident) => {
      queryClient.setQueryData(incidentQueryKey(incident.id), incident);
      notifySuccess(
        'Incident raised',
        `${incident.title} follows ${incident.escalationPolicy.name}.`,
      );
      await Promise.all([
        queryClient.invalidateQueries({
          queryKey: incidentsQueryKey,
          predicate: (query) => query.queryKey[1] !== incident.id,
        }),
        incident.rotation ? refreshPageViews(queryClient, incident.rotation.id) : null,
      ]);
    },
  });
}
