import type { Incident, IncidentList, IncidentStatus, Severity } from '@shared/contracts/incidents';
import { durationWords, incidentTimings } from '@shared/domain/incidents';
import { listInWords } from './timeline-text';

/*
 * Pure helpers of the incident screens (issue 16): the list's filters as the API's query string,
 * the counts on the status tabs, an incident's place on its policy in words, and the server's
 * field errors for a form.
 */

/** The status tabs of /incidents: every incident, the open ones, or one status. */
export const STATUS_FILTERS = ['all', 'open', 'triggered', 'acknowledged', 'resolved'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const STATUS_FILTER_LABELS: Record<StatusFilter, string> = {
  all: 'All',
  open: 'Open',
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

export type IncidentFilters = {
  status: StatusFilter;
  severity: Severity | null;
  rotationId: number | null;
  q: string;
};

export const DEFAULT_FILTERS: IncidentFilters = {
  status: 'open',
  severity: null,
  rotationId: null,
  q: '',
};

/** LIST_PAGE_SIZE: incidents read at a time ("Load more" reads the next as many). */
export const LIST_PAGE_SIZE = 25;

/**
 * incidentListQuery returns the query string of GET /api/incidents for the filters: 'open' is
 * `open=true`, 'all' no status; `before` pages on.
 */
export function incidentListQuery(
  filters: IncidentFilters,
  before: number | null = null,
  limit = LIST_PAGE_SIZE,
): string {
  const params = new URLSearchParams();
  if (filters.status === 'open') params.set('open', 'true');
  else if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.severity) params.set('severity', filters.severity);
  if (filters.rotationId !== null) params.set('rotationId', String(filters.rotationId));
  const q = filters.q.trim();
  if (q) params.set('q', q);
  params.set('limit', String(limit));
  if (before !== null) params.set('before', String(before));
  return params.toString();
}

/** statusFilterCount returns how many incidents a status tab holds, from the list's counts. */
export function statusFilterCount(counts: IncidentList['counts'], filter: StatusFilter): number {
  switch (filter) {
    case 'all':
      return counts.triggered + counts.acknowledged + counts.resolved;
    case 'open':
      return counts.triggered + counts.acknowledged;
    default:
      return counts[filter];
  }
}

/** filtersFromSearch reads the filters from the screen's address (?status=&severity=&rotation=&q=). */
export function filtersFromSearch(search: URLSearchParams): IncidentFilters {
  const status = search.get('status');
  const severity = search.get('severity');
  const rotation = Number(search.get('rotation'));
  return {
    status: (STATUS_FILTERS as readonly string[]).includes(status ?? '')
      ? (status as StatusFilter)
      : DEFAULT_FILTERS.status,
    severity: severity === 'P1' || severity === 'P2' || severity === 'P3' ? severity : null,
    rotationId: Number.isInteger(rotation) && rotation > 0 ? rotation : null,
    q: search.get('q') ?? '',
  };
}

/** searchFromFilters writes the filters into the address, leaving the defaults out. */
export function searchFromFilters(filters: IncidentFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status !== DEFAULT_FILTERS.status) params.set('status', filters.status);
  if (filters.severity) params.set('severity', filters.severity);
  if (filters.rotationId !== null) params.set('rotation', String(filters.rotationId));
  if (filters.q) params.set('q', filters.q);
  return params;
}

/**
 * stepProgressText reads where an incident is on its copy of the policy: 'Step 2 of 3 (loop 1 of
 * 2)'; a policy that does not repeat leaves the loop out.
 */
export function stepProgressText(
  incident: Pick<Incident, 'currentStep' | 'currentLoop' | 'escalationPolicy'>,
): string {
  const { stepCount, repeat } = incident.escalationPolicy;
  const step = `Step ${incident.currentStep} of ${stepCount}`;
  return repeat > 0 ? `${step} (loop ${incident.currentLoop} of ${repeat + 1})` : step;
}

/** nextStepDefault returns the step "Escalate" offers first: the next one, or the last. */
export function nextStepDefault(incident: Pick<Incident, 'currentStep' | 'escalationPolicy'>) {
  const { stepCount } = incident.escalationPolicy;
  return Math.max(1, Math.min(incident.currentStep + 1, stepCount));
}

/** assigneesText reads who an incident is with: 'Priya Shah and Noah Lee', or 'Nobody'. */
export function assigneesText(incident: Pick<Incident, 'assignees'>): string {
  const names = incident.assignees.map((p) => p.name);
  return names.length === 0 ? 'Nobody' : listInWords(names);
}

/** isOpenStatus tells whether an incident still waits for someone (triggered or acknowledged). */
export const isOpenStatus = (status: IncidentStatus) => status !== 'resolved';

/** What an incident raised by alerts carries (issue 17, decision 210). */
export type IncidentAlertFacts = Pick<Incident, 'integration' | 'alertCount' | 'storm'>;

/**
 * alertFactsOf returns the incident's integration, alert count and storm flag, or null for an
 * incident no alert raised (a person's, with no alerts); an incident whose integration was
 * deleted keeps its count, with integration null.
 */
export function alertFactsOf(
  incident: Pick<Incident, 'integration' | 'alertCount' | 'storm' | 'raisedBy'>,
): IncidentAlertFacts | null {
  const { integration, alertCount, storm } = incident;
  if (integration === null && alertCount === 0 && incident.raisedBy.kind !== 'integration') {
    return null;
  }
  return { integration, alertCount, storm };
}

/**
 * responseTimes returns the incident's time to acknowledge and time to resolve in words, from when
 * it was raised (decision 261): 'Not acknowledged yet' and 'Open for 12 min' while they have not
 * happened; a resolution nobody acknowledged first says so.
 */
export function responseTimes(
  incident: Pick<Incident, 'createdAt' | 'acknowledgedAt' | 'resolvedAt'>,
  now: Date,
): { toAcknowledge: string; toResolve: string } {
  const timings = incidentTimings(incident, now);
  return {
    toAcknowledge:
      timings.toAcknowledge !== null
        ? durationWords(timings.toAcknowledge)
        : incident.resolvedAt !== null
          ? 'Resolved without an acknowledgement'
          : 'Not acknowledged yet',
    toResolve:
      timings.toResolve !== null
        ? durationWords(timings.toResolve)
        : `Open for ${durationWords(timings.openFor ?? 0)}`,
  };
}
