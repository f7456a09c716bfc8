import type { ReactNode } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, TextareaField } from '@/components/form-fields';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';

/**
 * EscalateDialog is the one dialog that escalates an incident or a page by hand (decision 239):
 * its title, what escalating does, the fields its caller adds (the step to go to), the reason,
 * and Cancel and Escalate. It cannot be closed while the escalation is pending (FormDialog).
 */
export function EscalateDialog<T extends FieldValues & { reason: string }, TOutput>({
  title,
  description,
  open,
  onOpenChange,
  pending,
  onClose,
  form,
  onSubmit,
  reasonPlaceholder,
  children,
}: {
  title: string;
  description: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  /** what closing undoes (FormDialog), as a rule the form's reset */
  onClose?: () => void;
  form: UseFormReturn<T, unknown, TOutput>;
  onSubmit: (values: TOutput) => void;
  reasonPlaceholder: string;
  /** the fields shown before the reason */
  children?: ReactNode;
}) {
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} pending={pending} onClose={onClose}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form noValidate className="grid gap-4" onSubmit={form.handleSubmit(onSubmit)}>
            {children}
            <TextareaField
              control={form.control}
              name={'reason' as FieldPath<T>}
              label="Reason"
              disabled={pending}
              placeholder={reasonPlaceholder}
            />
            <DialogFormFooter
              pending={pending}
              submitLabel="Escalate"
              pendingLabel="Escalating..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
