import type { Rotation } from '@shared/contracts/rotations';
import { membersInOrder } from '@shared/domain/rotation';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { notifyFailure } from '@/lib/notify';
import { useAuth } from '@/lib/use-auth';
import { useRotation } from '../api/get-rotation';
import { usePassBaton } from '../api/pass-baton';
import { MemberPreview } from './member-preview';
import { PersonSelect } from './person-select';

const SELECT_MEMBER_MESSAGE = 'Please select a team member to pass the baton to';

/**
 * PassBatonDialog hands the signed-in holder's baton to another member of the rotation, with
 * optional notes, optionally as an emergency handoff. While the request runs everything is disabled; success closes and clears it,
 * failure leaves it open as it was.
 */
export function PassBatonDialog({
  rotation,
  open,
  onOpenChange,
}: {
  rotation: Pick<Rotation, 'id' | 'name' | 'members'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { user } = useAuth();
  const details = useRotation(rotation.id, { enabled: open });
  const passBaton = usePassBaton();
  const [toUserId, setToUserId] = useState('');
  const [notes, setNotes] = useState('');
  const [urgent, setUrgent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  const pending = passBaton.isPending;

  const reset = () => {
    setToUserId('');
    setNotes('');
    setUrgent(false);
    setError(null);
  };

  useEffect(() => {
    if (open && details.isError) {
      notifyFailure(
        'Error fetching rotation details',
        'Could not load team members. Please try again.',
      );
      onOpenChange(false);
    }
  }, [open, details.isError, onOpenChange]);

  const members = membersInOrder(details.data?.members ?? rotation.members).filter(
    (m) => m.userId !== user?.id,
  );
  const chosen = members.find((m) => String(m.userId) === toUserId)?.user ?? null;

  const close = (next: boolean) => {
    if (pending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!chosen) {
      setError(SELECT_MEMBER_MESSAGE);
      return;
    }
    passBaton.mutate(
      { rotationId: rotation.id, toUserId: chosen.id, notes, urgent, toUserName: chosen.name },
      {
        onSuccess: () => {
          reset();
          onOpenChange(false);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Pass the baton</DialogTitle>
          <DialogDescription>
            You are about to pass your on-call responsibilities for {rotation.name}. Select a team
            member to take over.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <PersonSelect
            id={`${ids}-to`}
            label="Pass baton to"
            people={members.map((m) => m.user)}
            value={toUserId}
            onChange={(value) => {
              setToUserId(value);
              setError(null);
            }}
            disabled={pending}
            error={error}
            emptyText={
              details.isPending
                ? undefined
                : 'There is no one else in this rotation to pass the baton to.'
            }
          />
          {chosen ? <MemberPreview person={chosen} /> : null}
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-notes`}>Handoff notes (optional)</Label>
            <Textarea
              id={`${ids}-notes`}
              rows={3}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
              disabled={pending}
              placeholder="Add context for the next on-call engineer: ongoing incidents, pending tasks, things to watch..."
            />
          </div>
          <div className="flex items-start gap-3">
            <Checkbox
              id={`${ids}-urgent`}
              checked={urgent}
              onCheckedChange={(value) => setUrgent(value === true)}
              disabled={pending}
              aria-describedby={`${ids}-urgent-help`}
            />
            <div className="grid gap-1">
              <Label htmlFor={`${ids}-urgent`}>Emergency handoff</Label>
              <p id={`${ids}-urgent-help`} className="text-muted-foreground text-xs">
                The receiver must acknowledge it; you stay backup until they do.
              </p>
            </div>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={pending} disabled={!chosen}>
              {pending ? 'Passing baton...' : 'Confirm handoff'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
