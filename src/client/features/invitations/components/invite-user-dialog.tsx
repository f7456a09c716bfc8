import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CreateInvitationInput,
  createInvitationInputSchema,
  INVITATION_ROLES,
} from '@shared/contracts/invitations';
import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, InputField, SelectField } from '@/components/form-fields';
import { Button } from '@/components/ui/button';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { useCreateInvitation } from '../api/create-invitation';
import { invitationRoleLabel } from '../api/validate-invitation';

type FormValues = { email: string; name: string; role: (typeof INVITATION_ROLES)[number] };
const EMPTY: FormValues = { email: '', name: '', role: 'member' };

/** InviteUserDialog invites a person by email, name and role (default member, shown as On-Call). */
export function InviteUserDialog({ companyDomain }: { companyDomain: string }) {
  const [open, setOpen] = useState(false);
  const createInvitation = useCreateInvitation();
  const schema = useMemo(() => createInvitationInputSchema(companyDomain), [companyDomain]);
  const form = useForm<CreateInvitationInput, unknown, FormValues>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      pending={createInvitation.isPending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden="true" />
          Invite User
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite User</DialogTitle>
          <DialogDescription>
            Send an invitation to join Baton. The email must be on the {companyDomain} domain.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) =>
              createInvitation.mutate(values, {
                onSuccess: () => {
                  setOpen(false);
                  form.reset(EMPTY);
                },
              }),
            )}
          >
            <InputField
              control={form.control}
              name="email"
              label="Email"
              type="email"
              autoComplete="off"
              placeholder={`name@${companyDomain}`}
            />
            <InputField control={form.control} name="name" label="Name" autoComplete="off" />
            <SelectField
              control={form.control}
              name="role"
              label="Role"
              options={INVITATION_ROLES}
              optionLabel={invitationRoleLabel}
              placeholder="Select a role"
            />
            <DialogFormFooter
              pending={createInvitation.isPending}
              submitLabel="Send Invitation"
              pendingLabel="Sending..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
