import type { ScheduleStatus } from '@shared/domain/rotation';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { CardBadge } from '../lib/rotation-view';

/** ToneBadge is a badge in a tone, or the quiet secondary badge when there is none. */
function ToneBadge({ tone, children }: { tone: BadgeTone | null; children: React.ReactNode }) {
  return tone ? (
    <Badge tone={tone}>{children}</Badge>
  ) : (
    <Badge variant="secondary">{children}</Badge>
  );
}

/** RotationStatusBadge reads 'Active' or 'Suspended'. */
export function RotationStatusBadge({ suspended }: { suspended: boolean }) {
  return (
    <Badge tone={suspended ? 'warning' : 'success'}>{suspended ? 'Suspended' : 'Active'}</Badge>
  );
}

/** MemberStatusBadge reads 'Currently On-Call', 'Next On-Call' or 'In Rotation'. */
export function MemberStatusBadge({ status }: { status: string }) {
  return (
    <ToneBadge
      tone={status === 'Currently On-Call' ? 'success' : status === 'Next On-Call' ? 'info' : null}
    >
      {status}
    </ToneBadge>
  );
}

/** UserRoleBadge is the rotation card's 'Active', 'Up next' or 'Member'. */
export function UserRoleBadge({ badge }: { badge: CardBadge }) {
  return (
    <ToneBadge tone={badge === 'Active' ? 'success' : badge === 'Up next' ? 'info' : null}>
      {badge}
    </ToneBadge>
  );
}

/** ScheduleStatusBadge reads 'Current', 'Past', 'Upcoming' or 'Unknown'. */
export function ScheduleStatusBadge({ status }: { status: ScheduleStatus }) {
  const tone =
    status === 'Current'
      ? 'success'
      : status === 'Upcoming'
        ? 'info'
        : status === 'Past'
          ? null
          : 'warning';
  return <ToneBadge tone={tone}>{status}</ToneBadge>;
}
