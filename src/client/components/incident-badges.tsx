import {
  INCIDENT_STATUS_LABELS,
  type IncidentStatus,
  SEVERITY_LABELS,
  type Severity,
} from '@shared/contracts/incidents';
import type { Page } from '@shared/contracts/paging';
import { PAGE_STATUS_LABELS, URGENCY_LABELS } from '@shared/domain/paging';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/*
 * The badges of an incident and of a page (a page is an incident, decision 204): one family, so
 * the incident screens and the paging screens show a status, a severity and an urgency alike
 * (decision 239).
 */

const STATUS_TONES: Record<IncidentStatus, BadgeTone> = {
  triggered: 'danger',
  acknowledged: 'info',
  resolved: 'success',
};

/** IncidentStatusBadge shows where an incident stands: triggered, acknowledged or resolved. */
export function IncidentStatusBadge({ status }: { status: IncidentStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{INCIDENT_STATUS_LABELS[status]}</Badge>;
}

// An outlined badge with a dot of the tone's colour, so it does not read as a status.
const SEVERITY_DOTS: Record<Severity, string> = {
  P1: 'bg-danger-foreground',
  P2: 'bg-warning-foreground',
  P3: 'bg-muted-foreground',
};

/** SeverityBadge shows an incident's severity: 'P1 · Critical', 'P2 · Major', 'P3 · Minor'. */
export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <Badge variant="outline">
      <span aria-hidden className={cn('size-2 rounded-full', SEVERITY_DOTS[severity])} />
      {SEVERITY_LABELS[severity]}
    </Badge>
  );
}

const PAGE_STATUS_TONES: Record<Page['status'], BadgeTone | null> = {
  triggered: 'danger',
  escalated: 'warning',
  acknowledged: 'success',
  resolved: null,
};

/** PageStatusBadge shows where a page stands: triggered, escalated, acknowledged or resolved. */
export function PageStatusBadge({ status }: { status: Page['status'] }) {
  return (
    <Badge
      variant="outline"
      tone={PAGE_STATUS_TONES[status]}
      className={cn(!PAGE_STATUS_TONES[status] && 'text-muted-foreground')}
    >
      {PAGE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** UrgencyBadge shows a page's urgency. */
export function UrgencyBadge({ urgency }: { urgency: Page['urgency'] }) {
  return (
    <Badge variant={urgency === 'high' ? 'secondary' : 'outline'}>
      {URGENCY_LABELS[urgency]} urgency
    </Badge>
  );
}
