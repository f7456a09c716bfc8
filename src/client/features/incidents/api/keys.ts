/*
 * The query keys of the incident reads. Every key starts with '/api/incidents', so invalidating
 * that prefix after a change reads the list, the dashboard card and the open incident again.
 */

export const incidentsQueryKey = ['/api/incidents'] as const;

/** One incident, with its timeline (GET /api/incidents/{id}, the default query function). */
export const incidentQueryKey = (incidentId: number) => ['/api/incidents', incidentId] as const;

/** The list screen's read for one set of filters (its query string). */
export const incidentListQueryKey = (query: string) => ['/api/incidents', 'list', query] as const;

/** The dashboard's open incidents that notified the viewer. */
export const myIncidentsQueryKey = ['/api/incidents', 'mine'] as const;

/** The alert events an incident took in (issue 17), under the incident's own key. */
export const incidentAlertsQueryKey = (incidentId: number) =>
  ['/api/incidents', incidentId, 'alerts'] as const;
