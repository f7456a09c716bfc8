import {
  DESTINATION_EVENT_LABELS,
  DESTINATION_KIND_LABELS,
  type Destination,
} from '@shared/contracts/destinations';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useTimeFormat } from '@/lib/use-time-format';

/**
 * DestinationItem is one destination in the card's list: its kind, URL hint, failing state,
 * events and last delivery, with the delivery log and, for those who manage it, test, edit, delete.
 */
export function DestinationItem({
  destination,
  showTarget,
  nested,
  testing,
  onTest,
  onEdit,
  onDelete,
  onLog,
}: {
  destination: Destination;
  showTarget: boolean;
  nested: boolean;
  testing: boolean;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onLog: () => void;
}) {
  const format = useTimeFormat();
  const kind = DESTINATION_KIND_LABELS[destination.kind];
  return (
    <li className="grid min-w-0 gap-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        {nested ? (
          <h5 className="font-medium text-sm">{kind}</h5>
        ) : (
          <h3 className="font-medium text-sm">{kind}</h3>
        )}
        <span className="break-all font-mono text-muted-foreground text-xs">
          {destination.urlHint}
        </span>
        {destination.failingSince ? (
          <Badge variant="destructive">
            Failing since {format.dateTime(destination.failingSince)}
          </Badge>
        ) : null}
      </div>
      {showTarget && destination.targetName ? (
        <p className="text-sm">
          For{' '}
          {destination.rotationId
            ? 'rotation'
            : destination.escalationPolicyId
              ? 'policy'
              : 'integration'}{' '}
          {destination.targetName}
        </p>
      ) : null}
      <p className="text-muted-foreground text-sm">
        Posts: {destination.events.map((e) => DESTINATION_EVENT_LABELS[e]).join(', ')}
        {destination.digestTime
          ? ` (digest at ${destination.digestTime} ${destination.digestTimeZone})`
          : ''}
      </p>
      <p className="text-muted-foreground text-xs">
        {destination.lastDeliveredAt
          ? `Last delivered ${format.dateTime(destination.lastDeliveredAt)}`
          : 'Nothing delivered yet'}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={onLog}>
          Delivery log
        </Button>
        {destination.canManage ? (
          <>
            <Button size="sm" variant="outline" onClick={onTest} disabled={testing}>
              {testing ? 'Sending...' : 'Send test event'}
            </Button>
            <Button size="sm" variant="outline" onClick={onEdit}>
              Edit
            </Button>
            <Button size="sm" variant="outline" onClick={onDelete}>
              Delete
            </Button>
          </>
        ) : null}
      </div>
    </li>
  );
}
