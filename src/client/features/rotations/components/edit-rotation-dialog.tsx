import type { Rotation } from '@shared/contracts/rotations';
import { FormDialog } from '@/components/form-dialog';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { useUpdateRotation } from '../api/update-rotation';
import { RotationForm } from './rotation-form';

/**
 * EditRotationDialog edits name, description, cadence and handoff settings; the type only for
 * those allowed to change it (the server refuses a switch to scheduled without a schedule entry).
 */
export function EditRotationDialog({
  rotation,
  open,
  onOpenChange,
  canChangeType,
  onScheduleNeeded,
}: {
  rotation: Rotation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  canChangeType: boolean;
  onScheduleNeeded: () => void;
}) {
  const updateRotation = useUpdateRotation({
    onScheduleNeeded: () => {
      onOpenChange(false);
      onScheduleNeeded();
    },
  });
  const pending = updateRotation.isPending;

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} pending={pending}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Edit rotation</DialogTitle>
          <DialogDescription>Update the details of {rotation.name}.</DialogDescription>
        </DialogHeader>
        {open ? (
          <RotationForm
            defaultValues={{
              name: rotation.name,
              description: rotation.description ?? '',
              type: rotation.type,
              // The form edits the specification's cadences; layers are edited as layers.
              cadence: rotation.cadence === 'weekly' ? 'weekly' : 'daily',
              timeZone: rotation.timeZone,
              handoffTime: rotation.handoffTime,
              handoffWeekday: rotation.handoffWeekday,
            }}
            showType={canChangeType}
            submitLabel="Save Changes"
            pendingLabel="Saving..."
            pending={pending}
            onCancel={() => onOpenChange(false)}
            onSubmit={({ type, ...values }) =>
              updateRotation.mutate(
                { rotationId: rotation.id, input: canChangeType ? { ...values, type } : values },
                { onSuccess: () => onOpenChange(false) },
              )
            }
          />
        ) : null}
      </DialogContent>
    </FormDialog>
  );
}
