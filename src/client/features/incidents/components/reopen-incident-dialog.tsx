import { zodResolver } from '@hookform/resolvers/zod';
import { type Incident, ReopenIncidentInputSchema } from '@shared/contracts/incidents';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, TextareaField } from '@/components/form-fields';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { useIncidentAction } from '../api/act-on-incident';

const FormSchema = ReopenIncidentInputSchema.unwrap();

/**
 * ReopenIncidentDialog takes a resolved incident back to triggered: its escalation policy starts
 * again from step 1, whose people are paged now (decision 261). The reason, optional, goes into
 * the timeline.
 */
export function ReopenIncidentDialog({
  incident,
  open,
  onOpenChange,
}: {
  incident: Incident;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const act = useIncidentAction(incident.id);
  const form = useForm<z.input<typeof FormSchema>, unknown, z.output<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    defaultValues: { reason: '' },
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset({ reason: '' });
  }, [open, reset]);
  const pending = act.isPending;

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} pending={pending}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Reopen incident</DialogTitle>
          <DialogDescription>
            The incident is triggered again and {incident.escalationPolicy.name} starts over from
            step 1: its people are paged now, and each step follows after its delay until someone
            acknowledges.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ reason }) =>
              act.mutate(
                { kind: 'reopen', input: reason ? { reason } : undefined },
                { onSuccess: () => onOpenChange(false) },
              ),
            )}
          >
            <TextareaField
              control={form.control}
              name="reason"
              label="Reason (optional)"
              disabled={pending}
              placeholder="Why is it not fixed?"
            />
            <DialogFormFooter pending={pending} submitLabel="Reopen" pendingLabel="Reopening..." />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
