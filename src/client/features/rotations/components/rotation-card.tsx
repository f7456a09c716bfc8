import type { Rotation } from '@shared/contracts/rotations';
import { canPassBaton, canTakeOnCall } from '@shared/domain/rotation';
import { ArrowRightLeft, Hand } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { useAuth } from '@/lib/use-auth';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { useTakeOnCall } from '../api/take-on-call';
import { cardBadge, nobodyNowText, patternLine, rotationKindText } from '../lib/rotation-view';
import {
  AcknowledgeHandoffButton,
  BackupOnCall,
  useHandoffToAcknowledge,
} from './acknowledge-handoff';
import { HandoffDueLine } from './handoff-due';
import { PassBatonDialog } from './pass-baton-dialog';
import { PersonAvatar } from './person-avatar';
import { UserRoleBadge } from './status-badges';

function Slot({
  label,
  name,
  empty,
  when,
}: {
  label: string;
  name: string | undefined;
  empty: string;
  when: string | null;
}) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      {name ? (
        <PersonAvatar name={name} />
      ) : (
        <div className="size-8 shrink-0 rounded-full border border-dashed" aria-hidden="true" />
      )}
      <div className="min-w-0">
        <p className="text-muted-foreground text-xs">{label}</p>
        <p className={name ? 'truncate font-medium text-sm' : 'text-muted-foreground text-sm'}>
          {name ?? empty}
        </p>
        {when ? (
          <p className={cn(name && 'truncate', 'text-muted-foreground text-xs')}>{when}</p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * RotationCard is one of the signed-in user's rotations on the dashboard: cadence (or kind) and
 * pattern in words, current (or "No one on call now" and who comes next) and next on-call, the
 * user's badge, and 'Pass Baton' / 'Take On-Call'. Clicking it opens the rotation.
 */
export function RotationCard({ rotation }: { rotation: Rotation }) {
  const fmt = useTimeFormat();
  const { user, roles } = useAuth();
  const navigate = useNavigate();
  const takeOnCall = useTakeOnCall();
  const [passOpen, setPassOpen] = useState(false);
  const userId = user?.id ?? -1;
  const actor = { id: userId, roles };
  const mayPass = canPassBaton(rotation, actor);
  const mayTake = canTakeOnCall(rotation, actor);
  const toAcknowledge = useHandoffToAcknowledge(rotation);
  const href = `/rotations/${rotation.id}`;
  const kind = rotationKindText(rotation);
  const pattern = patternLine(rotation, kind);
  const nobodyNow = nobodyNowText(rotation, fmt.dateTime);

  return (
    <>
      <Card
        className="cursor-pointer gap-4 transition-colors hover:border-foreground/20"
        onClick={() => navigate(href)}
      >
        <CardHeader>
          <CardTitle className="truncate">
            <Link
              to={href}
              onClick={(e) => e.stopPropagation()}
              className="rounded-sm outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
            >
              {rotation.name}
            </Link>
          </CardTitle>
          <CardDescription className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5">
            <span>{kind}</span>
            {rotation.suspended ? (
              <Badge variant="outline" className="text-[10px]">
                Suspended
              </Badge>
            ) : null}
            {pattern ? <span className="basis-full truncate text-xs">{pattern}</span> : null}
          </CardDescription>
          <CardAction>
            <UserRoleBadge badge={cardBadge(rotation, userId)} />
          </CardAction>
        </CardHeader>
        <CardContent className="grid gap-3">
          <Slot
            label="Current On-Call"
            name={rotation.currentOnCall?.name}
            empty={nobodyNow ? nobodyNow.empty : 'No one assigned'}
            when={
              rotation.currentOnCall
                ? `Since ${fmt.dateTime(rotation.holderSince)}`
                : (nobodyNow?.when ?? null)
            }
          />
          <BackupOnCall rotation={rotation} />
          <HandoffDueLine rotation={rotation} holder={rotation.currentOnCallUserId === userId} />
          <Slot
            label="Next On-Call"
            name={rotation.nextOnCall?.name}
            empty="No one scheduled"
            when={
              rotation.nextOnCall && rotation.nextHandoffTime
                ? `Starting ${fmt.dateTime(rotation.nextHandoffTime)}`
                : null
            }
          />
        </CardContent>
        {mayPass || mayTake || toAcknowledge ? (
          <CardFooter className="mt-auto flex-wrap gap-2">
            <AcknowledgeHandoffButton rotation={rotation} />
            {mayPass ? (
              <Button
                size="sm"
                onClick={(e) => {
                  e.stopPropagation();
                  setPassOpen(true);
                }}
              >
                <ArrowRightLeft aria-hidden="true" />
                Pass Baton
              </Button>
            ) : null}
            {mayTake ? (
              <Button
                size="sm"
                variant="outline"
                pending={takeOnCall.isPending}
                onClick={(e) => {
                  e.stopPropagation();
                  takeOnCall.mutate({ rotationId: rotation.id, rotationName: rotation.name });
                }}
              >
                {takeOnCall.isPending ? null : <Hand aria-hidden="true" />}
                Take On-Call
              </Button>
            ) : null}
          </CardFooter>
        ) : null}
      </Card>
      {/* Outside the card: clicks inside the dialog must not reach the card's click handler. */}
      <PassBatonDialog rotation={rotation} open={passOpen} onOpenChange={setPassOpen} />
    </>
  );
}
