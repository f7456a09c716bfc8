import type { Rotation } from '@shared/contracts/rotations';
import { can } from '@shared/domain/permissions';
import {
  canPassBaton,
  canReassign,
  canRequestCoverage,
  canTakeOnCall,
  pageRefusal,
} from '@shared/domain/rotation';
import {
  ArrowLeft,
  ArrowRightLeft,
  BellRing,
  CircleAlert,
  Hand,
  LifeBuoy,
  Pause,
  Pencil,
  Play,
  Trash2,
  UserPlus,
  UserRoundCog,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { TimesInZone } from '@/components/times-in-zone';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
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
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { CoverageRequestsPanel } from '@/features/coverage/components/coverage-requests-panel';
import { RotationPageHistory } from '@/features/paging/components/rotation-page-history';
import { useActivateRotation } from '@/features/rotations/api/activate-rotation';
import { useChangeRotationType } from '@/features/rotations/api/change-rotation-type';
import { useDeleteRotation } from '@/features/rotations/api/delete-rotation';
import { useRotation } from '@/features/rotations/api/get-rotation';
import { useSuspendRotation } from '@/features/rotations/api/suspend-rotation';
import { useTakeOnCall } from '@/features/rotations/api/take-on-call';
import {
  BackupOnCall,
  HandoffAcknowledgementNotice,
} from '@/features/rotations/components/acknowledge-handoff';
import { AddMemberDialog } from '@/features/rotations/components/add-member-dialog';
import { AddScheduleDialog } from '@/features/rotations/components/add-schedule-dialog';
import { ConfirmDialog } from '@/features/rotations/components/confirm-dialog';
import { EditRotationDialog } from '@/features/rotations/components/edit-rotation-dialog';
import { HandoffDueNotice } from '@/features/rotations/components/handoff-due';
import { MembersTable } from '@/features/rotations/components/members-table';
import { PageOnCallDialog } from '@/features/rotations/components/page-on-call-dialog';
import { PassBatonDialog } from '@/features/rotations/components/pass-baton-dialog';
import { PersonAvatar } from '@/features/rotations/components/person-avatar';
import { ReassignDialog } from '@/features/rotations/components/reassign-dialog';
import { RequestCoverageDialog } from '@/features/rotations/components/request-coverage-dialog';
import { WEEKDAYS } from '@/features/rotations/components/rotation-form';
import { ScheduleSection } from '@/features/rotations/components/schedule-section';
import { ScheduledModeGuideDialog } from '@/features/rotations/components/scheduled-mode-guide-dialog';
import { canPage, rotationSummary } from '@/features/rotations/lib/rotation-view';
import { ApiRequestError } from '@/lib/api-client';
import { useAuth } from '@/lib/use-auth';
import { useTimeFormat } from '@/lib/use-time-format';

type DialogName =
  | 'pass'
  | 'reassign'
  | 'add-member'
  | 'coverage'
  | 'page'
  | 'add-schedule'
  | 'guide'
  | 'edit'
  | 'delete';

function BackButton() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-muted-foreground">
      <Link to="/rotations">
        <ArrowLeft aria-hidden="true" />
        Back to Rotations
      </Link>
    </Button>
  );
}

function NotFound() {
  return (
    <div className="flex flex-col items-center justify-center gap-4 py-20 text-center">
      <CircleAlert className="size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="font-semibold text-2xl tracking-tight">Rotation Not Found</h1>
      <p className="max-w-md text-muted-foreground">
        The requested rotation could not be found. It may have been deleted.
      </p>
      <Button asChild>
        <Link to="/rotations">
          <ArrowLeft aria-hidden="true" />
          Return to Rotations
        </Link>
      </Button>
    </div>
  );
}

function DetailSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-6" role="status" aria-label="Loading rotation">
      <Skeleton className="h-8 w-32" />
      <div className="grid gap-2">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-4 w-96 max-w-full" />
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-40 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-48 rounded-xl" />
      <Skeleton className="h-64 rounded-xl" />
    </div>
  );
}

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
        <p className="text-muted-foreground text-sm">{empty}</p>
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

function handoffScheduleText(rotation: Rotation): string {
  if (rotation.cadence === 'weekly') {
    return `${WEEKDAYS[rotation.handoffWeekday] ?? 'Weekly'}s at ${rotation.handoffTime}`;
  }
  return `Every day at ${rotation.handoffTime}`;
}

function Detail({ rotation }: { rotation: Rotation }) {
  const fmt = useTimeFormat();
  const { user, roles } = useAuth();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const takeOnCall = useTakeOnCall();
  const suspend = useSuspendRotation();
  const activate = useActivateRotation();
  const deleteRotation = useDeleteRotation();
  const changeType = useChangeRotationType({ onScheduleNeeded: () => setDialog('guide') });
  const userId = user?.id ?? -1;

  const opener = (name: DialogName) => ({
    open: dialog === name,
    onOpenChange: (open: boolean) => setDialog(open ? name : null),
  });

  const canEdit = can(roles, 'rotation.edit');
  const canChangeType = can(roles, 'rotation.changeType');
  const canSuspend = can(roles, 'rotation.suspend');
  const canDelete = can(roles, 'rotation.delete');
  const canManageSchedules = can(roles, 'schedule.manage');
  const actor = { id: userId, roles };
  const mayReassign =
    canReassign(rotation, actor) &&
    rotation.members.some((m) => m.userId !== rotation.currentOnCallUserId);
  const mayPass = canPassBaton(rotation, actor);
  const mayAskCoverage = canRequestCoverage(rotation, actor);
  const mayTake = canTakeOnCall(rotation, actor);
  const mayPage = pageRefusal(rotation) === null && canPage(rotation, userId, roles);
  const holder = rotation.currentOnCallUserId === userId;
  const rotationRef = { rotationId: rotation.id, rotationName: rotation.name };

  return (
    <div className="grid grid-cols-1 gap-6">
      <BackButton />

      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="break-words font-semibold text-2xl tracking-tight">{rotation.name}</h1>
            {rotation.suspended ? <Badge tone="warning">Suspended</Badge> : null}
            <Badge variant="outline">{rotation.type === 'scheduled' ? 'Scheduled' : 'Fixed'}</Badge>
          </div>
          <p className="text-muted-foreground">{rotationSummary(rotation)}</p>
          <TimesInZone />
        </div>
        {canEdit || canSuspend || canDelete ? (
          <div className="flex flex-wrap gap-2">
            {canEdit ? (
              <Button variant="outline" onClick={() => setDialog('edit')}>
                <Pencil aria-hidden="true" />
                Edit
              </Button>
            ) : null}
            {canSuspend ? (
              rotation.suspended ? (
                <Button
                  variant="outline"
                  pending={activate.isPending}
                  onClick={() => activate.mutate(rotationRef)}
                >
                  {activate.isPending ? null : <Play aria-hidden="true" />}
                  Activate Rotation
                </Button>
              ) : (
                <Button
                  variant="outline"
                  pending={suspend.isPending}
                  onClick={() => suspend.mutate(rotationRef)}
                >
                  {suspend.isPending ? null : <Pause aria-hidden="true" />}
                  Suspend Rotation
                </Button>
              )
            ) : null}
            {canDelete ? (
              <Button variant="destructive" onClick={() => setDialog('delete')}>
                <Trash2 aria-hidden="true" />
                Delete Rotation
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>

      {rotation.suspended ? (
        <Alert tone="warning">
          <Pause aria-hidden="true" />
          <AlertTitle>This rotation is suspended</AlertTitle>
          <AlertDescription>
            It accepts no handoffs and takes no part in alerting or automated handoffs until an
            administrator activates it.
          </AlertDescription>
        </Alert>
      ) : null}

      <HandoffAcknowledgementNotice rotation={rotation} />
      <HandoffDueNotice
        rotation={rotation}
        holder={holder}
        onPass={mayPass ? () => setDialog('pass') : undefined}
      />

      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
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
              empty="No one assigned"
              when={rotation.currentOnCall ? `Since ${fmt.dateTime(rotation.holderSince)}` : null}
            />
            <BackupOnCall rotation={rotation} />
          </CardContent>
          {mayPass || mayAskCoverage || mayTake || mayReassign || mayPage ? (
            <CardFooter className="mt-auto flex-wrap gap-2">
              {mayPass ? (
                <Button size="sm" onClick={() => setDialog('pass')}>
                  <ArrowRightLeft aria-hidden="true" />
                  Pass Baton
                </Button>
              ) : null}
              {mayAskCoverage ? (
                <Button size="sm" variant="outline" onClick={() => setDialog('coverage')}>
                  <LifeBuoy aria-hidden="true" />
                  Request Coverage
                </Button>
              ) : null}
              {mayTake ? (
                <Button
                  size="sm"
                  pending={takeOnCall.isPending}
                  onClick={() => takeOnCall.mutate(rotationRef)}
                >
                  {takeOnCall.isPending ? null : <Hand aria-hidden="true" />}
                  Take On-Call
                </Button>
              ) : null}
              {mayReassign ? (
                <Button size="sm" variant="outline" onClick={() => setDialog('reassign')}>
                  <UserRoundCog aria-hidden="true" />
                  Reassign
                </Button>
              ) : null}
              {mayPage ? (
                <Button size="sm" variant="outline" onClick={() => setDialog('page')}>
                  <BellRing aria-hidden="true" />
                  Page On-Call
                </Button>
              ) : null}
            </CardFooter>
          ) : null}
        </Card>

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

        <Card className="gap-4 md:col-span-2 xl:col-span-1">
          <CardHeader>
            <CardTitle asChild>
              <h2>Settings</h2>
            </CardTitle>
            <CardDescription>How the baton changes hands.</CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2.5 text-sm">
              <dt className="text-muted-foreground">
                {canChangeType ? <Label htmlFor="rotation-type">Type</Label> : 'Type'}
              </dt>
              <dd>
                {canChangeType ? (
                  <Select
                    value={rotation.type}
                    disabled={changeType.isPending}
                    onValueChange={(type) =>
                      changeType.mutate({
                        rotationId: rotation.id,
                        type: type as Rotation['type'],
                      })
                    }
                  >
                    <SelectTrigger id="rotation-type" size="sm" className="w-36">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="fixed">Fixed</SelectItem>
                      <SelectItem value="scheduled">Scheduled</SelectItem>
                    </SelectContent>
                  </Select>
                ) : rotation.type === 'scheduled' ? (
                  'Scheduled'
                ) : (
                  'Fixed'
                )}
              </dd>
              <dt className="text-muted-foreground">Cadence</dt>
              <dd>{rotation.cadence === 'weekly' ? 'Weekly' : 'Daily'}</dd>
              <dt className="text-muted-foreground">Handoff</dt>
              <dd>{handoffScheduleText(rotation)}</dd>
              <dt className="text-muted-foreground">Time zone</dt>
              <dd className="truncate">{rotation.timeZone}</dd>
              <dt className="text-muted-foreground">Members</dt>
              <dd>{rotation.members.length}</dd>
            </dl>
          </CardContent>
        </Card>
      </div>

      <ScheduleSection
        rotation={rotation}
        canManage={canManageSchedules}
        onAddSchedule={() => setDialog('add-schedule')}
        onShowGuide={() => setDialog('guide')}
      />

      <Card className="gap-4">
        <CardHeader>
          <CardTitle asChild>
            <h2>On-Call Team</h2>
          </CardTitle>
          <CardDescription>
            {can(roles, 'member.reorder')
              ? 'Members take turns in this order. Drag a row by its handle, or use the arrows, to change it.'
              : 'Members take turns in this order.'}
          </CardDescription>
          {can(roles, 'member.add') ? (
            <CardAction>
              <Button
                size="sm"
                onClick={() => setDialog('add-member')}
                aria-label="Add On-Call Person"
              >
                <UserPlus aria-hidden="true" />
                <span className="hidden sm:inline">Add On-Call Person</span>
                <span className="sm:hidden">Add</span>
              </Button>
            </CardAction>
          ) : null}
        </CardHeader>
        <CardContent>
          <MembersTable
            rotation={rotation}
            canReorder={can(roles, 'member.reorder')}
            canRemove={can(roles, 'member.remove')}
          />
        </CardContent>
      </Card>

      <CoverageRequestsPanel rotationId={rotation.id} />
      {can(roles, 'page.viewHistory') ? <RotationPageHistory rotationId={rotation.id} /> : null}

      <PassBatonDialog rotation={rotation} {...opener('pass')} />
      <ReassignDialog rotation={rotation} {...opener('reassign')} />
      <AddMemberDialog rotation={rotation} {...opener('add-member')} />
      <RequestCoverageDialog rotation={rotation} {...opener('coverage')} />
      <PageOnCallDialog rotation={rotation} {...opener('page')} />
      <AddScheduleDialog rotation={rotation} {...opener('add-schedule')} />
      <ScheduledModeGuideDialog
        {...opener('guide')}
        onAddSchedule={canManageSchedules ? () => setDialog('add-schedule') : undefined}
      />
      {canEdit ? (
        <EditRotationDialog
          rotation={rotation}
          canChangeType={canChangeType}
          onScheduleNeeded={() => setDialog('guide')}
          {...opener('edit')}
        />
      ) : null}
      <ConfirmDialog
        {...opener('delete')}
        title={`Delete ${rotation.name}?`}
        description="The rotation, its members, schedule and handoff history will be deleted. This cannot be undone."
        confirmLabel="Delete Rotation"
        pendingLabel="Deleting..."
        pending={deleteRotation.isPending}
        onConfirm={() =>
          deleteRotation.mutate(rotationRef, {
            onSuccess: () => {
              setDialog(null);
              navigate('/rotations', { replace: true });
            },
          })
        }
      />
    </div>
  );
}

/** RotationDetailPage is /rotations/{id}: the rotation, its schedule and its team. */
export function RotationDetailPage() {
  const { id } = useParams();
  const rotationId = Number(id);
  const valid = Number.isInteger(rotationId) && rotationId > 0;
  const rotation = useRotation(rotationId, { enabled: valid });

  if (!valid) return <NotFound />;
  if (rotation.isPending) return <DetailSkeleton />;
  if (rotation.isError) {
    const status = rotation.error instanceof ApiRequestError ? rotation.error.status : 0;
    if (status === 404 || status === 400) return <NotFound />;
    return (
      <div className="grid grid-cols-1 gap-6">
        <BackButton />
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>Failed to fetch rotation details</AlertTitle>
          <AlertDescription>
            <Button variant="outline" size="sm" onClick={() => rotation.refetch()}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      </div>
    );
  }
  return <Detail rotation={rotation.data} />;
}
