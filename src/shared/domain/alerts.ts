import type { z } from 'zod';
import type {
  AlertDetailRow,
  AlertLink,
  AlertmanagerAlert,
  AlertmanagerWebhook,
  GenericAlert,
  GrafanaAlert,
  GrafanaWebhook,
  OpsgenieAlertAction,
  OpsgenieCreateAlert,
  OpsgenieError,
  OpsgenieIdentifierType,
  OpsgeniePriority,
  PagerDutyEvent,
  PagerDutyInvalid,
  PagerDutySeverity,
} from '../contracts/alerts';

import { type Severity, TITLE_MAX } from '../contracts/incidents';
import type { EMAIL_DEDUPS } from '../contracts/integrations';
import type { URGENCIES } from '../contracts/rotations';

type Urgency = (typeof URGENCIES)[number];

/**
 * Inbound alerts, translated (issue 17, decision 208): each vendor's parsed body becomes Baton's
 * normalized alert event(s), with no clock, no database and no randomness (a generated dedup key is
 * passed in), so the routes only authenticate, parse, call these and store.
 */

export const ALERT_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];

export interface AlertEvent {
  action: AlertAction;
  dedupKey: string;
  /** one line, at most TITLE_MAX characters (the full text stays in details when cut) */
  summary: string;
  source: string;
  severity: Severity;
  urgency: Urgency;
  details: AlertDetailRow[];
  /** only http and https links: they are rendered as anchors */
  links: AlertLink[];
  /** when the source says the alert happened (ISO 8601), if it says */
  occurredAt?: string;
}

/** A sender's dedup key, or the generated one when it sent none (or only white space). */
export function dedupKeyOr(sent: string | undefined, generated: string): string {
  return sent !== undefined && sent.trim() !== '' ? sent : generated;
}

/** What the integration sets: its urgency, when it overrides the severity's. */
export interface NormalizeOptions {
  urgency?: Urgency;
}

/** The most rows and the longest value kept in a details table (the raw payload keeps the rest). */
export const DETAIL_ROWS_MAX = 200;
export const DETAIL_VALUE_MAX = 2_000;

// ---------------------------------------------------------------------------------------------
// Severity and urgency

const PAGERDUTY_SEVERITY: Record<PagerDutySeverity, Severity> = {
  critical: 'P1',
  error: 'P2',
  warning: 'P3',
  info: 'P3',
};
const OPSGENIE_SEVERITY: Record<OpsgeniePriority, Severity> = {
  P1: 'P1',
  P2: 'P2',
  P3: 'P3',
  P4: 'P3',
  P5: 'P3',
};

/** PagerDuty's severity words: critical → P1, error → P2, warning and info → P3. */
export function severityOfPagerDuty(severity: PagerDutySeverity): Severity {
  return PAGERDUTY_SEVERITY[severity];
}

/** Opsgenie's priority: P1 → P1, P2 → P2, P3 to P5 → P3; none is Opsgenie's default, P3. */
export function severityOfOpsgenie(priority: OpsgeniePriority | undefined): Severity {
  return OPSGENIE_SEVERITY[priority ?? 'P3'];
}

/**
 * An Alertmanager `severity` label read like PagerDuty's words (any case, surrounding spaces
 * ignored); a missing or other label is P2, as Alertmanager's own PagerDuty receiver sends `error`.
 */
export function severityOfLabel(label: string | undefined): Severity {
  const word = label?.trim().toLowerCase();
  return word !== undefined && Object.hasOwn(PAGERDUTY_SEVERITY, word)
    ? PAGERDUTY_SEVERITY[word as PagerDutySeverity]
    : 'P2';
}

/** P1 and P2 are high urgency, P3 low, unless the integration sets one. */
export function urgencyOf(severity: Severity, options: NormalizeOptions = {}): Urgency {
  return options.urgency ?? (severity === 'P3' ? 'low' : 'high');
}

const SEVERITY_RANK: Record<Severity, number> = { P1: 1, P2: 2, P3: 3 };
function highest(severities: Severity[]): Severity {
  return severities.reduce<Severity>((a, b) => (SEVERITY_RANK[b] < SEVERITY_RANK[a] ? b : a), 'P3');
}

// ---------------------------------------------------------------------------------------------
// Text helpers

/** summaryLine makes one line of at most TITLE_MAX characters; it tells whether it cut. */
export function summaryLine(raw: string): { summary: string; cut: boolean } {
  const flat = raw.replace(/\s+/g, ' ').trim();
  if (flat.length <= TITLE_MAX) return { summary: flat, cut: flat !== raw.trim() };
  return { summary: `${[...flat].slice(0, TITLE_MAX - 1).join('')}…`, cut: true };
}

function cutValue(value: string): string {
  return value.length <= DETAIL_VALUE_MAX ? value : `${value.slice(0, DETAIL_VALUE_MAX - 1)}…`;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * flattenDetails turns any JSON value into readable rows: objects and arrays become dotted
 * labels (`disk.used`, `hosts.0`), scalars their text. A bare scalar is one row named `details`.
 */
export function flattenDetails(section: string, value: unknown, prefix = ''): AlertDetailRow[] {
  const rows: AlertDetailRow[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (rows.length >= DETAIL_ROWS_MAX) return;
    if (v !== null && typeof v === 'object' && depth < 8) {
      const entries = Array.isArray(v)
        ? v.map((x, i) => [String(i), x] as const)
        : Object.entries(v);
      if (entries.length === 0) {
        rows.push({ section, label: path || 'details', value: Array.isArray(v) ? '[]' : '{}' });
        return;
      }
      for (const [k, x] of entries) walk(x, path ? `${path}.${k}` : k, depth + 1);
      return;
    }
    rows.push({ section, label: path || 'details', value: cutValue(valueText(v)) });
  };
  walk(value, prefix, 0);
  return rows;
}

function mapRows(section: string, map: Record<string, string>): AlertDetailRow[] {
  return Object.keys(map)
    .sort()
    .map((label) => ({ section, label, value: cutValue(map[label] ?? '') }));
}

function capRows(rows: AlertDetailRow[]): AlertDetailRow[] {
  return rows.slice(0, DETAIL_ROWS_MAX);
}

/** Only absolute http(s) URLs become links; anything else (javascript:, relative, '') is dropped. */
export function safeHref(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function linksOf(candidates: { href: string | undefined; text: string }[]): AlertLink[] {
  const seen = new Set<string>();
  const links: AlertLink[] = [];
  for (const c of candidates) {
    const href = safeHref(c.href);
    if (href === undefined || seen.has(href)) continue;
    seen.add(href);
    links.push({ href, text: c.text.trim() || href });
  }
  return links;
}

function event(
  base: Omit<AlertEvent, 'summary' | 'urgency' | 'details'> & {
    rawSummary: string;
    details: AlertDetailRow[];
  },
  options: NormalizeOptions,
): AlertEvent {
  const { rawSummary, details, ...rest } = base;
  const { summary, cut } = summaryLine(rawSummary);
  const rows = cut
    ? [{ section: 'Summary', label: 'summary', value: cutValue(rawSummary) }, ...details]
    : details;
  return {
    ...rest,
    summary: summary || 'Alert',
    urgency: urgencyOf(base.severity, options),
    details: capRows(rows),
  };
}

// ---------------------------------------------------------------------------------------------
// PagerDuty Events API v2

/**
 * normalizePagerDuty turns a PagerDuty event into Baton's. A trigger without dedup_key takes
 * `generatedDedupKey` (the caller makes it, and returns it in the answer). Acknowledge and resolve
 * carry no payload worth reading: their summary, source and severity are placeholders the engine
 * does not use to open anything.
 */
export function normalizePagerDuty(
  body: PagerDutyEvent,
  generatedDedupKey: string,
  options: NormalizeOptions = {},
): AlertEvent {
  if (body.event_action !== 'trigger') {
    return event(
      {
        action: body.event_action,
        dedupKey: body.dedup_key,
        rawSummary:
          body.event_action === 'resolve' ? 'Resolved by source' : 'Acknowledged by source',
        source: body.client ?? 'PagerDuty Events API',
        severity: 'P3',
        details: [],
        links: [],
      },
      options,
    );
  }
  const p = body.payload;
  const fields: AlertDetailRow[] = [];
  for (const [label, value] of [
    ['component', p.component],
    ['group', p.group],
    ['class', p.class],
    ['client', body.client],
  ] as const) {
    if (value) fields.push({ section: 'Event', label, value: cutValue(value) });
  }
  const severity = severityOfPagerDuty(p.severity);
  return event(
    {
      action: 'trigger',
      dedupKey: dedupKeyOr(body.dedup_key, generatedDedupKey),
      rawSummary: p.summary,
      source: p.source,
      severity,
      details: [
        ...fields,
        ...(p.custom_details === undefined ? [] : flattenDetails('Details', p.custom_details)),
      ],
      links: linksOf([
        { href: body.client_url, text: body.client ?? 'Source' },
        ...(body.links ?? []).map((l) => ({ href: l.href, text: l.text ?? '' })),
        ...(body.images ?? []).map((i) => ({ href: i.href, text: i.alt ?? 'Image' })),
      ]),
      occurredAt: p.timestamp === undefined ? undefined : new Date(p.timestamp).toISOString(),
    },
    options,
  );
}

function zodPath(path: readonly PropertyKey[]): string {
  return path
    .map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i === 0 ? '' : '.'}${String(k)}`))
    .join('');
}

/** The field paths and messages of a zod error, one string each: "payload.severity: ...". */
export function issueMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = zodPath(issue.path);
    // Our messages already start with the field's name; zod's own ones do not.
    const named = path === '' || issue.message.startsWith(path.replace(/\[\d+\]/g, '[]'));
    return named ? issue.message : `${path}: ${issue.message}`;
  });
}

/** PagerDuty's 400 answer: `{status: 'invalid event', message, errors}` naming each bad field. */
export function pagerDutyInvalid(error: z.ZodError): PagerDutyInvalid {
  return {
    status: 'invalid event',
    message: 'Event object is invalid',
    errors: issueMessages(error),
  };
}

// ---------------------------------------------------------------------------------------------
// Opsgenie Alert API

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
  return event(
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
  return event(
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

// ---------------------------------------------------------------------------------------------
// Alertmanager (version 4) and Grafana (version 1)

export type AlertGrouping = 'group' | 'fingerprint';

type AnyGroup = AlertmanagerWebhook | GrafanaWebhook;
type AnyAlert = AlertmanagerAlert | GrafanaAlert;

// Alertmanager's zero time ("0001-01-01T00:00:00Z") means "not set".
function realTime(at: string | undefined): string | undefined {
  if (at === undefined) return undefined;
  const ms = Date.parse(at);
  return ms > Date.parse('0001-01-02T00:00:00Z') ? new Date(ms).toISOString() : undefined;
}

function earliest(times: (string | undefined)[]): string | undefined {
  const real = times.filter((t): t is string => t !== undefined).sort();
  return real[0];
}

function alertLinks(alert: AnyAlert): { href: string | undefined; text: string }[] {
  const g = alert as GrafanaAlert;
  return [
    { href: alert.generatorURL, text: 'Source' },
    { href: g.dashboardURL, text: 'Dashboard' },
    { href: g.panelURL, text: 'Panel' },
    { href: g.silenceURL, text: 'Silence' },
    { href: g.imageURL, text: 'Image' },
  ];
}

function alertRows(alert: AnyAlert, section: string): AlertDetailRow[] {
  const g = alert as GrafanaAlert;
  const values = g.values
    ? Object.keys(g.values)
        .sort()
        .map((label) => ({
          section: `${section}Values`,
          label,
          value: valueText(g.values?.[label] ?? null),
        }))
    : [];
  return [
    ...mapRows(`${section}Labels`, alert.labels),
    ...mapRows(`${section}Annotations`, alert.annotations),
    ...values,
  ];
}

function sourceOf(labels: Record<string, string>, fallback: string): string {
  return labels.instance || labels.job || labels.service || fallback;
}

function summaryOfAlert(alert: AnyAlert): string {
  return (
    alert.annotations.summary ||
    alert.labels.alertname ||
    Object.values(alert.labels).join(' ') ||
    'Alert'
  );
}

function vendorOf(body: AnyGroup): string {
  return body.version === '1' ? 'Grafana' : 'Alertmanager';
}

function groupEvent(body: AnyGroup, options: NormalizeOptions): AlertEvent {
  const vendor = vendorOf(body);
  const firing = body.alerts.filter((a) => a.status === 'firing');
  const counted = firing.length > 0 ? firing : body.alerts;
  const severity = highest(
    counted.map((a) => severityOfLabel(a.labels.severity ?? body.commonLabels.severity)),
  );
  const base =
    body.commonAnnotations.summary ||
    (body.alerts.length === 1 ? summaryOfAlert(body.alerts[0] as AnyAlert) : '') ||
    body.commonLabels.alertname ||
    Object.values(body.groupLabels).join(' ') ||
    `${vendor} alert`;
  const total = body.alerts.length + body.truncatedAlerts;
  const grafanaTitle = body.version === '1' ? body.title : undefined;
  const rawSummary = grafanaTitle || (total > 1 ? `${base} (${total} alerts)` : base);
  const perAlert =
    body.alerts.length === 1
      ? alertRows(body.alerts[0] as AnyAlert, '')
      : [
          ...mapRows('Common labels', body.commonLabels),
          ...mapRows('Common annotations', body.commonAnnotations),
          ...body.alerts.flatMap((a) =>
            alertRows(a, `Alert ${a.fingerprint.slice(0, 8)} (${a.status}) · `),
          ),
        ];
  const extra: AlertDetailRow[] = [];
  if (body.truncatedAlerts > 0) {
    extra.push({ section: vendor, label: 'truncated alerts', value: String(body.truncatedAlerts) });
  }
  if (body.version === '1' && body.message) {
    extra.push({ section: vendor, label: 'message', value: cutValue(body.message) });
  }
  return event(
    {
      action: body.status === 'firing' ? 'trigger' : 'resolve',
      dedupKey: body.groupKey,
      rawSummary,
      source: sourceOf(body.commonLabels, vendor),
      severity,
      details: [...extra, ...perAlert],
      links: linksOf([
        ...body.alerts.flatMap(alertLinks),
        { href: body.externalURL, text: vendor },
      ]),
      occurredAt:
        body.status === 'firing'
          ? earliest(counted.map((a) => realTime(a.startsAt)))
          : earliest(body.alerts.map((a) => realTime(a.endsAt))),
    },
    options,
  );
}

function fingerprintEvent(body: AnyGroup, alert: AnyAlert, options: NormalizeOptions): AlertEvent {
  const vendor = vendorOf(body);
  return event(
    {
      action: alert.status === 'firing' ? 'trigger' : 'resolve',
      dedupKey: alert.fingerprint,
      rawSummary: summaryOfAlert(alert),
      source: sourceOf(alert.labels, vendor),
      severity: severityOfLabel(alert.labels.severity),
      details: alertRows(alert, ''),
      links: linksOf([...alertLinks(alert), { href: body.externalURL, text: vendor }]),
      occurredAt: realTime(alert.status === 'firing' ? alert.startsAt : alert.endsAt),
    },
    options,
  );
}

/**
 * normalizeAlertGroup turns an Alertmanager or Grafana message into events: by default one for the
 * group key (firing → trigger, resolved → resolve, as Alertmanager's own PagerDuty receiver does),
 * or one per alert fingerprint when the integration asks. Never keyed by summary, which would
 * merge unrelated alerts. The same group sent again gives the same events.
 */
export function normalizeAlertGroup(
  body: AnyGroup,
  grouping: AlertGrouping = 'group',
  options: NormalizeOptions = {},
): AlertEvent[] {
  if (grouping === 'group') return [groupEvent(body, options)];
  const byFingerprint = new Map<string, AnyAlert>();
  for (const alert of body.alerts) byFingerprint.set(alert.fingerprint, alert);
  return [...byFingerprint.values()].map((a) => fingerprintEvent(body, a, options));
}

// ---------------------------------------------------------------------------------------------
// Email

/** How email becomes incidents: one per subject, or every message its own. */
export type EmailDedup = (typeof EMAIL_DEDUPS)[number];

/**
 * What the SMTP listener reads of one message, decoded: the text body (an HTML-only message's
 * HTML already turned into text), the From header as written and its address.
 */
export interface InboundEmail {
  /** the From header as written (`Cron Daemon <root@db1.example.com>`), or the envelope sender */
  from: string;
  /** the sender's address alone (the alert's source); '' when there is none (a bounce) */
  fromAddress: string;
  subject: string;
  text: string;
  /** the Message-ID header, angle brackets included */
  messageId?: string;
  /** the Date header (ISO 8601), when it holds a valid date */
  date?: string;
}

/** The most links read out of an email's body. */
export const EMAIL_LINKS_MAX = 10;

// Mail may carry what PostgreSQL cannot store or no person types (NUL, other controls, a lone
// surrogate from a broken encoded word): they become U+FFFD, tabs and line breaks stay. HTML's
// &nbsp; (rendered as U+00A0) becomes a plain space, so the text copies and searches as it reads.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const MAIL_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
function mailText(value: string): string {
  return value
    .replace(MAIL_CONTROL, '\uFFFD')
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/\u00A0/g, ' ');
}

// http(s) URLs in running text; the punctuation that usually closes a sentence is not theirs.
const URL_IN_TEXT = /https?:\/\/[^\s<>"'[\]{}|\\^`]+/g;
function urlsIn(text: string): string[] {
  return (text.match(URL_IN_TEXT) ?? []).map((u) => u.replace(/[.,;:!?)]+$/, ''));
}

/**
 * normalizeEmail turns one email into a trigger: the subject is the summary, the From address the
 * source, and From, Subject and the body (cut at DETAIL_VALUE_MAX; the raw message keeps the rest)
 * the details, with the body's first http(s) links. Dedup `subject`: messages with the same
 * subject (white space folded) are one alert; `message`: each message its own, keyed by its
 * Message-ID (a retried delivery is still the same one) or, without one, `generatedDedupKey`.
 * Email carries no severity Baton can trust: P2.
 */
export function normalizeEmail(
  mail: InboundEmail,
  dedup: EmailDedup,
  generatedDedupKey: string,
  options: NormalizeOptions = {},
): AlertEvent {
  const subject = mailText(mail.subject).replace(/\s+/g, ' ').trim();
  const fromAddress = mailText(mail.fromAddress).trim();
  const from = mailText(mail.from).trim() || fromAddress;
  const body = mailText(mail.text).trim();
  const title = subject || `Email from ${fromAddress || 'an unknown sender'}`;
  const details: AlertDetailRow[] = [];
  if (from) details.push({ section: 'Email', label: 'From', value: cutValue(from) });
  details.push({ section: 'Email', label: 'Subject', value: cutValue(subject || '(no subject)') });
  if (body) details.push({ section: 'Email', label: 'Body', value: cutValue(body) });
  return event(
    {
      action: 'trigger',
      dedupKey: dedup === 'message' ? dedupKeyOr(mail.messageId, generatedDedupKey) : title,
      rawSummary: title,
      source: fromAddress || 'Email',
      severity: 'P2',
      details,
      links: linksOf(urlsIn(body).map((href) => ({ href, text: '' }))).slice(0, EMAIL_LINKS_MAX),
      occurredAt: mail.date === undefined ? undefined : realTime(mail.date),
    },
    options,
  );
}

// ---------------------------------------------------------------------------------------------
// Generic

/** normalizeGeneric: `action=close` resolves `dedup`; anything else triggers (no dedup: generated). */
export function normalizeGeneric(
  body: GenericAlert,
  generatedDedupKey: string,
  options: NormalizeOptions = {},
): AlertEvent {
  const closing = body.action === 'close';
  const severity: Severity = 'P2';
  return event(
    {
      action: closing ? 'resolve' : 'trigger',
      dedupKey: dedupKeyOr(body.dedup, generatedDedupKey),
      rawSummary: body.summary ?? (closing ? 'Resolved by source' : 'Alert'),
      source: 'Generic API',
      severity,
      details: body.details
        ? [{ section: 'Details', label: 'details', value: cutValue(body.details) }]
        : [],
      links: [],
    },
    options,
  );
}

// ---------------------------------------------------------------------------------------------
// An incident raised by an alert

/**
 * alertDescription is the description of an incident an alert raised: its source, then its details
 * as "label: value" lines under their section, then its links, at most `max` characters (cut with
 * "…"), so the incident reads like a page on every screen that shows a description.
 */
export function alertDescription(alert: AlertEvent, max = 10_000): string {
  const lines = [`Source: ${alert.source}`];
  let section: string | undefined;
  for (const row of alert.details) {
    if (row.section !== section) {
      section = row.section;
      lines.push('', `${section}:`);
    }
    lines.push(`  ${row.label}: ${row.value.replace(/\s*\n\s*/g, ' ')}`);
  }
  if (alert.links.length > 0) {
    lines.push('', 'Links:');
    for (const link of alert.links) {
      lines.push(link.text === link.href ? `  ${link.href}` : `  ${link.text}: ${link.href}`);
    }
  }
  const text = lines.join('\n');
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
