import { zodResolver } from '@hookform/resolvers/zod';
import {
  type Incident,
  type ReassignIncidentInput,
  ReassignIncidentInputSchema,
} from '@shared/contracts/incidents';
import { useEffect } from 'react';
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
import { useIncidentAction } from '../api/act-on-incident';
import { usePeople } from '../api/get-people';

/**
 * ReassignIncidentDialog hands an incident to one person: they are notified now and the climb
 * restarts from them. The reason, optional, goes into the timeline.
 */
export function ReassignIncidentDialog({
  incident,
  open,
  onOpenChange,
}: {
  incident: Incident;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const act = useIncidentAction(incident.id);
  const people = usePeople({ enabled: open });
  const form = useForm<
    ReassignIncidentInput,
    unknown,
    z.output<typeof ReassignIncidentInputSchema>
  >({
    resolver: zodResolver(ReassignIncidentInputSchema),
    defaultValues: { reason: '' },
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset({ reason: '' });
  }, [open, reset]);
  const pending = act.isPending;
  const assigned = new Set(incident.assignees.map((p) => p.id));

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} pending={pending}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reassign incident</DialogTitle>
          <DialogDescription>
            The person you choose is notified now by their notification channels, and the escalation
            starts again from them.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ userId, reason }) =>
              act.mutate(
                { kind: 'reassign', input: { userId, ...(reason ? { reason } : {}) } },
                { onSuccess: () => onOpenChange(false) },
              ),
            )}
          >
            <PersonField
              control={form.control}
              name="userId"
              label="Person"
              people={people.data ?? []}
              numeric
              optionLabel={(person) =>
                assigned.has(person.id) ? `${person.name} (has it now)` : person.name
              }
              disabled={pending || people.isPending}
              placeholder={people.isPending ? 'Loading people...' : 'Choose a person'}
              description={people.isError ? 'The list of people could not be read.' : undefined}
            />
            <TextareaField
              control={form.control}
              name="reason"
              label="Reason (optional)"
              disabled={pending}
              placeholder="Why this person?"
            />
            <DialogFormFooter
              pending={pending}
              submitLabel="Reassign"
              pendingLabel="Reassigning..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
