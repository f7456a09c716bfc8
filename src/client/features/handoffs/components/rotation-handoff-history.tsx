import { describeHandoff } from '@shared/contracts/audit';
import type { Handoff } from '@shared/contracts/rotations';
import { notesAuthorId } from '@shared/domain/handoff-flow';
import { History } from 'lucide-react';
import { Link } from 'react-router';
import { HistoryCard } from '@/components/history-card';
import { QuotedNotes } from '@/components/quoted-notes';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { handoffKindLabel } from '@/lib/handoff-kinds';
import { useTimeFormat } from '@/lib/use-time-format';
import {
  ROTATION_HANDOFF_HISTORY_LIMIT,
  useRotationHandoffHistory,
} from '../api/get-rotation-handoff-history';
import { handoffStatusTone } from '../lib/labels';

/** notesAuthorName names who wrote a handoff's notes, when the handoff records it. */
function notesAuthorName(handoff: Handoff): string | null {
  const authorId = notesAuthorId({ kind: handoff.kind, fromUserId: handoff.fromUser?.id ?? null });
  return authorId !== null && handoff.fromUser?.id === authorId ? handoff.fromUser.name : null;
}

function HistoryEntry({ handoff }: { handoff: Handoff }) {
  const fmt = useTimeFormat();
  const { text, badge } = describeHandoff(handoff);
  return (
    <li className="grid gap-1.5 px-4 py-3 sm:px-6">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <p className="font-medium text-sm">{text}</p>
        <Badge tone={handoffStatusTone(handoff.status)}>{badge}</Badge>
        {handoff.urgent ? <Badge variant="destructive">Emergency</Badge> : null}
      </div>
      <p className="text-muted-foreground text-xs">
        <time dateTime={handoff.timestamp}>{fmt.dateTime(handoff.timestamp)}</time>
        {' · '}
        {handoffKindLabel(handoff.kind)}
      </p>
      <QuotedNotes notes={handoff.notes} by={notesAuthorName(handoff)} />
    </li>
  );
}

/**
 * RotationHandoffHistory is the rotation page's own handoff history (decision 187): its latest
 * ten handoffs with their notes, newest first, and 'View all' to the audit log filtered to it.
 * The handoff email links to the rotation page, so the notes are here too.
 */
export function RotationHandoffHistory({ rotationId }: { rotationId: number }) {
  const history = useRotationHandoffHistory(rotationId);
  const entries = history.data?.entries ?? [];
  return (
    <HistoryCard
      title="Handoff history"
      description={`The latest ${ROTATION_HANDOFF_HISTORY_LIMIT} changes of who holds this rotation's baton, with the notes left with them.`}
      action={
        <Button asChild variant="ghost" size="sm">
          <Link to={`/audit-log?rotationId=${rotationId}`}>
            View all<span className="sr-only"> handoffs of this rotation in the audit log</span>
          </Link>
        </Button>
      }
      query={history}
      count={entries.length}
      loadingLabel="Loading handoff history..."
      errorTitle="Failed to fetch handoff history"
      emptyText="No handoffs recorded yet"
      emptyIcon={History}
      listLabel="Handoff history"
    >
      {entries.map((handoff) => (
        <HistoryEntry key={handoff.id} handoff={handoff} />
      ))}
    </HistoryCard>
  );
}
