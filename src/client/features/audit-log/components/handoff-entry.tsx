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
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { handoffKindLabel } from '@/lib/handoff-kinds';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';

const STATUS_LOOK: Record<string, { icon: LucideIcon; tone: BadgeTone | null }> = {
  success: {
    icon: CircleCheck,
    tone: 'success',
  },
  acknowledged: {
    icon: BellRing,
    tone: 'info',
  },
  missed: {
    icon: CircleX,
    tone: 'danger',
  },
  escalated: {
    icon: TriangleAlert,
    tone: 'warning',
  },
};

const OTHER_LOOK = { icon: ArrowRightLeft, tone: null };

/** The icon disc's colours for each tone: the tone's surface and text, or the muted ones. */
const DISC_TONE: Record<BadgeTone, string> = {
  success: 'bg-success text-success-foreground',
  info: 'bg-info text-info-foreground',
  danger: 'bg-danger text-danger-foreground',
  warning: 'bg-warning text-warning-foreground',
};

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
          look.tone ? DISC_TONE[look.tone] : 'bg-muted text-foreground',
        )}
      >
        <Icon className="size-4" aria-hidden="true" />
      </div>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <p className="font-medium text-sm">{text}</p>
          <Badge
            variant="outline"
            tone={look.tone}
            className={cn(!look.tone && 'border-transparent bg-muted text-foreground')}
          >
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
