import type { ScheduleStatus } from '@shared/domain/rotation';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import type { CardBadge } from '../lib/rotation-view';

const tone = {
  green:
    'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300',
  amber: 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300',
  blue: 'border-transparent bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-300',
  muted: 'border-transparent bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
} as const;

/** RotationStatusBadge reads 'Active' or 'Suspended'. */
export function RotationStatusBadge({ suspended }: { suspended: boolean }) {
  return (
    <Badge className={cn(suspended ? tone.amber : tone.green)}>
      {suspended ? 'Suspended' : 'Active'}
    </Badge>
  );
}

/** MemberStatusBadge reads 'Currently On-Call', 'Next On-Call' or 'In Rotation'. */
export function MemberStatusBadge({ status }: { status: string }) {
  const cls =
    status === 'Currently On-Call'
      ? tone.green
      : status === 'Next On-Call'
        ? tone.blue
        : tone.muted;
  return <Badge className={cls}>{status}</Badge>;
}

/** UserRoleBadge is the rotation card's 'Active', 'Up next' or 'Member'. */
export function UserRoleBadge({ badge }: { badge: CardBadge }) {
  const cls = badge === 'Active' ? tone.green : badge === 'Up next' ? tone.blue : tone.muted;
  return <Badge className={cls}>{badge}</Badge>;
}

/** ScheduleStatusBadge reads 'Current', 'Past', 'Upcoming' or 'Unknown'. */
export function ScheduleStatusBadge({ status }: { status: ScheduleStatus }) {
  const cls =
    status === 'Current'
      ? tone.green
      : status === 'Upcoming'
        ? tone.blue
        : status === 'Past'
          ? tone.muted
          : tone.amber;
  return <Badge className={cls}>{status}</Badge>;
}
