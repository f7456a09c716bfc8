import type { z } from 'zod';
import type { AlertDetailRow, AlertLink, PagerDutySeverity } from '../../contracts/alerts';
import { type Severity, TITLE_MAX } from '../../contracts/incidents';
import type { URGENCIES } from '../../contracts/rotations';

type Urgency = (typeof URGENCIES)[number];

/**
 * Inbound alerts, translated (issue 17, decision 208): each vendor's parsed body becomes Baton's
 * normalized alert event(s), with no clock, no database and no randomness (a generated dedup key is
 * passed in), so the routes only authenticate, parse, call these and store. This file holds what
 * every format shares; each wire format has its own file beside it (decision 244).
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

/** PagerDuty's severity words: critical → P1, error → P2, warning and info → P3. */
export function severityOfPagerDuty(severity: PagerDutySeverity): Severity {
  return PAGERDUTY_SEVERITY[severity];
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
/** highest returns the most severe of `severities` (P3 when there are none). */
export function highest(severities: Severity[]): Severity {
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

/** cutValue returns a details value cut to DETAIL_VALUE_MAX characters, with an ellipsis. */
export function cutValue(value: string): string {
  return value.length <= DETAIL_VALUE_MAX ? value : `${value.slice(0, DETAIL_VALUE_MAX - 1)}…`;
}

/** valueText returns a JSON value as the text of a details row. */
export function valueText(value: unknown): string {
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

/** mapRows returns a label map as details rows of `section`, labels sorted. */
export function mapRows(section: string, map: Record<string, string>): AlertDetailRow[] {
  return Object.keys(map)
    .sort()
    .map((label) => ({ section, label, value: cutValue(map[label] ?? '') }));
}

/** capRows returns at most DETAIL_ROWS_MAX rows. */
export function capRows(rows: AlertDetailRow[]): AlertDetailRow[] {
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

/** linksOf returns the safe, distinct links of `candidates`, a link's text its URL when empty. */
export function linksOf(candidates: { href: string | undefined; text: string }[]): AlertLink[] {
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

/** alertEvent builds an AlertEvent: the summary made one line (the full text kept in details when cut), the urgency set, the details capped. */
export function alertEvent(
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
// Time and validation

/** realTime returns an ISO 8601 time, or undefined for Alertmanager's zero time ("not set"). */
export function realTime(at: string | undefined): string | undefined {
  if (at === undefined) return undefined;
  const ms = Date.parse(at);
  return ms > Date.parse('0001-01-02T00:00:00Z') ? new Date(ms).toISOString() : undefined;
}

/** zodPath returns a zod issue's path as a field name: `payload.severity`, `links[0].href`. */
export function zodPath(path: readonly PropertyKey[]): string {
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
