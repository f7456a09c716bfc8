import type { Rotation } from '@shared/contracts/rotations';
import { can } from '@shared/domain/permissions';
import { Pause, Pencil, Play, Trash2 } from 'lucide-react';
import { TimesInZone } from '@/components/times-in-zone';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/use-auth';
import { useActivateRotation } from '../api/activate-rotation';
import { useSuspendRotation } from '../api/suspend-rotation';
import { canManage, patternLine, rotationSummary } from '../lib/rotation-view';

/**
 * RotationHeader is the rotation page's title: name, suspended and type badges, summary, the
 * pattern in words (unless the summary says it), the zone its times are in, and the Edit,
 * Suspend / Activate and Delete actions the viewer may use.
 */
export function RotationHeader({
  rotation,
  onEdit,
  onDelete,
}: {
  rotation: Rotation;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { roles, user } = useAuth();
  const suspend = useSuspendRotation();
  const activate = useActivateRotation();
  // Managers edit only the rotations they manage (decision 233).
  const canEdit = can(roles, 'rotation.edit') && canManage(rotation, user?.id ?? null, roles);
  const canSuspend = can(roles, 'rotation.suspend');
  const canDelete = can(roles, 'rotation.delete');
  const rotationRef = { rotationId: rotation.id, rotationName: rotation.name };
  const summary = rotationSummary(rotation);
  const pattern = patternLine(rotation, summary);

  return (
    <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
      <div className="min-w-0 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="break-words font-semibold text-2xl tracking-tight">{rotation.name}</h1>
          {rotation.suspended ? <Badge tone="warning">Suspended</Badge> : null}
          <Badge variant="outline">{rotation.type === 'scheduled' ? 'Scheduled' : 'Fixed'}</Badge>
        </div>
        <p className="text-muted-foreground">{summary}</p>
        {pattern ? <p className="text-muted-foreground text-sm">{pattern}</p> : null}
        <TimesInZone />
      </div>
      {canEdit || canSuspend || canDelete ? (
        <div className="flex flex-wrap gap-2">
          {canEdit ? (
            <Button variant="outline" onClick={onEdit}>
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
            <Button variant="destructive" onClick={onDelete}>
              <Trash2 aria-hidden="true" />
              Delete Rotation
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** RotationSuspendedNotice tells everyone on the rotation page that it is suspended. */
export function RotationSuspendedNotice({ rotation }: { rotation: Pick<Rotation, 'suspended'> }) {
  if (!rotation.suspended) return null;
  return (
    <Alert tone="warning">
      <Pause aria-hidden="true" />
      <AlertTitle>This rotation is suspended</AlertTitle>
      <AlertDescription>
        It accepts no handoffs and takes no part in alerting or automated handoffs until an
        administrator activates it.
      </AlertDescription>
    </Alert>
  );
}
