import type { Incident, IncidentList } from '@shared/contracts/incidents';
import type { QueryClient } from '@tanstack/react-query';
import { incidentsQueryKey } from './keys';

/*
 * An acknowledgement shown before the server answers (issue 35, decision 264): the incident reads
 * acknowledged, with no next step and no Acknowledge button, in every read that lists it (its own,
 * the incident list, the dashboard's "for you" card), and is put back if the server refuses.
 */

/** withAcknowledged is the incident as an acknowledgement at `now` leaves it. */
export function withAcknowledged(incident: Incident, now: Date): Incident {
  return {
    ...incident,
    status: 'acknowledged',
    acknowledgedAt: now.toISOString(),
    nextStepAt: null,
    actions: { ...incident.actions, acknowledge: false },
  };
}

/** patchIncident applies `change` to the incident `id` in one cached read of any of their shapes. */
export function patchIncident(
  data: unknown,
  id: number,
  change: (incident: Incident) => Incident,
): unknown {
  if (!data || typeof data !== 'object') return data;
  if ('incidents' in data && Array.isArray((data as IncidentList).incidents)) {
    const list = data as IncidentList;
    if (!list.incidents.some((i) => i.id === id)) return data;
    return { ...list, incidents: list.incidents.map((i) => (i.id === id ? change(i) : i)) };
  }
  if ('id' in data && 'status' in data && 'actions' in data) {
    const incident = data as Incident;
    return incident.id === id ? change(incident) : data;
  }
  return data;
}

/**
 * foreseeIncident applies `change` to the incident in every incident read after stopping those in
 * flight, and returns the undo, which puts back what each read held.
 */
export async function foreseeIncident(
  queryClient: QueryClient,
  id: number,
  change: (incident: Incident) => Incident,
): Promise<() => void> {
  await queryClient.cancelQueries({ queryKey: incidentsQueryKey });
  const before = queryClient.getQueriesData({ queryKey: incidentsQueryKey });
  for (const [key, data] of before) {
    const next = patchIncident(data, id, change);
    if (next !== data) queryClient.setQueryData(key, next);
  }
  return () => {
    for (const [key, data] of before) queryClient.setQueryData(key, data);
  };
}
