import type { Rotation } from '@shared/contracts/rotations';
import { can } from '@shared/domain/permissions';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useAuth } from '@/lib/use-auth';
import { useDeleteRotation } from '../api/delete-rotation';
import { canManage } from '../lib/rotation-view';
import { AddMemberDialog } from './add-member-dialog';
import { AddScheduleDialog } from './add-schedule-dialog';
import { EditRotationDialog } from './edit-rotation-dialog';
import { PageOnCallDialog } from './page-on-call-dialog';
import { PassBatonDialog } from './pass-baton-dialog';
import { ReassignDialog } from './reassign-dialog';
import { RequestCoverageDialog } from './request-coverage-dialog';
import { ScheduledModeGuideDialog } from './scheduled-mode-guide-dialog';

/** The dialogs of the rotation page; at most one is open. */
export type RotationDialogName =
  | 'pass'
  | 'reassign'
  | 'add-member'
  | 'coverage'
  | 'page'
  | 'add-schedule'
  | 'guide'
  | 'edit'
  | 'delete';

/**
 * RotationDialogs holds every dialog of the rotation page; `open` names the one shown (or null)
 * and `onOpen` switches to another or closes them. Deleting the rotation leaves for /rotations.
 */
export function RotationDialogs({
  rotation,
  open,
  onOpen,
}: {
  rotation: Rotation;
  open: RotationDialogName | null;
  onOpen: (name: RotationDialogName | null) => void;
}) {
  const { roles, user } = useAuth();
  const navigate = useNavigate();
  const deleteRotation = useDeleteRotation();
  const canEdit = can(roles, 'rotation.edit') && canManage(rotation, user?.id ?? null, roles);
  const canManageSchedules = can(roles, 'schedule.manage');

  const opener = (name: RotationDialogName) => ({
    open: open === name,
    onOpenChange: (next: boolean) => onOpen(next ? name : null),
  });

  return (
    <>
      <PassBatonDialog rotation={rotation} {...opener('pass')} />
      <ReassignDialog rotation={rotation} {...opener('reassign')} />
      <AddMemberDialog rotation={rotation} {...opener('add-member')} />
      <RequestCoverageDialog rotation={rotation} {...opener('coverage')} />
      <PageOnCallDialog rotation={rotation} {...opener('page')} />
      <AddScheduleDialog rotation={rotation} {...opener('add-schedule')} />
      <ScheduledModeGuideDialog
        {...opener('guide')}
        onAddSchedule={canManageSchedules ? () => onOpen('add-schedule') : undefined}
      />
      {canEdit ? (
        <EditRotationDialog
          rotation={rotation}
          canChangeType={can(roles, 'rotation.changeType')}
          onScheduleNeeded={() => onOpen('guide')}
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
          deleteRotation.mutate(
            { rotationId: rotation.id, rotationName: rotation.name },
            {
              onSuccess: () => {
                onOpen(null);
                navigate('/rotations', { replace: true });
              },
            },
          )
        }
      />
    </>
  );
}
