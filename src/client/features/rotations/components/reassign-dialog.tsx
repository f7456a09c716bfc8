import type { Rotation } from '@shared/contracts/rotations';
import { membersInOrder } from '@shared/domain/rotation';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
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
import { useReassignOnCall } from '../api/reassign-on-call';
import { MemberPreview } from './member-preview';
import { PersonSelect } from './person-select';

const SELECT_MEMBER_MESSAGE = 'Please select a team member to assign on-call to';

/** ReassignDialog lets a manager move the baton to any member but the current holder. */
export function ReassignDialog({
  rotation,
  open,
  onOpenChange,
}: {
  rotation: Rotation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const reassign = useReassignOnCall();
  const [toUserId, setToUserId] = useState('');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  const pending = reassign.isPending;

  const candidates = membersInOrder(rotation.members)
    .filter((m) => m.userId !== rotation.currentOnCallUserId)
    .map((m) => m.user);
  const chosen = candidates.find((p) => String(p.id) === toUserId) ?? null;

  const reset = () => {
    setToUserId('');
    setNotes('');
    setError(null);
  };
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
    reassign.mutate(
      { rotationId: rotation.id, toUserId: chosen.id, notes, toUserName: chosen.name },
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
          <DialogTitle>Reassign on-call</DialogTitle>
          <DialogDescription>
            {rotation.currentOnCall
              ? `Move on-call duty for ${rotation.name} from ${rotation.currentOnCall.name} to another team member.`
              : `Assign on-call duty for ${rotation.name} to a team member.`}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <PersonSelect
            id={`${ids}-to`}
            label="Assign on-call to"
            people={candidates}
            value={toUserId}
            onChange={(value) => {
              setToUserId(value);
              setError(null);
            }}
            disabled={pending}
            error={error}
            emptyText="There is no other member to assign on-call to."
          />
          {chosen ? <MemberPreview person={chosen} /> : null}
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-notes`}>Notes (optional)</Label>
            <Textarea
              id={`${ids}-notes`}
              rows={3}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
              disabled={pending}
              placeholder="Why the baton moves, and what the new on-call engineer should know..."
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={pending}>
              {pending ? 'Reassigning...' : 'Reassign on-call'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
