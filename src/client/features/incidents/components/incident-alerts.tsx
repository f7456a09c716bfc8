import type { AlertRecord } from '@shared/contracts/integrations';
import { AlertFormatBadge, AlertOutcomeBadge, AlertRecordBody } from '@/components/alert-record';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { useIncidentAlerts } from '../api/get-incident-alerts';

function AlertEntry({ alert }: { alert: AlertRecord }) {
  const fmt = useTimeFormat();
  return (
    <li className="grid min-w-0 gap-3 py-4 first:pt-0 last:pb-0">
      <div className="grid min-w-0 gap-1.5">
        <h3 className="break-words font-medium text-sm">{alert.summary}</h3>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-xs">
          <AlertFormatBadge format={alert.format} />
          <AlertOutcomeBadge outcome={alert.outcome} />
          <time dateTime={alert.receivedAt}>{fmt.dateTime(alert.receivedAt)}</time>
          {alert.seenCount > 1 ? (
            <span>
              Seen {alert.seenCount} times, last{' '}
              <time dateTime={alert.lastSeenAt}>{fmt.dateTime(alert.lastSeenAt)}</time>
            </span>
          ) : null}
        </div>
      </div>
      <AlertRecordBody alert={alert} />
    </li>
  );
}

/**
 * IncidentAlerts is the Alerts section of an incident an integration raised: every alert event it
 * took in, newest first, each with its details table, its links back to the source and its raw
 * payload on request; 'Load more' pages.
 */
export function IncidentAlerts({
  incidentId,
  alertCount,
  open,
}: {
  incidentId: number;
  alertCount: number;
  open: boolean;
}) {
  const alerts = useIncidentAlerts(incidentId, { enabled: true, open });
  const list = alerts.data?.pages.flatMap((page) => page.alerts) ?? [];
  return (
    <Card className="min-w-0 gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Alerts</h2>
        </CardTitle>
        <CardDescription>
          {alertCount === 1
            ? 'The alert that raised this incident, as its source sent it.'
            : `The ${alertCount} alert events this incident took in, newest first.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-3">
        {alerts.isPending ? (
          <LoadingState label="Loading alerts..." className="py-6" />
        ) : alerts.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Failed to load the alerts</AlertTitle>
            <AlertDescription>
              {getErrorMessage(alerts.error, 'Please try again.')}
            </AlertDescription>
          </Alert>
        ) : list.length === 0 ? (
          <p className="text-muted-foreground text-sm">No alerts are recorded for this incident.</p>
        ) : (
          <ul className="grid min-w-0 divide-y" aria-label="Alerts">
            {list.map((alert) => (
              <AlertEntry key={alert.id} alert={alert} />
            ))}
          </ul>
        )}
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
      </CardContent>
    </Card>
  );
}
