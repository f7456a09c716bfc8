import type { Rotation, UpdateRotationInput } from '@shared/contracts/rotations';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormDialog } from '@/components/form-dialog';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { useUpdateRotation } from '../api/update-rotation';
import { layerFormValuesOf, updateRequestOf } from '../lib/layer-form';
import { RotationForm, type RotationFormHandle } from './rotation-form';

/**
 * EditRotationDialog edits name, description, cadence and handoff settings, or a layered
 * rotation's layers (decision 248); the type only for those allowed to change it (the server
 * refuses a switch to scheduled without a schedule entry). Returning a layered rotation to the
 * specification's cadence (`layers: null`) is confirmed first.
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
  // A return to the specification's cadence waiting for its confirmation.
  const [unlayering, setUnlayering] = useState<{
    input: UpdateRotationInput;
    form: RotationFormHandle;
  } | null>(null);

  const save = (input: UpdateRotationInput, form: RotationFormHandle) =>
    updateRotation.mutate(
      { rotationId: rotation.id, input },
      {
        onSuccess: () => {
          setUnlayering(null);
          onOpenChange(false);
        },
        onError: (error) => {
          setUnlayering(null);
          form.showRefusal(error);
        },
      },
    );

  return (
    <>
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
                pattern: rotation.layered ? 'layers' : 'cadence',
                layers: rotation.layered
                  ? rotation.layers.map((l) => layerFormValuesOf(l, rotation.timeZone))
                  : [],
              }}
              showType={canChangeType}
              knownPeople={rotation.members.map((m) => ({ id: m.userId, name: m.user.name }))}
              submitLabel="Save Changes"
              pendingLabel="Saving..."
              pending={pending}
              onCancel={() => onOpenChange(false)}
              onSubmit={(request, form) => {
                const change = updateRequestOf(request, {
                  layered: rotation.layered,
                  canChangeType,
                });
                if (change.unlayers) setUnlayering({ input: change.input, form });
                else save(change.input, form);
              }}
            />
          ) : null}
        </DialogContent>
      </FormDialog>
      <ConfirmDialog
        open={unlayering !== null}
        onOpenChange={(next) => (next ? undefined : setUnlayering(null))}
        title="Return to a simple rotation?"
        description={`${rotation.name}'s layers will be removed: its members stay and take turns in order, passing the baton daily or weekly at the handoff time you chose. Layers given again later start afresh.`}
        confirmLabel="Remove layers"
        pendingLabel="Saving..."
        pending={pending}
        onConfirm={() => (unlayering ? save(unlayering.input, unlayering.form) : undefined)}
      />
    </>
  );
}
