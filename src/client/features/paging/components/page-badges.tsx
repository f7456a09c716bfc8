import type { Page } from '@shared/contracts/paging';
import { PAGE_STATUS_LABELS, URGENCY_LABELS } from '@shared/domain/paging';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const STATUS_TONES: Record<Page['status'], BadgeTone | null> = {
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
      tone={STATUS_TONES[status]}
      className={cn(!STATUS_TONES[status] && 'text-muted-foreground')}
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
