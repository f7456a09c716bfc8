import type { Page } from '@shared/contracts/paging';
import { PAGE_STATUS_LABELS, URGENCY_LABELS } from '@shared/domain/paging';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const STATUS_CLASSES: Record<Page['status'], string> = {
  triggered: 'border-transparent bg-destructive text-white dark:bg-destructive/70',
  escalated: 'border-transparent bg-amber-700 text-white dark:bg-amber-800 dark:text-amber-50',
  acknowledged:
    'border-transparent bg-emerald-700 text-white dark:bg-emerald-800 dark:text-emerald-50',
  resolved: 'text-muted-foreground',
};

/** PageStatusBadge shows where a page stands: triggered, escalated, acknowledged or resolved. */
export function PageStatusBadge({ status }: { status: Page['status'] }) {
  return (
    <Badge variant="outline" className={cn(STATUS_CLASSES[status])}>
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
