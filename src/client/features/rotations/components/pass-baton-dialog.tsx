import { zodResolver } from '@hookform/resolvers/zod';
import { PassBatonInputSchema, type Rotation } from '@shared/contracts/rotations';
import { membersInOrder } from '@shared/domain/rotation';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, TextareaField } from '@/components/form-fields';
import { PersonField } from '@/components/person-field';
import { Checkbox } from '@/components/ui/checkbox';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
} from '@/components/ui/form';
import { notifyFailure } from '@/lib/notify';
import { useAuth } from '@/lib/use-auth';
import { useRotation } from '../api/get-rotation';
import { usePassBaton } from '../api/pass-baton';
import { chosenPerson } from '../lib/chosen-person';
import { MemberPreview } from './member-preview';

const PassBatonFormSchema = PassBatonInputSchema.extend({
  toUserId: chosenPerson(PassBatonInputSchema.shape.toUserId),
});
type PassBatonFormValues = z.input<typeof PassBatonFormSchema>;
const EMPTY: PassBatonFormValues = { toUserId: '', notes: '', urgent: false };

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
  const form = useForm<PassBatonFormValues, unknown, z.output<typeof PassBatonFormSchema>>({
    resolver: zodResolver(PassBatonFormSchema),
    defaultValues: EMPTY,
  });
  const pending = passBaton.isPending;

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
  const toUserId = form.watch('toUserId');
  const chosen = members.find((m) => String(m.userId) === toUserId)?.user ?? null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Pass the baton</DialogTitle>
          <DialogDescription>
            You are about to pass your on-call responsibilities for {rotation.name}. Select a team
            member to take over.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ toUserId: id, notes, urgent }) => {
              const person = members.find((m) => m.userId === id)?.user;
              if (!person) return;
              passBaton.mutate(
                {
                  rotationId: rotation.id,
                  toUserId: person.id,
                  notes,
                  urgent,
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
              label="Pass baton to"
              people={members.map((m) => m.user)}
              disabled={pending}
              emptyText={
                details.isPending
                  ? undefined
                  : 'There is no one else in this rotation to pass the baton to.'
              }
            />
            {chosen ? <MemberPreview person={chosen} /> : null}
            <TextareaField
              control={form.control}
              name="notes"
              label="Handoff notes (optional)"
              disabled={pending}
              placeholder="Add context for the next on-call engineer: ongoing incidents, pending tasks, things to watch..."
            />
            <FormField
              control={form.control}
              name="urgent"
              render={({ field }) => (
                <FormItem className="flex items-start gap-3">
                  <FormControl>
                    <Checkbox
                      checked={field.value === true}
                      onCheckedChange={(value) => field.onChange(value === true)}
                      onBlur={field.onBlur}
                      ref={field.ref}
                      disabled={pending}
                    />
                  </FormControl>
                  <div className="grid gap-1">
                    <FormLabel>Emergency handoff</FormLabel>
                    <FormDescription className="text-xs">
                      The receiver must acknowledge it; you stay backup until they do.
                    </FormDescription>
                  </div>
                </FormItem>
              )}
            />
            <DialogFormFooter
              pending={pending}
              submitLabel="Confirm handoff"
              pendingLabel="Passing baton..."
              submitDisabled={!chosen}
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
