import { zodResolver } from '@hookform/resolvers/zod';
import { ReassignInputSchema, type Rotation } from '@shared/contracts/rotations';
import { membersInOrder } from '@shared/domain/rotation';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, TextareaField } from '@/components/form-fields';
import { PersonField } from '@/components/person-field';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { useReassignOnCall } from '../api/reassign-on-call';
import { chosenPerson } from '../lib/chosen-person';
import { MemberPreview } from './member-preview';

const ReassignFormSchema = ReassignInputSchema.extend({
  toUserId: chosenPerson(ReassignInputSchema.shape.toUserId),
});
type ReassignFormValues = z.input<typeof ReassignFormSchema>;
const EMPTY: ReassignFormValues = { toUserId: '', notes: '' };

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
  const form = useForm<ReassignFormValues, unknown, z.output<typeof ReassignFormSchema>>({
    resolver: zodResolver(ReassignFormSchema),
    defaultValues: EMPTY,
  });
  const pending = reassign.isPending;

  const candidates = membersInOrder(rotation.members)
    .filter((m) => m.userId !== rotation.currentOnCallUserId)
    .map((m) => m.user);
  const toUserId = form.watch('toUserId');
  const chosen = candidates.find((p) => String(p.id) === toUserId) ?? null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reassign on-call</DialogTitle>
          <DialogDescription>
            {rotation.currentOnCall
              ? `Move on-call duty for ${rotation.name} from ${rotation.currentOnCall.name} to another team member.`
              : `Assign on-call duty for ${rotation.name} to a team member.`}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ toUserId: id, notes }) => {
              const person = candidates.find((p) => p.id === id);
              if (!person) return;
              reassign.mutate(
                {
                  rotationId: rotation.id,
                  toUserId: person.id,
                  notes,
                  toUserName: person.name,
                },
                {
                  onSuccess: () => {
                    form.reset(EMPTY);
                    onOpenChange(false);
                  },
                },
              );
            })}
          >
            <PersonField
              control={form.control}
              name="toUserId"
              label="Assign on-call to"
              people={candidates}
              disabled={pending}
              emptyText="There is no other member to assign on-call to."
            />
            {chosen ? <MemberPreview person={chosen} /> : null}
            <TextareaField
              control={form.control}
              name="notes"
              label="Notes (optional)"
              disabled={pending}
              placeholder="Why the baton moves, and what the new on-call engineer should know..."
            />
            <DialogFormFooter
              pending={pending}
              submitLabel="Reassign on-call"
              pendingLabel="Reassigning..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
