import { DESTINATION_KIND_LABELS, type Destination } from '@shared/contracts/destinations';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { useDeliveries } from '../api/get-deliveries';

const STATUS_LABELS = {
  pending: 'Waiting',
  sending: 'Sending',
  sent: 'Delivered',
  failed: 'Failed',
} as const;

/** DeliveryLogDialog shows a destination's last messages, newest first, as the outbox saw them. */
export function DeliveryLogDialog({
  destination,
  onClose,
}: {
  destination: Destination;
  onClose: () => void;
}) {
  const log = useDeliveries(destination.id);
  const format = useTimeFormat();
  const rows = log.data?.deliveries ?? [];
  return (
    <Dialog open onOpenChange={(next) => (next ? null : onClose())}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Delivery log</DialogTitle>
          <DialogDescription>
            {DESTINATION_KIND_LABELS[destination.kind]} {destination.urlHint}: the last 50 messages,
            newest first. {format.timesIn}
          </DialogDescription>
        </DialogHeader>
        {log.isPending ? (
          <LoadingState label="Loading the delivery log..." className="py-6" />
        ) : log.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Failed to load the delivery log</AlertTitle>
            <AlertDescription>{getErrorMessage(log.error, 'Please try again.')}</AlertDescription>
          </Alert>
        ) : rows.length === 0 ? (
          <p className="text-muted-foreground text-sm">Nothing has been sent here yet.</p>
        ) : (
          <ul className="grid divide-y" aria-label="Deliveries">
            {rows.map((d) => (
              <li key={d.id} className="grid gap-1 py-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{d.event}</span>
                  <Badge
                    variant={
                      d.status === 'failed'
                        ? 'destructive'
                        : d.status === 'sent'
                          ? 'secondary'
                          : 'outline'
                    }
                  >
                    {STATUS_LABELS[d.status]}
                  </Badge>
                  <span className="text-muted-foreground text-xs">
                    {format.dateTime(d.createdAt)} · {d.attempts}{' '}
                    {d.attempts === 1 ? 'attempt' : 'attempts'}
                  </span>
                </div>
                {d.sentAt ? (
                  <span className="text-muted-foreground text-xs">
                    Delivered {format.toSecond(d.sentAt)}
                  </span>
                ) : d.nextAttemptAt && d.attempts > 0 ? (
                  <span className="text-muted-foreground text-xs">
                    Next attempt {format.toSecond(d.nextAttemptAt)}
                  </span>
                ) : null}
                {d.lastError ? (
                  <span className="text-destructive text-xs">{d.lastError}</span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
