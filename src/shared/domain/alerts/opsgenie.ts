import type { z } from 'zod';
import type {
  AlertDetailRow,
  OpsgenieAlertAction,
  OpsgenieCreateAlert,
  OpsgenieError,
  OpsgenieIdentifierType,
  OpsgeniePriority,
} from '../../contracts/alerts';
import type { Severity } from '../../contracts/incidents';
import {
  type AlertEvent,
  alertEvent,
  cutValue,
  dedupKeyOr,
  issueMessages,
  linksOf,
  mapRows,
  type NormalizeOptions,
  zodPath,
} from '.';

/** Opsgenie's Alert API (decision 208): create, close and acknowledge, the alias as dedup key. */

const OPSGENIE_SEVERITY: Record<OpsgeniePriority, Severity> = {
  P1: 'P1',
  P2: 'P2',
  P3: 'P3',
  P4: 'P3',
  P5: 'P3',
};
/** Opsgenie's priority: P1 → P1, P2 → P2, P3 to P5 → P3; none is Opsgenie's default, P3. */
export function severityOfOpsgenie(priority: OpsgeniePriority | undefined): Severity {
  return OPSGENIE_SEVERITY[priority ?? 'P3'];
}
/** normalizeOpsgenieCreate turns a create-alert body into a trigger; no alias takes the generated key. */
export function normalizeOpsgenieCreate(
  body: OpsgenieCreateAlert,
  generatedDedupKey: string,
  options: NormalizeOptions = {},
): AlertEvent {
  const severity = severityOfOpsgenie(body.priority);
  const fields: AlertDetailRow[] = [];
  if (body.description) {
    fields.push({
      section: 'Description',
      label: 'description',
      value: cutValue(body.description),
    });
  }
  if (body.entity) fields.push({ section: 'Alert', label: 'entity', value: body.entity });
  if (body.tags?.length)
    fields.push({ section: 'Alert', label: 'tags', value: body.tags.join(', ') });
  if (body.note) fields.push({ section: 'Alert', label: 'note', value: cutValue(body.note) });
  if (body.user) fields.push({ section: 'Alert', label: 'user', value: body.user });
  return alertEvent(
    {
      action: 'trigger',
      dedupKey: dedupKeyOr(body.alias, generatedDedupKey),
      rawSummary: body.message,
      source: body.source ?? body.entity ?? 'Opsgenie API',
      severity,
      details: [...fields, ...mapRows('Details', body.details ?? {})],
      links: linksOf([{ href: body.source, text: 'Source' }]),
    },
    options,
  );
}

/**
 * An Opsgenie close or acknowledge names its alert by alias (Baton's dedup key), by Baton's alert
 * id or tiny id; the route resolves `id` and `tiny` to the alert before acting.
 */
export interface AlertActionByIdentifier {
  action: 'acknowledge' | 'resolve';
  identifier: string;
  identifierType: OpsgenieIdentifierType;
  source?: string;
  user?: string;
  note?: string;
}

export function normalizeOpsgenieAction(
  verb: 'close' | 'acknowledge',
  identifier: string,
  identifierType: OpsgenieIdentifierType,
  body: OpsgenieAlertAction,
): AlertActionByIdentifier {
  return {
    action: verb === 'close' ? 'resolve' : 'acknowledge',
    identifier,
    identifierType,
    ...(body.source === undefined ? {} : { source: body.source }),
    ...(body.user === undefined ? {} : { user: body.user }),
    ...(body.note === undefined ? {} : { note: body.note }),
  };
}

/**
 * eventOfAction is the acknowledge or resolve an Opsgenie close or acknowledge means for the alert
 * of `dedupKey` (the alias, or the key the route found for an id): its summary says what the
 * source did, and its user and note are kept as details.
 */
export function eventOfAction(
  action: AlertActionByIdentifier,
  dedupKey: string,
  options: NormalizeOptions = {},
): AlertEvent {
  const rows: AlertDetailRow[] = [];
  if (action.user) rows.push({ section: 'Alert', label: 'user', value: action.user });
  if (action.note) rows.push({ section: 'Alert', label: 'note', value: cutValue(action.note) });
  return alertEvent(
    {
      action: action.action,
      dedupKey,
      rawSummary: action.action === 'resolve' ? 'Closed by source' : 'Acknowledged by source',
      source: action.source ?? 'Opsgenie API',
      severity: 'P3',
      details: rows,
      links: linksOf([{ href: action.source, text: 'Source' }]),
    },
    options,
  );
}

/** Opsgenie's error answer: 422 `{message, errors: {field: message}, took, requestId}`. */
export function opsgenieError(
  error: z.ZodError,
  took: number,
  requestId: string,
): OpsgenieError & { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const messages = issueMessages(error);
  error.issues.forEach((issue, i) => {
    const key = zodPath(issue.path) || 'body';
    errors[key] = errors[key] ?? messages[i] ?? issue.message;
  });
  return {
    message: 'Request body is not processable. Please check the errors.',
    errors,
    took,
    requestId,
  };
}
