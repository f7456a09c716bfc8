import { zodResolver } from '@hookform/resolvers/zod';
import { type Incident, ResolveIncidentInputSchema } from '@shared/contracts/incidents';
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

const FormSchema = ResolveIncidentInputSchema.unwrap();

/**
 * ResolveIncidentDialog resolves an incident with a resolution note, optional: what fixed it,
 * shown on the incident and in its timeline (decision 261).
 */
export function ResolveIncidentDialog({
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
    defaultValues: { note: '' },
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset({ note: '' });
  }, [open, reset]);
  const pending = act.isPending;

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} pending={pending}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Resolve incident</DialogTitle>
          <DialogDescription>
            The escalation stops and the people it is with are told it needs nothing more. A
            resolved incident can be reopened.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ note }) =>
              act.mutate(
                { kind: 'resolve', input: note ? { note } : undefined },
                { onSuccess: () => onOpenChange(false) },
              ),
            )}
          >
            <TextareaField
              control={form.control}
              name="note"
              label="Resolution note (optional)"
              disabled={pending}
              placeholder="What fixed it? Links can be clicked on the incident."
            />
            <DialogFormFooter pending={pending} submitLabel="Resolve" pendingLabel="Resolving..." />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
