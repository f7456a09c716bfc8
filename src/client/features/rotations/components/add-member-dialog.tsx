import { zodResolver } from '@hookform/resolvers/zod';
import { AddMemberInputSchema, type Rotation } from '@shared/contracts/rotations';
import { nextMemberOrder } from '@shared/domain/rotation';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter } from '@/components/form-fields';
import { PersonField } from '@/components/person-field';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { useAddMember } from '../api/add-member';
import { useEligibleUsers } from '../api/get-eligible-users';
import { chosenPerson } from '../lib/chosen-person';
import { MemberPreview } from './member-preview';

const AddMemberFormSchema = z.object({
  userId: chosenPerson(AddMemberInputSchema.shape.userId),
});
type AddMemberFormValues = z.input<typeof AddMemberFormSchema>;
const EMPTY: AddMemberFormValues = { userId: '' };

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
  const form = useForm<AddMemberFormValues, unknown, z.output<typeof AddMemberFormSchema>>({
    resolver: zodResolver(AddMemberFormSchema),
    defaultValues: EMPTY,
  });
  const pending = addMember.isPending;

  const memberIds = new Set(rotation.members.map((m) => m.userId));
  const candidates = (eligible.data ?? [])
    .filter((u) => !memberIds.has(u.id))
    .map(({ id, name, email, phone }) => ({ id, name, email, phone }));
  const userId = form.watch('userId');
  const chosen = candidates.find((p) => String(p.id) === userId) ?? null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add on-call person</DialogTitle>
          <DialogDescription>
            Add a team member to {rotation.name}. They join at the end of the rotation order.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ userId: id }) => {
              const person = candidates.find((p) => p.id === id);
              if (!person) return;
              addMember.mutate(
                {
                  rotationId: rotation.id,
                  userId: person.id,
                  order: nextMemberOrder(rotation.members),
                  person,
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
              name="userId"
              label="Team member"
              people={candidates}
              disabled={pending}
              emptyText="Everyone with the on-call or manager role is already in this rotation."
              loading={eligible.isPending}
              error={eligible.isError ? 'Failed to fetch eligible users' : null}
            />
            {chosen ? <MemberPreview person={chosen} /> : null}
            <DialogFormFooter
              pending={pending}
              submitLabel="Add person"
              pendingLabel="Adding..."
              submitDisabled={eligible.isPending}
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
