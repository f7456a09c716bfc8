import type { Rotation } from '@shared/contracts/rotations';
import { AlertTriangle, CheckCheck, LifeBuoy } from 'lucide-react';
import { QuotedNotes } from '@/components/quoted-notes';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/use-auth';
import { useTimeFormat } from '@/lib/use-time-format';
import { useAcknowledgeHandoff } from '../api/acknowledge-handoff';

type AckRotation = Pick<Rotation, 'id' | 'name' | 'unacknowledgedHandoff'>;

/** useHandoffToAcknowledge returns the rotation's handoff the signed-in user still has to acknowledge, or null. */
export function useHandoffToAcknowledge(rotation: AckRotation) {
  const { user } = useAuth();
  const handoff = rotation.unacknowledgedHandoff ?? null;
  return handoff && user && handoff.toUserId === user.id ? handoff : null;
}

/**
 * AcknowledgeHandoffButton shows 'Accept handoff' to the person who received the rotation's baton
 * until they acknowledge it; nothing to anyone else. Clicks do not reach a clickable card around it.
 * Not 'Acknowledge': on the same dashboard that word acknowledges an incident (issue 35).
 */
export function AcknowledgeHandoffButton({
  rotation,
  size = 'sm',
}: {
  rotation: AckRotation;
  size?: 'sm' | 'default';
}) {
  const handoff = useHandoffToAcknowledge(rotation);
  const acknowledge = useAcknowledgeHandoff();
  if (!handoff) return null;
  return (
    <Button
      size={size}
      variant={handoff.urgent || handoff.status === 'missed' ? 'default' : 'secondary'}
      pending={acknowledge.isPending}
      onClick={(e) => {
        e.stopPropagation();
        acknowledge.mutate({ handoffId: handoff.id, rotationName: rotation.name });
      }}
    >
      {acknowledge.isPending ? null : <CheckCheck aria-hidden="true" />}
      Accept handoff
    </Button>
  );
}

/**
 * HandoffAcknowledgementNotice is the rotation page's banner for the person who received the
 * baton: what to acknowledge and by when (an emergency handoff: now), the handoff's notes quoted
 * with who wrote them (decision 187), and the button.
 */
export function HandoffAcknowledgementNotice({ rotation }: { rotation: AckRotation }) {
  const fmt = useTimeFormat();
  const handoff = useHandoffToAcknowledge(rotation);
  if (!handoff) return null;
  const missed = handoff.status === 'missed';
  return (
    <Alert variant={handoff.urgent || missed ? 'destructive' : 'default'}>
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>
        {handoff.urgent
          ? 'Emergency handoff: acknowledge your on-call duty'
          : 'You now hold the baton'}
      </AlertTitle>
      <AlertDescription className="gap-3">
        <p>
          {missed
            ? 'The time to accept it has passed and the previous holder was told. Accept it as soon as you can.'
            : handoff.urgent
              ? 'The previous holder stays responsible until you acknowledge.'
              : `Accept the handoff by ${fmt.dateTime(handoff.acknowledgeBy)}.`}
        </p>
        <QuotedNotes notes={handoff.notes} by={handoff.notesBy?.name} />
        <AcknowledgeHandoffButton rotation={rotation} />
      </AlertDescription>
    </Alert>
  );
}

/**
 * BackupOnCall names the previous holder while they stay backup after a handoff: for 15 minutes,
 * or until an emergency handoff is acknowledged. Nothing when there is no backup.
 */
export function BackupOnCall({
  rotation,
}: {
  rotation: Pick<Rotation, 'backupOnCall' | 'backupUntil'>;
}) {
  const fmt = useTimeFormat();
  if (!rotation.backupOnCall) return null;
  return (
    <p className="flex items-center gap-1.5 text-muted-foreground text-xs">
      <LifeBuoy className="size-3.5" aria-hidden="true" />
      <span>
        Backup: {rotation.backupOnCall.name}{' '}
        {rotation.backupUntil
          ? `until ${fmt.dateTime(rotation.backupUntil)}`
          : 'until the emergency handoff is acknowledged'}
      </span>
    </p>
  );
}
