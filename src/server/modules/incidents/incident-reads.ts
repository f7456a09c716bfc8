import type { z } from 'zod';
import {
  INCIDENT_MESSAGES,
  type Incident,
  type IncidentList,
  type IncidentListQuerySchema,
} from '../../../shared/contracts/incidents';
import type { PagePerson } from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import { nextEscalation } from '../../../shared/domain/escalation';
import { incidentActions, incidentStatusOf } from '../../../shared/domain/incidents';
import type { PageStatus } from '../../../shared/domain/paging';
import type { FieldCipher } from '../../crypto/field-crypto';
import { notFound } from '../../http/errors';
import { reasonOf } from '../audit/audit-sealed';
import {
  countIncidentAlerts,
  findIntegrationNames,
  type IncidentAlertCount,
} from '../integrations/integration-repository';
import { listRotationMemberIds } from '../members/member-reads';
import { loadNames } from '../users/user-repository';
import type { IncidentDeps } from './incident-facts';
import {
  countIncidentsByStatus,
  findIncidentRow,
  type IncidentEventRow,
  type IncidentFilters,
  type IncidentNotificationRow,
  type IncidentRow,
  type IncidentTitleRow,
  type LockedIncident,
  listIncidentEvents,
  listIncidentNotifications,
  listIncidentRows,
  listIncidentRowsByIds,
  listIncidentTitles,
  STORED_STATUSES,
} from './incident-repository';
import { type IncidentTextField, incidentTextCtx, pageMessageOf } from './incident-text';
import { timelineOf } from './incident-timeline';

/**
 * Reading incidents as a viewer sees them (issue 16, decision 205): one incident with its
 * timeline, or a page of the list with its counts by status. A fixed number of queries whatever
 * the number of incidents: rows, events, notifications, names and rotation members each in one.
 */

type Person = PagePerson;
type Names = Map<number, Person>;

const numberOr = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const stringOr = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const arrayOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
    : [];

// ---------------------------------------------------------------------------------------------
// Sealed fields

/** openField returns a sealed incident field in clear, or null when it was not given. */
function openField(
  cipher: FieldCipher,
  page: IncidentRow,
  field: IncidentTextField,
  sealed: string | null,
): string | null {
  return sealed === null ? null : cipher.decrypt(sealed, incidentTextCtx(field, page.id));
}

/** titleOf returns an incident's title: its own, or (a page) its message. */
export function titleOf(
  cipher: FieldCipher,
  page: Pick<IncidentTitleRow, 'id' | 'titleEnc' | 'messageEnc' | 'legacyMessage'>,
): string {
  if (page.titleEnc !== null) {
    return cipher.decrypt(page.titleEnc, incidentTextCtx('title', page.id));
  }
  return pageMessageOf(page, cipher);
}

// ---------------------------------------------------------------------------------------------
// The incident

/**
 * raisedByOf: a person; else an integration (issue 17), by its name now, or the name its raised
 * event recorded once it is deleted; else Baton itself.
 */
export function raisedByOf(
  page: IncidentRow,
  raised: IncidentEventRow | undefined,
  person: (id: number | null) => Person | null,
  integration: Incident['integration'],
): Incident['raisedBy'] {
  const details = raised?.details ?? {};
  const actorId = page.pagedById ?? raised?.actorUserId ?? null;
  if (actorId !== null) {
    const user = person(actorId);
    return { kind: 'user', user, name: user?.name ?? 'A deleted person' };
  }
  if (integration || details.source === 'integration') {
    return {
      kind: 'integration',
      user: null,
      name: integration?.name ?? stringOr(details.integrationName) ?? 'Integration',
    };
  }
  return { kind: 'system', user: null, name: 'Baton' };
}

/**
 * closedByOf returns who acknowledged or resolved an incident (`at` set): the person, or the
 * integration the event names when its alert cleared; null when it has not happened.
 */
function closedByOf(
  at: Date | null,
  byId: number | null,
  event: IncidentEventRow | undefined,
  person: (id: number | null) => Person | null,
): Incident['raisedBy'] | null {
  if (at === null) return null;
  const details = event?.details ?? {};
  if (byId === null && details.via === 'integration') {
    return {
      kind: 'integration',
      user: null,
      name: stringOr(details.integrationName) ?? 'Integration',
    };
  }
  const user = person(byId);
  return { kind: 'user', user, name: user?.name ?? 'A deleted person' };
}

/** resolutionNoteOf: the note its last resolution gave (decision 261); null: none. */
function resolutionNoteOf(events: readonly IncidentEventRow[], cipher: FieldCipher) {
  const resolved = events.findLast((e) => e.action === 'page.resolved');
  return resolved ? reasonOf(resolved, cipher) : null;
}

/** nextStepAt: when the next step is due, while the incident waits for a person. */
function nextStepAtOf(page: IncidentRow, now: Date): string | null {
  if (page.status !== 'triggered' && page.status !== 'escalated') return null;
  if (page.exhaustedAt !== null || page.policy.steps.length === 0) return null;
  const stepIndex = Math.min(page.stepIndex, page.policy.steps.length - 1);
  const next = nextEscalation(
    page.policy,
    {
      stepIndex,
      loop: page.loop,
      stepStartedAt: page.stepStartedAt,
      stepSkipped: page.stepSkipped,
    },
    now,
  );
  return next.kind === 'step' ? next.at.toISOString() : null;
}

interface Loaded {
  events: readonly IncidentEventRow[];
  notifications: readonly IncidentNotificationRow[];
  names: Names;
  members: Map<number, number[]>;
  /** the names of the integrations that raised them (issue 17) */
  integrations: Map<number, string>;
  /** the distinct alerts of those an integration raised */
  alertCounts: Map<number, IncidentAlertCount>;
}

function toIncident(
  { page, rotation }: LockedIncident,
  loaded: Loaded,
  viewer: User,
  deps: IncidentDeps,
  withTimeline: boolean,
): Incident {
  const { cipher } = deps;
  const person = (id: number | null) => (id === null ? null : (loaded.names.get(id) ?? null));
  const people = (ids: readonly number[]) =>
    ids.flatMap((id) => {
      const found = person(id);
      return found ? [found] : [];
    });
  const own = loaded.events.filter((e) => e.targetId === String(page.id));
  const status = page.status as PageStatus;
  const actions = incidentActions(viewer, {
    status,
    raisedById: page.pagedById,
    notifiedIds: page.notifiedIds,
    rotation: rotation
      ? {
          createdById: rotation.createdById,
          memberUserIds: loaded.members.get(rotation.id) ?? [],
        }
      : null,
  });
  const integrationName =
    page.integrationId === null ? undefined : loaded.integrations.get(page.integrationId);
  const integration =
    page.integrationId === null || integrationName === undefined
      ? null
      : { id: page.integrationId, name: integrationName };
  const incident: Incident = {
    id: page.id,
    title: titleOf(cipher, page),
    severity: page.severity as Incident['severity'],
    urgency: page.urgency as Incident['urgency'],
    description: openField(cipher, page, 'description', page.descriptionEnc),
    impact: openField(cipher, page, 'impact', page.impactEnc),
    troubleshootingSteps: openField(cipher, page, 'troubleshooting', page.troubleshootingEnc),
    status: incidentStatusOf(status),
    raisedBy: raisedByOf(
      page,
      own.find((e) => e.action === 'incident.raised'),
      person,
      integration,
    ),
    rotation: rotation ? { id: rotation.id, name: rotation.name } : null,
    escalationPolicy: {
      id: page.escalationPolicyId,
      name: page.policy.name,
      repeat: page.policy.repeat,
      stepCount: page.policy.steps.length,
    },
    currentStep: page.stepIndex + 1,
    currentLoop: page.loop + 1,
    nextStepAt: nextStepAtOf(page, deps.clock.now()),
    exhaustedAt: page.exhaustedAt?.toISOString() ?? null,
    assignees: people(page.assigneeIds),
    createdAt: page.createdAt.toISOString(),
    acknowledgedAt: page.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: person(page.acknowledgedById),
    resolvedAt: page.resolvedAt?.toISOString() ?? null,
    resolvedBy: person(page.resolvedById),
    resolutionNote: page.status === 'resolved' ? resolutionNoteOf(own, cipher) : null,
    acknowledgedBySource: closedByOf(
      page.acknowledgedAt,
      page.acknowledgedById,
      own.findLast((e) => e.action === 'page.acknowledged'),
      person,
    ),
    resolvedBySource: closedByOf(
      page.resolvedAt,
      page.resolvedById,
      own.findLast((e) => e.action === 'page.resolved'),
      person,
    ),
    integration,
    alertCount: loaded.alertCounts.get(page.id)?.alertCount ?? 0,
    lastAlertAt: loaded.alertCounts.get(page.id)?.lastAlertAt?.toISOString() ?? null,
    storm: page.storm,
    actions,
  };
  if (!withTimeline) return incident;
  const sent = loaded.notifications.filter((n) => n.pageId === page.id);
  return { ...incident, timeline: timelineOf(page, own, sent, person, cipher) };
}

/** Everyone an incident's view names: its people, its events' people, its notifications'. */
function peopleIn(
  rows: readonly LockedIncident[],
  events: readonly IncidentEventRow[],
  sent: readonly IncidentNotificationRow[],
): (number | null)[] {
  return [
    ...rows.flatMap(({ page }) => [
      page.pagedById,
      page.acknowledgedById,
      page.resolvedById,
      ...page.assigneeIds,
    ]),
    ...events.flatMap((e) => [
      e.actorUserId,
      numberOr(e.details?.toUserId),
      numberOr(e.details?.userId),
      ...arrayOf(e.details?.notified).map((n) => numberOr(n.userId)),
      ...arrayOf(e.details?.skipped).map((s) => numberOr(s.userId)),
    ]),
    ...sent.map((n) => n.userId),
  ];
}

/** The events the list reads: only what says who raised each incident. */
const LIST_EVENTS = ['incident.raised'];

async function assemble(
  deps: IncidentDeps,
  rows: readonly LockedIncident[],
  viewer: User,
  withTimeline: boolean,
): Promise<Incident[]> {
  if (rows.length === 0) return [];
  const db = deps.database.db;
  const ids = rows.map((r) => r.page.id);
  const events = await listIncidentEvents(db, ids, withTimeline ? undefined : LIST_EVENTS);
  const sent = withTimeline ? await listIncidentNotifications(db, ids) : [];
  const names = await loadNames(db, deps.cipher, peopleIn(rows, events, sent));
  const members = await listRotationMemberIds(
    db,
    rows.flatMap((r) => (r.rotation ? [r.rotation.id] : [])),
  );
  const integrations = await findIntegrationNames(
    db,
    rows.flatMap((r) => (r.page.integrationId === null ? [] : [r.page.integrationId])),
  );
  const alertCounts = await countIncidentAlerts(
    db,
    rows.flatMap((r) => (r.page.integrationId === null ? [] : [r.page.id])),
  );
  const loaded = { events, notifications: sent, names, members, integrations, alertCounts };
  return rows.map((row) => toIncident(row, loaded, viewer, deps, withTimeline));
}

/** getIncident returns one incident with its timeline as the viewer sees it, or throws 404. */
export async function getIncident(
  deps: IncidentDeps,
  viewer: User,
  incidentId: number,
): Promise<Incident> {
  const found = await findIncidentRow(deps.database.db, incidentId);
  if (!found) throw notFound(INCIDENT_MESSAGES.notFound);
  const [incident] = await assemble(deps, [found], viewer, true);
  return incident;
}

// ---------------------------------------------------------------------------------------------
// The list

/** the list's query as the route parsed it (defaults applied, ids as numbers) */
export type ParsedIncidentListQuery = z.output<typeof IncidentListQuerySchema>;

const emptyCounts = (): IncidentList['counts'] => ({ triggered: 0, acknowledged: 0, resolved: 0 });

/** the search's words, lower case; a title matches when it holds every one */
const wordsOf = (q: string | undefined) => (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);

/**
 * searchIncidents pages a title search. Titles are sealed, so SQL cannot match them: one query
 * reads the id, status and sealed title of every incident the other filters keep, the titles are
 * opened and matched here, and both the counts and the page come from those matches (decision
 * 205). Returns the counts and the ids of up to `limit + 1` matches below the cursor.
 */
async function searchIncidents(
  deps: IncidentDeps,
  filters: IncidentFilters,
  query: ParsedIncidentListQuery,
  words: readonly string[],
) {
  const rows = await listIncidentTitles(deps.database.db, filters);
  // The rows are in the list's order, so "below the cursor" is "after it" among them; a cursor
  // the filters leave out (or one deleted) pages on by id.
  const cursorAt = query.before === undefined ? -1 : rows.findIndex((r) => r.id === query.before);
  const below = (row: IncidentTitleRow, at: number) =>
    query.before === undefined || (cursorAt >= 0 ? at > cursorAt : row.id < query.before);
  const inStatus = query.status ? STORED_STATUSES[query.status] : null;
  const counts = emptyCounts();
  const ids: number[] = [];
  for (const [at, row] of rows.entries()) {
    const title = titleOf(deps.cipher, row).toLowerCase();
    if (!words.every((w) => title.includes(w))) continue;
    counts[incidentStatusOf(row.status as PageStatus)] += 1;
    const wanted = below(row, at) && (inStatus === null || inStatus.includes(row.status));
    if (wanted && ids.length <= query.limit) ids.push(row.id);
  }
  return { ids, counts };
}

/**
 * listIncidents returns a page of the incidents the viewer may see (everyone with
 * page.viewHistory sees every incident), newest first, with the counts by status over the same
 * filters but the status.
 */
export async function listIncidents(
  deps: IncidentDeps,
  viewer: User,
  query: ParsedIncidentListQuery,
): Promise<IncidentList> {
  const db = deps.database.db;
  const filters: IncidentFilters = {
    notifiedUserId: query.mine === 'true' ? viewer.id : undefined,
    open: query.open === 'true',
    severity: query.severity,
    rotationId: query.rotationId,
  };
  const words = wordsOf(query.q);
  let rows: LockedIncident[];
  const counts = emptyCounts();
  if (words.length > 0) {
    const found = await searchIncidents(deps, filters, query, words);
    rows = await listIncidentRowsByIds(db, found.ids);
    Object.assign(counts, found.counts);
  } else {
    for (const { status, n } of await countIncidentsByStatus(db, filters)) {
      counts[incidentStatusOf(status as PageStatus)] += n;
    }
    rows = await listIncidentRows(
      db,
      { ...filters, status: query.status },
      {
        limit: query.limit + 1,
        before: query.before,
      },
    );
  }
  const more = rows.length > query.limit;
  const shown = rows.slice(0, query.limit);
  return {
    incidents: await assemble(deps, shown, viewer, false),
    nextBefore: more ? shown[shown.length - 1].page.id : null,
    counts,
  };
}
