import type { AlertRecord, Integration } from '@shared/contracts/integrations';
import { ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { AlertFormatBadge, AlertOutcomeBadge, AlertRecordBody } from '@/components/alert-record';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { useIntegrationAlerts } from '../api/get-integration-alerts';

function AlertItem({ alert }: { alert: AlertRecord }) {
  const fmt = useTimeFormat();
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  return (
    <li className="grid min-w-0 gap-2 py-3">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
        className="flex min-w-0 items-start gap-2 rounded-sm text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ChevronRight
          aria-hidden="true"
          className={cn('mt-0.5 size-4 shrink-0 transition-transform', open && 'rotate-90')}
        />
        <span className="min-w-0 break-words font-medium text-sm">{alert.summary}</span>
      </button>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-xs sm:pl-6">
        <AlertFormatBadge format={alert.format} />
        <AlertOutcomeBadge outcome={alert.outcome} />
        <time dateTime={alert.receivedAt}>{fmt.dateTime(alert.receivedAt)}</time>
        {alert.seenCount > 1 ? (
          <span>
            Seen {alert.seenCount} times, last{' '}
            <time dateTime={alert.lastSeenAt}>{fmt.dateTime(alert.lastSeenAt)}</time>
          </span>
        ) : null}
        {alert.incidentId !== null ? (
          <Link
            to={`/incidents/${alert.incidentId}`}
            className="font-medium text-foreground underline-offset-4 hover:underline"
          >
            Incident #{alert.incidentId}
          </Link>
        ) : null}
      </div>
      {open ? (
        <div id={bodyId} className="min-w-0 sm:pl-6">
          <AlertRecordBody alert={alert} />
        </div>
      ) : null}
    </li>
  );
}

/**
 * RecentAlerts lists what an integration received, newest first: summary, format, what it did,
 * when, how often; opening one shows its details table, links and raw payload. 'Load more' pages.
 */
export function RecentAlerts({ integration }: { integration: Integration }) {
  const alerts = useIntegrationAlerts(integration.id, { enabled: true });
  if (alerts.isPending) return <LoadingState label="Loading alerts..." className="py-6" />;
  if (alerts.isError) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Failed to load the alerts</AlertTitle>
        <AlertDescription>{getErrorMessage(alerts.error, 'Please try again.')}</AlertDescription>
      </Alert>
    );
  }
  const list = alerts.data.pages.flatMap((page) => page.alerts);
  if (list.length === 0) {
    return (
      <p className="py-2 text-muted-foreground text-sm">
        No alerts yet. Send a test alert, or point a monitoring tool at this integration.
      </p>
    );
  }
  return (
    <div className="grid min-w-0 gap-2">
      <ul className="min-w-0 divide-y" aria-label={`Recent alerts of ${integration.name}`}>
        {list.map((alert) => (
          <AlertItem key={alert.id} alert={alert} />
        ))}
      </ul>
      {alerts.hasNextPage ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-fit"
          onClick={() => alerts.fetchNextPage()}
          pending={alerts.isFetchingNextPage}
        >
          {alerts.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      ) : null}
    </div>
  );
}
