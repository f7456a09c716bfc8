import type { z } from 'zod';
import type { AlertDetailRow, AlertLink } from '../../../shared/contracts/alerts';
import { INCIDENT_MESSAGES } from '../../../shared/contracts/incidents';
import {
  type AlertList,
  type AlertListQuerySchema,
  type AlertRecord,
  INTEGRATION_MESSAGES,
} from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
import { canViewIntegration } from '../../../shared/domain/integrations';
import type { FieldCipher } from '../../crypto/field-crypto';
import { forbidden, notFound } from '../../http/errors';
import { findIncidentRow } from '../incidents/incident-repository';
import {
  type AlertWithIntegration,
  listAlertRows,
  listIntegrationRowsOfIncident,
} from '../integrations/integration-repository';
import {
  factsOf,
  type IntegrationDeps,
  loadDeciders,
  readableIntegration,
} from '../integrations/integration-service';

// The alert lists: an integration's alerts, and an incident's, each a page newest first.

/** The alert lists' page size. */
export const ALERT_PAGE_SIZE = 50;

/** The sealed alert envelope's and raw payload's associated data (alert-intake.ts seals them). */
const alertEventCtx = (alertId: number) => ({ table: 'alerts', column: 'event', rowId: alertId });
const alertPayloadCtx = (alertId: number) => ({
  table: 'alerts',
  column: 'payload',
  rowId: alertId,
});

type ParsedAlertQuery = z.output<typeof AlertListQuerySchema>;

const stringOr = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function detailRowsOf(value: unknown): AlertDetailRow[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) =>
    v && typeof v === 'object' && typeof v.label === 'string' && typeof v.value === 'string'
      ? [{ section: stringOr(v.section) ?? '', label: v.label, value: v.value }]
      : [],
  );
}

function linksOf(value: unknown): AlertLink[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) =>
    v && typeof v === 'object' && typeof v.href === 'string'
      ? [{ href: v.href, text: stringOr(v.text) ?? v.href }]
      : [],
  );
}

/** toAlertRecord opens an alert's sealed envelope and payload as the alert lists show them. */
function toAlertRecord(cipher: FieldCipher, found: AlertWithIntegration): AlertRecord {
  const a = found.alert;
  const event = JSON.parse(cipher.decrypt(a.eventEnc, alertEventCtx(a.id))) as Record<
    string,
    unknown
  >;
  return {
    id: a.id,
    integrationId: a.integrationId,
    integrationName: found.integrationName,
    incidentId: a.pageId,
    format: a.format as AlertRecord['format'],
    action: a.action as AlertRecord['action'],
    outcome: a.outcome as AlertRecord['outcome'],
    summary: stringOr(event.summary) ?? '',
    source: stringOr(event.source),
    severity: (a.severity as AlertRecord['severity']) ?? null,
    details: detailRowsOf(event.details),
    links: linksOf(event.links),
    receivedAt: a.receivedAt.toISOString(),
    lastSeenAt: a.lastSeenAt.toISOString(),
    seenCount: a.seenCount,
    payload: a.payloadEnc === null ? null : cipher.decrypt(a.payloadEnc, alertPayloadCtx(a.id)),
    payloadCut: a.payloadCut,
  };
}

async function alertPage(
  deps: IntegrationDeps,
  of: { integrationId: number } | { incidentId: number },
  query: ParsedAlertQuery,
): Promise<AlertList> {
  const rows = await listAlertRows(deps.database.db, of, {
    limit: ALERT_PAGE_SIZE + 1,
    before: query.before,
  });
  const shown = rows.slice(0, ALERT_PAGE_SIZE);
  return {
    alerts: shown.map((row) => toAlertRecord(deps.cipher, row)),
    nextCursor: rows.length > ALERT_PAGE_SIZE ? shown[shown.length - 1].alert.id : null,
  };
}

/** listIntegrationAlerts answers a page of an integration's alerts, newest first (404, 403). */
export async function listIntegrationAlerts(
  deps: IntegrationDeps,
  viewer: User,
  id: number,
  query: ParsedAlertQuery,
): Promise<AlertList> {
  await readableIntegration(deps, viewer, id);
  return alertPage(deps, { integrationId: id }, query);
}

/**
 * listIncidentAlerts answers a page of the alerts an incident received, newest first (404 for a
 * missing incident). The incident reads to every role (decision 205), but its alerts carry the
 * raw payloads of an integration: only those who may see every integration the alerts came from
 * read them (canViewIntegration, as the integration's own list), anyone else 403 (decision 235).
 */
export async function listIncidentAlerts(
  deps: IntegrationDeps,
  viewer: User,
  incidentId: number,
  query: ParsedAlertQuery,
): Promise<AlertList> {
  const db = deps.database.db;
  if (!(await findIncidentRow(db, incidentId))) {
    throw notFound(INCIDENT_MESSAGES.notFound);
  }
  const sources = await listIntegrationRowsOfIncident(db, incidentId);
  const deciders = await loadDeciders(db, sources);
  if (!sources.every((row) => canViewIntegration(viewer, factsOf(row, deciders)))) {
    throw forbidden(INTEGRATION_MESSAGES.mayNotViewAlerts);
  }
  return alertPage(deps, { incidentId }, query);
}
