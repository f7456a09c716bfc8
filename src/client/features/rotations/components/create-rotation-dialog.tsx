import { useNavigate } from 'react-router';
import { FormDialog } from '@/components/form-dialog';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { useAuth } from '@/lib/use-auth';
import { useCreateRotation } from '../api/create-rotation';
import { RotationForm } from './rotation-form';

const DEFAULT_HANDOFF_TIME = '09:00';
const DEFAULT_WEEKDAY = 1; // Monday

/**
 * CreateRotationDialog is 'Create New Rotation', with the specification's cadence or layers
 * (decision 248), and its members with who is on call first (decision 255); a refusal naming
 * fields shows beside them. On success the form resets, the dialog closes and the new rotation
 * opens.
 */
export function CreateRotationDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { user } = useAuth();
  const createRotation = useCreateRotation();
  const navigate = useNavigate();
  const pending = createRotation.isPending;

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} pending={pending}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Create New Rotation</DialogTitle>
          <DialogDescription>Set up a new on-call rotation for your team.</DialogDescription>
        </DialogHeader>
        <RotationForm
          defaultValues={{
            name: '',
            description: '',
            type: 'fixed',
            cadence: 'weekly',
            timeZone: user?.timezone ?? 'UTC',
            handoffTime: DEFAULT_HANDOFF_TIME,
            handoffWeekday: DEFAULT_WEEKDAY,
            pattern: 'cadence',
            layers: [],
            memberIds: [],
          }}
          showMembers
          submitLabel="Create Rotation"
          pendingLabel="Creating..."
          pending={pending}
          onCancel={() => onOpenChange(false)}
          onSubmit={(request, form) =>
            createRotation.mutate(request, {
              onSuccess: (created) => {
                form.reset();
                onOpenChange(false);
                if (created?.id) navigate(`/rotations/${created.id}`);
              },
              onError: (error) => form.showRefusal(error),
            })
          }
        />
      </DialogContent>
    </FormDialog>
  );
}
