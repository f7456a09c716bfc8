import type { Rotation } from '@shared/contracts/rotations';
import { nextMemberOrder } from '@shared/domain/rotation';
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
import { Skeleton } from '@/components/ui/skeleton';
import { useAddMember } from '../api/add-member';
import { useEligibleUsers } from '../api/get-eligible-users';
import { MemberPreview } from './member-preview';
import { PersonSelect } from './person-select';

/**
 * AddMemberDialog adds a user with the on-call or manager role who is not yet a member, at the
 * end of the order (highest order + 1, or 0).
 */
export function AddMemberDialog({
  rotation,
  open,
  onOpenChange,
}: {
  rotation: Rotation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const eligible = useEligibleUsers({ enabled: open });
  const addMember = useAddMember();
  const [userId, setUserId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  const pending = addMember.isPending;

  const memberIds = new Set(rotation.members.map((m) => m.userId));
  const candidates = (eligible.data ?? [])
    .filter((u) => !memberIds.has(u.id))
    .map(({ id, name, email, phone }) => ({ id, name, email, phone }));
  const chosen = candidates.find((p) => String(p.id) === userId) ?? null;

  const reset = () => {
    setUserId('');
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
      setError('Please select a team member');
      return;
    }
    addMember.mutate(
      {
        rotationId: rotation.id,
        userId: chosen.id,
        order: nextMemberOrder(rotation.members),
        userName: chosen.name,
      },
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
          <DialogTitle>Add on-call person</DialogTitle>
          <DialogDescription>
            Add a team member to {rotation.name}. They join at the end of the rotation order.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          {eligible.isPending ? (
            <div className="grid gap-2">
              <Skeleton className="h-4 w-24" />
              <Skeleton className="h-9 w-full" />
            </div>
          ) : eligible.isError ? (
            <p role="alert" className="text-destructive text-sm">
              Failed to fetch eligible users
            </p>
          ) : (
            <PersonSelect
              id={`${ids}-user`}
              label="Team member"
              people={candidates}
              value={userId}
              onChange={(value) => {
                setUserId(value);
                setError(null);
              }}
              disabled={pending}
              error={error}
              emptyText="Everyone with the on-call or manager role is already in this rotation."
            />
          )}
          {chosen ? <MemberPreview person={chosen} /> : null}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={pending} disabled={eligible.isPending}>
              {pending ? 'Adding...' : 'Add person'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
