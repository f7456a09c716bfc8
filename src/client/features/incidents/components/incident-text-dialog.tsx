import { zodResolver } from '@hookform/resolvers/zod';
import type { Incident } from '@shared/contracts/incidents';
import { type ReactNode, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, TextareaField } from '@/components/form-fields';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { type IncidentAction, useIncidentAction } from '../api/act-on-incident';

/**
 * IncidentTextDialog is an action on an incident that takes one optional text (a resolution note,
 * a reason to reopen), checked by its field's schema from the action's contract; the dialog closes
 * when the action is done.
 */
export function IncidentTextDialog({
  incident,
  open,
  onOpenChange,
  field,
  action,
  title,
  description,
  label,
  placeholder,
  submitLabel,
  pendingLabel,
}: {
  incident: Incident;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** the text's schema, from the action's input contract */
  field: z.ZodType<string | undefined, string | undefined>;
  /** the action, given the text typed (undefined when none) */
  action: (text: string | undefined) => IncidentAction;
  title: string;
  description: ReactNode;
  label: string;
  placeholder: string;
  submitLabel: string;
  pendingLabel: string;
}) {
  const act = useIncidentAction(incident.id);
  const schema = z.object({ text: field });
  const form = useForm<{ text: string | undefined }, unknown, { text: string | undefined }>({
    resolver: zodResolver(schema),
    defaultValues: { text: '' },
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset({ text: '' });
  }, [open, reset]);
  const pending = act.isPending;

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} pending={pending}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ text }) =>
              act.mutate(action(text || undefined), { onSuccess: () => onOpenChange(false) }),
            )}
          >
            <TextareaField
              control={form.control}
              name="text"
              label={label}
              disabled={pending}
              placeholder={placeholder}
            />
            <DialogFormFooter
              pending={pending}
              submitLabel={submitLabel}
              pendingLabel={pendingLabel}
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
