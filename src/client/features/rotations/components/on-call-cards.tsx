import type { Rotation } from '@shared/contracts/rotations';
import {
  canPassBaton,
  canReassign,
  canRequestCoverage,
  canTakeOnCall,
  pageRefusal,
} from '@shared/domain/rotation';
import { ArrowRightLeft, BellRing, Hand, LifeBuoy, UserRoundCog } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { useAuth } from '@/lib/use-auth';
import { useTimeFormat } from '@/lib/use-time-format';
import { useTakeOnCall } from '../api/take-on-call';
import { canManage, canPage, nobodyNowText } from '../lib/rotation-view';
import { BackupOnCall } from './acknowledge-handoff';
import { PersonAvatar } from './person-avatar';
import type { RotationDialogName } from './rotation-dialogs';

function PersonBlock({
  name,
  email,
  empty,
  when,
}: {
  name: string | undefined;
  email: string | undefined;
  empty: string;
  when: string | null;
}) {
  if (!name) {
    return (
      <div className="flex items-center gap-3">
        <div className="size-10 shrink-0 rounded-full border border-dashed" aria-hidden="true" />
        <div className="min-w-0">
          <p className="text-muted-foreground text-sm">{empty}</p>
          {when ? <p className="text-muted-foreground text-xs">{when}</p> : null}
        </div>
      </div>
    );
  }
  return (
    <div className="flex min-w-0 items-center gap-3">
      <PersonAvatar name={name} className="size-10" />
      <div className="min-w-0">
        <p className="truncate font-medium">{name}</p>
        <p className="truncate text-muted-foreground text-sm">{email}</p>
        {when ? <p className="text-muted-foreground text-xs">{when}</p> : null}
      </div>
    </div>
  );
}

/** useBatonActions says which baton actions the signed-in user may take on the rotation. */
export function useBatonActions(rotation: Rotation) {
  const { user, roles } = useAuth();
  const userId = user?.id ?? -1;
  const actor = { id: userId, roles };
  return {
    holder: rotation.currentOnCallUserId === userId,
    mayPass: canPassBaton(rotation, actor),
    mayAskCoverage: canRequestCoverage(rotation, actor),
    mayTake: canTakeOnCall(rotation, actor),
    mayReassign:
      canReassign(rotation, actor) &&
      canManage(rotation, user?.id ?? null, roles) &&
      rotation.members.some((m) => m.userId !== rotation.currentOnCallUserId),
    // With nobody on call a rotation's page goes on to its policy's next step (decision 263).
    mayPage:
      pageRefusal(rotation)?.code !== 'ROTATION_SUSPENDED' &&
      rotation.members.length > 0 &&
      canPage(rotation, userId, roles),
  };
}

/**
 * CurrentOnCallCard shows who holds the baton (and since when, and a backup) with the baton
 * actions the viewer may take: pass, request coverage, take on-call, reassign, page.
 */
export function CurrentOnCallCard({
  rotation,
  onOpen,
}: {
  rotation: Rotation;
  onOpen: (dialog: RotationDialogName) => void;
}) {
  const fmt = useTimeFormat();
  const takeOnCall = useTakeOnCall();
  const { holder, mayPass, mayAskCoverage, mayTake, mayReassign, mayPage } =
    useBatonActions(rotation);
  const nobodyNow = nobodyNowText(rotation, fmt.dateTime);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Current On-Call</h2>
        </CardTitle>
        {holder ? (
          <CardAction>
            <Badge tone="success">You</Badge>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        <PersonBlock
          name={rotation.currentOnCall?.name}
          email={rotation.currentOnCall?.email}
          empty={nobodyNow ? nobodyNow.empty : 'No one assigned'}
          when={
            rotation.currentOnCall
              ? `Since ${fmt.dateTime(rotation.holderSince)}`
              : (nobodyNow?.when ?? null)
          }
        />
        <BackupOnCall rotation={rotation} />
      </CardContent>
      {mayPass || mayAskCoverage || mayTake || mayReassign || mayPage ? (
        <CardFooter className="mt-auto flex-wrap gap-2">
          {mayPass ? (
            <Button size="sm" onClick={() => onOpen('pass')}>
              <ArrowRightLeft aria-hidden="true" />
              Pass Baton
            </Button>
          ) : null}
          {mayAskCoverage ? (
            <Button size="sm" variant="outline" onClick={() => onOpen('coverage')}>
              <LifeBuoy aria-hidden="true" />
              Request Coverage
            </Button>
          ) : null}
          {mayTake ? (
            <Button
              size="sm"
              pending={takeOnCall.isPending}
              onClick={() =>
                takeOnCall.mutate({ rotationId: rotation.id, rotationName: rotation.name })
              }
            >
              {takeOnCall.isPending ? null : <Hand aria-hidden="true" />}
              Take On-Call
            </Button>
          ) : null}
          {mayReassign ? (
            <Button size="sm" variant="outline" onClick={() => onOpen('reassign')}>
              <UserRoundCog aria-hidden="true" />
              Reassign
            </Button>
          ) : null}
          {mayPage ? (
            <Button size="sm" variant="outline" onClick={() => onOpen('page')}>
              <BellRing aria-hidden="true" />
              Page On-Call
            </Button>
          ) : null}
        </CardFooter>
      ) : null}
    </Card>
  );
}

/** NextOnCallCard shows who takes the baton next, and when. */
export function NextOnCallCard({ rotation }: { rotation: Rotation }) {
  const fmt = useTimeFormat();
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Next On-Call</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <PersonBlock
          name={rotation.nextOnCall?.name}
          email={rotation.nextOnCall?.email}
          empty="No one scheduled"
          when={
            rotation.nextOnCall && rotation.nextHandoffTime
              ? `Starting ${fmt.dateTime(rotation.nextHandoffTime)}`
              : null
          }
        />
      </CardContent>
    </Card>
  );
}
