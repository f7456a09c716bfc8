import { describeHandoff } from '@shared/contracts/audit';
import type { Handoff } from '@shared/contracts/rotations';
import {
  ArrowRightLeft,
  BellRing,
  CircleCheck,
  CircleX,
  type LucideIcon,
  TriangleAlert,
} from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { handoffKindLabel } from '../lib/labels';

const STATUS_LOOK: Record<string, { icon: LucideIcon; tone: string }> = {
  success: {
    icon: CircleCheck,
    tone: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  },
  acknowledged: {
    icon: BellRing,
    tone: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  },
  missed: {
    icon: CircleX,
    tone: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  },
  escalated: {
    icon: TriangleAlert,
    tone: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  },
};

const OTHER_LOOK = { icon: ArrowRightLeft, tone: 'bg-muted text-foreground' };

/** HandoffEntry is one line of the handoff history: what happened, its badge, where and when. */
export function HandoffEntry({ handoff }: { handoff: Handoff }) {
  const fmt = useTimeFormat();
  const { text, badge } = describeHandoff(handoff);
  const look = STATUS_LOOK[handoff.status] ?? OTHER_LOOK;
  const Icon = look.icon;
  return (
    <li className="flex gap-3 px-4 py-3 sm:px-6">
      <div
        className={cn(
          'mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full',
          look.tone,
        )}
      >
        <Icon className="size-4" aria-hidden="true" />
      </div>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <p className="font-medium text-sm">{text}</p>
          <Badge variant="outline" className={cn('border-transparent', look.tone)}>
            {badge}
          </Badge>
          {handoff.urgent ? <Badge variant="destructive">Emergency</Badge> : null}
        </div>
        <p className="text-muted-foreground text-xs">
          <Link
            to={`/rotations/${handoff.rotation.id}`}
            className="font-medium text-foreground underline-offset-4 hover:underline"
          >
            {handoff.rotation.name}
          </Link>
          {' · '}
          <time dateTime={handoff.timestamp}>{fmt.dateTime(handoff.timestamp)}</time>
          {' · '}
          {handoffKindLabel(handoff.kind)}
        </p>
        {handoff.notes ? (
          <p className="whitespace-pre-line break-words rounded-md bg-muted px-3 py-2 text-sm">
            {handoff.notes}
          </p>
        ) : null}
      </div>
    </li>
  );
}
