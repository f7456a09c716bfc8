import { and, asc, eq } from 'drizzle-orm';
import type { Severity } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import type { Tx } from '../../db/client';
import { alerts, integrations } from '../../db/schema';
import { countIncidentAlerts } from '../integrations/integration-repository';
import type { RotationFacts } from '../notifications/events';
import type { AlertFacts, FollowUpReason } from '../notifications/messages';
import type { PageFollowUpEvent, PageRef } from '../notifications/person-events';
import { type StepDeps, titleOf } from './incident-facts';
import { type LockedIncident, listPagedRecently } from './incident-repository';

/**
 * The follow-up lookups of a step (decision 213): who raised an incident of an integration, in
 * the words its pages use, and which of a step's people were paged about another unacknowledged
 * incident of that integration within the window, so that they hear of this one in their
 * follow-up instead of a page of its own.
 */

const MINUTE = 60_000;
/** How long after a person's page from an integration its further incidents join a follow-up. */
export const FOLLOW_UP_WINDOW_MS = 5 * MINUTE;
/** The notifications that page a person about one incident (each with its own link). */
const PAGE_KINDS = ['page', 'page.reminder', 'page.escalated', 'page.backup'];

/** Who raised an incident of an integration, in the words its pages use (decision 213). */
export interface IntegrationSource {
  integrationId: number;
  name: string;
  facts: AlertFacts;
}

/** What a step's follow-up lookups found: the integration, and who hears of it in a follow-up. */
export interface StepFollowUps {
  source: IntegrationSource | null;
  /** the step's people who hear of this incident in their integration's follow-up */
  followUpIds: Set<number>;
}

/** lookUpFollowUps reads a step's integration source and the people bundled into follow-ups. */
export async function lookUpFollowUps(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
  recipientIds: readonly number[],
  now: Date,
): Promise<StepFollowUps> {
  const source = await integrationSourceOf(tx, deps, incident);
  const followUpIds = source
    ? await listPagedRecently(tx, {
        integrationId: source.integrationId,
        exceptIncidentId: incident.page.id,
        userIds: recipientIds,
        kinds: PAGE_KINDS,
        since: new Date(now.getTime() - FOLLOW_UP_WINDOW_MS),
        now,
      })
    : new Set<number>();
  return { source, followUpIds };
}

/**
 * integrationSourceOf reads what an integration's incident pages show, in one query (a storm's
 * count of alerts in a second): the integration's name and the incident's first trigger alert
 * (the intake records it before the first step, RaiseInput.beforeFirstStep). Null for an incident
 * a person raised, or whose integration is deleted.
 */
async function integrationSourceOf(
  tx: Tx,
  deps: StepDeps,
  incident: LockedIncident,
): Promise<IntegrationSource | null> {
  const { page } = incident;
  if (page.integrationId === null) return null;
  const [row] = await tx
    .select({ name: integrations.name, alertId: alerts.id, eventEnc: alerts.eventEnc })
    .from(integrations)
    .leftJoin(alerts, and(eq(alerts.pageId, page.id), eq(alerts.action, 'trigger')))
    .where(eq(integrations.id, page.integrationId))
    .orderBy(asc(alerts.id))
    .limit(1);
  if (!row) return null;
  return {
    integrationId: page.integrationId,
    name: row.name,
    facts: {
      severity: page.severity as Severity,
      event: row.alertId === null ? null : openAlertEvent(deps, row.alertId, row.eventEnc),
      stormAlerts: page.storm
        ? ((await countIncidentAlerts(tx, [page.id])).get(page.id)?.alertCount ?? 0)
        : null,
    },
  };
}

/** openAlertEvent opens an alert's sealed event; null when it cannot be read (the page says less). */
function openAlertEvent(
  deps: StepDeps,
  alertId: number,
  sealed: string | null,
): AlertFacts['event'] {
  if (sealed === null) return null;
  try {
    const value = JSON.parse(
      deps.cipher.decrypt(sealed, { table: 'alerts', column: 'event', rowId: alertId }),
    ) as Partial<NonNullable<AlertFacts['event']>>;
    return {
      summary: typeof value.summary === 'string' ? value.summary : '',
      source: typeof value.source === 'string' ? value.source : '',
      details: Array.isArray(value.details) ? value.details : [],
      links: Array.isArray(value.links) ? value.links : [],
    };
  } catch {
    return null;
  }
}

/**
 * followUpEvent: this incident, into the person's follow-up of its integration instead of a page
 * (announced with the step's other events).
 */
export function followUpEvent(
  deps: StepDeps,
  incident: LockedIncident,
  source: IntegrationSource,
  to: { page: PageRef; rotation: RotationFacts; at: Date; person: User; why: FollowUpReason },
): PageFollowUpEvent {
  const { page } = incident;
  const { person, why } = to;
  return {
    type: 'page.follow_up',
    key: `page:${page.id}`,
    at: to.at,
    page: to.page,
    rotation: to.rotation,
    told: [{ person, as: 'to', why }],
    integration: { id: source.integrationId, name: source.name },
    incident: {
      title: titleOf(page, deps),
      severity: page.severity as Severity,
      source: source.facts.event?.source.trim() || null,
    },
  };
}
