import { zoneOrUtc } from '../../../shared/domain/time-zones';

/**
 * The one layout of Baton's notifications (decision 185): every message of the catalog
 * (messages.ts) is written as parts, and `composeMessage` lays them out as a subject, a plain-text
 * body, an HTML body (both with a link back to Baton) and a short SMS. Pure: times, zones and
 * addresses come in.
 */

/** One notification's words, as the outbox stores them (outbox.ts seals them at rest). */
export interface MessageContent {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

export interface Link {
  label: string;
  url: string;
}

/** A table cell: text, or a link (an anchor in the email when its address is http or https). */
export type Cell = string | Link;

/**
 * A table of the email (an alert's labels and annotations, the incidents of a follow-up): with a
 * header, one column a heading; without, label and value rows. The plain text writes it as lines.
 */
export interface MessageTable {
  caption?: string;
  header?: string[];
  rows: Cell[][];
}

/** What a message says, before the layout. */
export interface MessageParts {
  subject: string;
  /** the opening sentence */
  lead: string;
  /** quoted free text: handoff notes, the page's message */
  quote?: { label: string; text: string } | null;
  details?: [string, string][];
  /** tables after the details, each with its caption */
  tables?: MessageTable[];
  /** links back to where the message comes from (an alert's source), after the tables */
  links?: Link[];
  /** further sentences after the details */
  after?: string[];
  action: Link;
  secondary?: Link;
  sms: string;
  /**
   * The zone the message's times are written in (formatWhen), given by every message whose email
   * shows a time: the email then says "Times are in {zone}.".
   */
  timeZone?: string;
  /** the SMS shows a time too: it ends with "Times in {zone}." */
  smsShowsTime?: boolean;
}

/** formatWhen writes an instant for a reader in their time zone, with the zone's abbreviation. */
export function formatWhen(at: Date, timeZone = 'UTC'): string {
  return whenFormatter(timeZone).format(at);
}

const WHEN_OPTIONS: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};
/** One formatter per zone (making one costs far more than using it); an unknown zone reads UTC. */
const whenFormatters = new Map<string, Intl.DateTimeFormat>();

function whenFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = whenFormatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', { ...WHEN_OPTIONS, timeZone });
    } catch {
      formatter = whenFormatter('UTC');
    }
    // Zones are a short list (IANA names); the bound only guards against odd stored values.
    if (whenFormatters.size < 1000) whenFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** escapeHtml makes text safe inside an element or a quoted attribute of the HTML body. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const multiline = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>');

const indent = (value: string) =>
  value
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');

/** isWebUrl tells whether an address is http or https: only those become links. */
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

const cellText = (cell: Cell) =>
  typeof cell === 'string' ? cell : isWebUrl(cell.url) ? `${cell.label} (${cell.url})` : cell.label;

const cellHtml = (cell: Cell) =>
  typeof cell === 'string'
    ? multiline(cell)
    : isWebUrl(cell.url)
      ? `<a href="${escapeHtml(cell.url)}">${escapeHtml(cell.label)}</a>`
      : escapeHtml(cell.label);

function tableText(table: MessageTable): string {
  const rows = table.rows.map((row) =>
    !table.header && row.length === 2
      ? `${cellText(row[0])}: ${cellText(row[1])}`
      : `- ${row.map(cellText).join(' · ')}`,
  );
  return [...(table.caption ? [`${table.caption}:`] : []), ...rows].join('\n');
}

const CELL = 'padding:4px 12px 4px 0;border-bottom:1px solid #e2e8f0;vertical-align:top';

function tableHtml(table: MessageTable): string {
  const caption = table.caption
    ? `<p style="margin:0 0 4px;font-weight:600">${escapeHtml(table.caption)}</p>`
    : '';
  const header = table.header
    ? `<tr>${table.header.map((h) => `<th style="${CELL};text-align:left;color:#64748b;font-weight:600">${escapeHtml(h)}</th>`).join('')}</tr>`
    : '';
  const rows = table.rows
    .map(
      (row) =>
        `<tr>${row
          .map((cell, i) =>
            !table.header && i === 0
              ? `<td style="${CELL};color:#64748b;white-space:nowrap">${cellHtml(cell)}</td>`
              : `<td style="${CELL};word-break:break-word">${cellHtml(cell)}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('');
  return `${caption}<table style="margin:0 0 16px;border-collapse:collapse;width:100%;font-size:14px">${header}${rows}</table>`;
}

const linksText = (links: Link[]) =>
  [
    'Links:',
    ...links.map((l) => (isWebUrl(l.url) ? `- ${l.label}: ${l.url}` : `- ${l.label}`)),
  ].join('\n');

const linksHtml = (links: Link[]) =>
  `<p style="margin:0 0 4px;font-weight:600">Links</p><ul style="margin:0 0 16px;padding-left:20px">${links
    .map((l) => `<li>${cellHtml(l)}</li>`)
    .join('')}</ul>`;

/** shorten cuts free text for an SMS. */
export function shorten(value: string, max: number): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/**
 * composeMessage lays a message's parts out. The zone line names the zone formatWhen wrote the
 * times in: the reader's, or UTC when theirs is not one the runtime knows.
 */
export function composeMessage(parts: MessageParts, baseUrl: string): MessageContent {
  const zone = parts.timeZone === undefined ? null : zoneOrUtc(parts.timeZone);
  const zoneLine = zone === null ? null : `Times are in ${zone}.`;
  const text = [
    parts.lead,
    ...(parts.quote ? [`${parts.quote.label}:\n${indent(parts.quote.text)}`] : []),
    ...(parts.details?.length ? [parts.details.map(([k, v]) => `${k}: ${v}`).join('\n')] : []),
    ...(parts.tables ?? []).map(tableText),
    ...(parts.links?.length ? [linksText(parts.links)] : []),
    ...(parts.after ?? []),
    ...(zoneLine ? [zoneLine] : []),
    `${parts.action.label}: ${parts.action.url}`,
    ...(parts.secondary ? [`${parts.secondary.label}: ${parts.secondary.url}`] : []),
    `-- \nBaton, ${baseUrl}`,
  ].join('\n\n');

  const p = (inner: string) => `<p style="margin:0 0 16px">${inner}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">',
    p(escapeHtml(parts.lead)),
    parts.quote
      ? `<p style="margin:0 0 4px;font-weight:600">${escapeHtml(parts.quote.label)}</p><blockquote style="margin:0 0 16px;padding:8px 12px;border-left:3px solid #cbd5e1;background:#f8fafc">${multiline(parts.quote.text)}</blockquote>`
      : '',
    parts.details?.length
      ? `<table style="margin:0 0 16px;border-collapse:collapse">${parts.details
          .map(
            ([k, v]) =>
              `<tr><td style="padding:2px 12px 2px 0;color:#64748b">${escapeHtml(k)}</td><td style="padding:2px 0">${escapeHtml(v)}</td></tr>`,
          )
          .join('')}</table>`
      : '',
    ...(parts.tables ?? []).map(tableHtml),
    parts.links?.length ? linksHtml(parts.links) : '',
    ...(parts.after ?? []).map((line) => p(escapeHtml(line))),
    zoneLine
      ? `<p style="margin:0 0 16px;color:#64748b;font-size:14px">${escapeHtml(zoneLine)}</p>`
      : '',
    p(
      `<a href="${escapeHtml(parts.action.url)}" style="display:inline-block;padding:10px 16px;border-radius:6px;background:#0f172a;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(parts.action.label)}</a>`,
    ),
    parts.secondary
      ? p(`<a href="${escapeHtml(parts.secondary.url)}">${escapeHtml(parts.secondary.label)}</a>`)
      : '',
    `<p style="margin:24px 0 0;color:#64748b;font-size:12px">Sent by <a href="${escapeHtml(baseUrl)}" style="color:#64748b">Baton</a>, your team's on-call rotations.</p>`,
    '</body></html>',
  ].join('');

  const sms = parts.smsShowsTime ? `${parts.sms} Times in ${zone ?? 'UTC'}.` : parts.sms;
  return { subject: parts.subject, text, html, sms };
}
