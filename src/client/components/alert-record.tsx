import type { AlertDetailRow, AlertLink } from '@shared/contracts/alerts';
import {
  ALERT_FORMAT_LABELS,
  ALERT_PAYLOAD_DROPPED,
  ALERT_PAYLOAD_KEEP,
  type AlertOutcome,
  type AlertRecord,
} from '@shared/contracts/integrations';
import { ExternalLink } from 'lucide-react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { cn } from '@/lib/utils';

/*
 * One received alert, as an integration's recent alerts and an incident's alerts show it (issue
 * 17): what happened to it, its details as a table (labels and annotations, never a JSON blob),
 * its links as anchors, and the raw payload on request. Here because two features show it.
 */

export const ALERT_OUTCOME_LABELS: Record<AlertOutcome, string> = {
  raised: 'Raised an incident',
  folded: 'Folded into the alert storm',
  updated: 'Updated its incident',
  repeated: 'Repeat',
  acknowledged: 'Acknowledged its incident',
  resolved: 'Resolved its incident',
  ignored: 'Ignored: no open incident',
};

const OUTCOME_TONES: Partial<Record<AlertOutcome, BadgeTone>> = {
  raised: 'danger',
  folded: 'warning',
  updated: 'info',
  acknowledged: 'info',
  resolved: 'success',
};

/** AlertOutcomeBadge says what an alert did: 'Raised an incident', 'Repeat', … */
export function AlertOutcomeBadge({ outcome }: { outcome: AlertOutcome }) {
  const tone = OUTCOME_TONES[outcome];
  return tone ? (
    <Badge tone={tone}>{ALERT_OUTCOME_LABELS[outcome]}</Badge>
  ) : (
    <Badge variant="outline">{ALERT_OUTCOME_LABELS[outcome]}</Badge>
  );
}

/** AlertFormatBadge names the format an alert came in: 'Alertmanager webhook', 'Test alert', … */
export function AlertFormatBadge({ format }: { format: AlertRecord['format'] }) {
  return <Badge variant="secondary">{ALERT_FORMAT_LABELS[format]}</Badge>;
}

/** detailSections groups an alert's detail rows by their section, in the order they came. */
export function detailSections(rows: readonly AlertDetailRow[]): [string, AlertDetailRow[]][] {
  const sections = new Map<string, AlertDetailRow[]>();
  for (const row of rows) {
    const list = sections.get(row.section);
    if (list) list.push(row);
    else sections.set(row.section, [row]);
  }
  return [...sections];
}

/** AlertDetailsTable shows an alert's details, one table a section ('Labels', 'Annotations'). */
export function AlertDetailsTable({ details }: { details: readonly AlertDetailRow[] }) {
  if (details.length === 0) {
    return <p className="text-muted-foreground text-sm">The alert carried no details.</p>;
  }
  return (
    <div className="grid min-w-0 gap-4">
      {detailSections(details).map(([section, rows]) => (
        <Table key={section} className="table-fixed">
          <caption className="caption-top pb-1 text-left font-medium text-xs">{section}</caption>
          <TableHeader className="sr-only">
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Value</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row, index) => (
              // Labels repeat across alerts of one message only in different sections.
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id and never reorder
              <TableRow key={index}>
                <TableCell className="w-1/3 whitespace-normal break-words align-top font-mono text-muted-foreground text-xs">
                  {row.label}
                </TableCell>
                <TableCell className="whitespace-pre-wrap break-words align-top text-xs">
                  {row.value}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ))}
    </div>
  );
}

/** AlertLinks lists an alert's links back to its source (only http and https ever arrive). */
export function AlertLinks({ links }: { links: readonly AlertLink[] }) {
  if (links.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Links">
      {links.map((link) => (
        <li key={`${link.href} ${link.text}`}>
          <a
            href={link.href}
            target="_blank"
            rel="noreferrer noopener"
            className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
          >
            {link.text}
            <ExternalLink aria-hidden="true" className="size-3" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

// The keys a sender may put in the body itself (PagerDuty's routing_key; its v1 service_key).
const KEY_FIELDS = ['routing_key', 'service_key'];

/**
 * prettyPayload returns a JSON payload indented for reading, anything else as it came. A key the
 * sender put in the body shows only its last four characters, like the integration's key hint:
 * the incident's readers need not see the key again.
 */
export function prettyPayload(payload: string): string {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const body = { ...(value as Record<string, unknown>) };
    for (const field of KEY_FIELDS) {
      const key = body[field];
      if (typeof key === 'string') body[field] = `…${key.slice(-4)}`;
    }
    value = body;
  }
  return JSON.stringify(value, null, 2);
}

/**
 * AlertPayload is the raw payload as received, folded away until asked for; once dropped (decision
 * 232), a line that says so.
 */
export function AlertPayload({
  payload,
  payloadCut,
  className,
}: Pick<AlertRecord, 'payload' | 'payloadCut'> & { className?: string }) {
  if (payload === null) {
    return (
      <p className={cn('text-muted-foreground text-sm', className)}>{ALERT_PAYLOAD_DROPPED}</p>
    );
  }
  return (
    <details className={cn('min-w-0', className)}>
      <summary className="w-fit cursor-pointer rounded-sm font-medium text-sm underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        Raw payload
      </summary>
      {payloadCut ? (
        <p className="mt-2 text-muted-foreground text-xs">
          Cut: only the first {ALERT_PAYLOAD_KEEP / 1024} kB of this payload were kept.
        </p>
      ) : null}
      {/* A region that scrolls takes focus, so a keyboard can scroll it (axe scrollable-region-focusable). */}
      <pre
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
        className="mt-2 max-h-96 overflow-auto rounded-md border bg-muted p-3 font-mono text-xs leading-relaxed focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {prettyPayload(payload)}
      </pre>
    </details>
  );
}

/** AlertRecordBody is an alert opened: its details, links and raw payload. */
export function AlertRecordBody({ alert }: { alert: AlertRecord }) {
  return (
    <div className="grid min-w-0 gap-3">
      {alert.source ? (
        <p className="text-muted-foreground text-xs">
          Source: <span className="text-foreground">{alert.source}</span>
        </p>
      ) : null}
      <AlertDetailsTable details={alert.details} />
      <AlertLinks links={alert.links} />
      <AlertPayload payload={alert.payload} payloadCut={alert.payloadCut} />
    </div>
  );
}
