import { ErrorCodes } from '@shared/contracts/errors';
import type {
  EscalateIncidentInput,
  Incident,
  IncidentNoteInput,
  ReassignIncidentInput,
  ReopenIncidentInput,
  ResolveIncidentInput,
} from '@shared/contracts/incidents';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { myPagesQueryKey, refreshPageViews } from '@/lib/shared-reads';
import { foreseeIncident, withAcknowledged } from './foresee-incident';
import { incidentQueryKey, incidentsQueryKey } from './keys';

/** What can be done to an incident, each a POST /api/incidents/{id}/<path> answering the incident. */
export type IncidentAction =
  | { kind: 'acknowledge' }
  | { kind: 'resolve'; input?: ResolveIncidentInput }
  | { kind: 'reopen'; input?: ReopenIncidentInput }
  | { kind: 'escalate'; input: EscalateIncidentInput }
  | { kind: 'reassign'; input: ReassignIncidentInput }
  | { kind: 'note'; input: IncidentNoteInput };

const PATHS = {
  acknowledge: 'acknowledge',
  resolve: 'resolve',
  reopen: 'reopen',
  escalate: 'escalate',
  reassign: 'reassign',
  note: 'notes',
} as const;

const DONE: Record<IncidentAction['kind'], (incident: Incident) => [string, string | undefined]> = {
  acknowledge: (i) => ['Incident acknowledged', `${i.title}: the escalation has stopped.`],
  resolve: (i) => ['Incident resolved', i.title],
  reopen: (i) => [
    'Incident reopened',
    `${i.title} is triggered again, with ${i.assignees.map((p) => p.name).join(', ') || 'nobody yet'}.`,
  ],
  escalate: (i) => ['Incident escalated', `${i.title} is at step ${i.currentStep}.`],
  reassign: (i) => [
    'Incident reassigned',
    `${i.title} is with ${i.assignees.map((p) => p.name).join(', ') || 'nobody'}.`,
  ],
  note: () => ['Note added', undefined],
};

const FAILED: Record<IncidentAction['kind'], [string, string]> = {
  acknowledge: ['Error acknowledging incident', 'The incident could not be acknowledged.'],
  resolve: ['Error resolving incident', 'The incident could not be resolved.'],
  reopen: ['Error reopening incident', 'The incident could not be reopened.'],
  escalate: ['Error escalating incident', 'The incident could not be escalated.'],
  reassign: ['Error reassigning incident', 'The incident could not be reassigned.'],
  note: ['Error adding note', 'The note could not be added.'],
};

/**
 * refreshAfterChange: the answer replaces the incident's read (keeping the timeline the list rows
 * lack); the lists, the dashboard card and the page views, filtered by the server, are read again.
 */
async function refreshAfterChange(queryClient: QueryClient, incident: Incident) {
  queryClient.setQueryData<Incident>(incidentQueryKey(incident.id), (old) => ({
    ...incident,
    timeline: incident.timeline ?? old?.timeline,
  }));
  await Promise.all([
    queryClient.invalidateQueries({
      queryKey: incidentsQueryKey,
      predicate: (query) => query.queryKey[1] !== incident.id,
    }),
    incident.rotation
      ? refreshPageViews(queryClient, incident.rotation.id)
      : queryClient.invalidateQueries({ queryKey: myPagesQueryKey }),
  ]);
}

/**
 * incidentActionMutationOptions posts one action on an incident and replaces its read with the
 * answer; a failure is told in the error toast with the server's message. An acknowledgement
 * shows at once, before the answer, and is put back if the server refuses.
 */
export const incidentActionMutationOptions = (queryClient: QueryClient, incidentId: number) =>
  mutationOptions({
    mutationFn: (action: IncidentAction) =>
      apiRequest<Incident>(
        'POST',
        `/api/incidents/${incidentId}/${PATHS[action.kind]}`,
        'input' in action ? action.input : undefined,
      ),
    onMutate: async (action) =>
      action.kind === 'acknowledge'
        ? {
            undo: await foreseeIncident(queryClient, incidentId, (i) =>
              withAcknowledged(i, new Date()),
            ),
          }
        : undefined,
    onSuccess: async (incident, action) => {
      const [title, description] = DONE[action.kind](incident);
      notifySuccess(title, description);
      await refreshAfterChange(queryClient, incident);
    },
    onError: async (error, action, foreseen) => {
      foreseen?.undo();
      const [title, fallback] = FAILED[action.kind];
      notifyError(title, error, fallback);
      // Someone moved it first (decision 236): show the step it is at now.
      if (
        error instanceof ApiRequestError &&
        error.body?.code === ErrorCodes.INCIDENT_ALREADY_ESCALATED
      ) {
        await queryClient.invalidateQueries({ queryKey: incidentQueryKey(incidentId) });
      }
    },
  });

/** useIncidentAction posts one action on an incident (incidentActionMutationOptions). */
export function useIncidentAction(incidentId: number) {
  return useMutation(incidentActionMutationOptions(useQueryClient(), incidentId));
}
