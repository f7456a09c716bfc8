import type { Rotation } from '@shared/contracts/rotations';
import { ArrowRightLeft, Clock } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useTimeFormat } from '@/lib/use-time-format';

type DueRotation = Pick<Rotation, 'handoffDue' | 'currentOnCall' | 'nextOnCall'>;

/**
 * HandoffDueLine is the dashboard card's reminder that the shift boundary has passed and the
 * holder should pass the baton (the same request the holder gets by email or SMS).
 */
export function HandoffDueLine({ rotation, holder }: { rotation: DueRotation; holder: boolean }) {
  const fmt = useTimeFormat();
  const due = rotation.handoffDue;
  if (!due) return null;
  return (
    <p className="flex items-start gap-1.5 text-warning-foreground text-xs">
      <Clock className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>
        {holder
          ? `Handoff due since ${fmt.dateTime(due.boundary)}: pass the baton`
          : `Handoff due since ${fmt.dateTime(due.boundary)}`}
      </span>
    </p>
  );
}

/**
 * HandoffDueNotice is the rotation page's banner while a passed boundary waits for a handoff:
 * the holder is asked to pass the baton with notes, and everyone sees when it escalates and when
 * the baton moves by itself.
 */
export function HandoffDueNotice({
  rotation,
  holder,
  onPass,
}: {
  rotation: DueRotation;
  holder: boolean;
  onPass?: () => void;
}) {
  const fmt = useTimeFormat();
  const due = rotation.handoffDue;
  if (!due) return null;
  const next = rotation.nextOnCall?.name ?? 'the next member';
  return (
    <Alert tone="warning">
      <Clock aria-hidden="true" />
      <AlertTitle>{holder ? 'Your shift has ended: pass the baton' : 'Handoff due'}</AlertTitle>
      <AlertDescription className="gap-3">
        <p>
          {holder
            ? `The handoff was due at ${fmt.dateTime(due.boundary)}. Pass the baton to ${next} with notes on anything they should know.`
            : `${rotation.currentOnCall?.name ?? 'The holder'} was due to hand over at ${fmt.dateTime(due.boundary)}.`}{' '}
          {`Without a handoff, both are told at ${fmt.dateTime(due.escalateAt)} and the baton moves to ${next} at ${fmt.dateTime(due.autoTransferAt)}.`}
        </p>
        {holder && onPass ? (
          <Button size="sm" onClick={onPass}>
            <ArrowRightLeft aria-hidden="true" />
            Pass Baton
          </Button>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
