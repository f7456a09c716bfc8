import type { Handoff } from '@shared/contracts/rotations';
import { ArrowRight, History } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { handoffKindLabel } from '@/lib/handoff-kinds';
import { useTimeFormat } from '@/lib/use-time-format';
import { initials } from '@/lib/utils';
import { useRecentHandoffs } from '../api/get-recent-handoffs';
import { handoffStatusTone, STATUS_LABELS } from '../lib/labels';

/** handoffSentence returns 'A → B' in words: who handed the baton to whom. */
function handoffSentence(handoff: Pick<Handoff, 'fromUser' | 'toUser' | 'kind'>): string {
  const to = handoff.toUser?.name ?? 'nobody';
  if (!handoff.fromUser) return `${to} took on-call`;
  return `${handoff.fromUser.name} to ${to}`;
}

/**
 * RecentHandoffsList shows handoffs newest first, each linking to its rotation; its own empty text
 * is 'No handoff logs yet'.
 */
function RecentHandoffsList({
  handoffs,
  emptyText = 'No handoff logs yet',
}: {
  handoffs: readonly Handoff[];
  emptyText?: string;
}) {
  const fmt = useTimeFormat();
  if (handoffs.length === 0) {
    return <p className="py-6 text-center text-muted-foreground text-sm">{emptyText}</p>;
  }
  return (
    <ul className="-mx-2 grid">
      {handoffs.map((handoff) => (
        <li key={handoff.id}>
          <Link
            to={`/rotations/${handoff.rotation.id}`}
            className="flex gap-3 rounded-md px-2 py-2.5 outline-none transition-colors hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring"
          >
            <Avatar aria-hidden="true" className="mt-0.5 size-8">
              <AvatarFallback className="bg-primary/10 font-semibold text-primary">
                {initials(handoff.toUser?.name ?? '?')}
              </AvatarFallback>
            </Avatar>
            <div className="min-w-0 flex-1 space-y-0.5">
              <div className="flex items-start justify-between gap-2">
                <p className="truncate font-medium text-sm">{handoff.rotation.name}</p>
                <Badge tone={handoffStatusTone(handoff.status)}>
                  {STATUS_LABELS[handoff.status] ?? handoff.status}
                </Badge>
              </div>
              <p className="flex items-center gap-1 truncate text-sm">
                {handoff.fromUser ? (
                  <>
                    <span className="truncate">{handoff.fromUser.name}</span>
                    <ArrowRight className="size-3 shrink-0 text-muted-foreground" aria-label="to" />
                    <span className="truncate">{handoff.toUser?.name ?? 'nobody'}</span>
                  </>
                ) : (
                  <span className="truncate">{handoffSentence(handoff)}</span>
                )}
              </p>
              <p className="text-muted-foreground text-xs">
                {handoffKindLabel(handoff.kind)} · {fmt.dateTime(handoff.timestamp)}
              </p>
              {handoff.notes ? (
                <p className="line-clamp-2 text-muted-foreground text-xs italic">
                  “{handoff.notes}”
                </p>
              ) : null}
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** RecentHandoffsCard is the dashboard's 'Recent Handoffs': the latest 5 and a link to the audit log. */
export function RecentHandoffsCard() {
  const handoffs = useRecentHandoffs();
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Recent Handoffs</h2>
        </CardTitle>
        <CardDescription>The latest changes of who holds the baton.</CardDescription>
        <CardAction>
          <Button asChild variant="ghost" size="sm">
            <Link to="/audit-log">View all handoffs</Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {handoffs.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading handoffs">
            {[0, 1, 2].map((i) => (
              <div key={i} className="flex gap-3">
                <Skeleton className="size-8 rounded-full" />
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-2/3" />
                  <Skeleton className="h-3 w-1/2" />
                </div>
              </div>
            ))}
          </div>
        ) : handoffs.isError ? (
          <p role="alert" className="text-destructive text-sm">
            Failed to fetch handoffs
          </p>
        ) : handoffs.data.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-6 text-center">
            <History className="size-6 text-muted-foreground" aria-hidden="true" />
            <p className="text-muted-foreground text-sm">No handoffs recorded yet</p>
          </div>
        ) : (
          <RecentHandoffsList handoffs={handoffs.data} />
        )}
      </CardContent>
    </Card>
  );
}
