import {
  INCIDENT_STATUS_LABELS,
  type IncidentStatus,
  SEVERITY_LABELS,
  type Severity,
} from '@shared/contracts/incidents';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

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
