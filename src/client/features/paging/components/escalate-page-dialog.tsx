import { zodResolver } from '@hookform/resolvers/zod';
import {
  type EscalatePageInput,
  EscalatePageInputSchema,
  type Page,
} from '@shared/contracts/paging';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DialogFormFooter, TextareaField } from '@/components/form-fields';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { useEscalatePage } from '../api/escalate-page';

const EMPTY: EscalatePageInput = { reason: '' };

/** EscalatePageDialog hands an unacknowledged page to the next person in the rotation, with a reason. */
export function EscalatePageDialog({
  page,
  open,
  onOpenChange,
}: {
  page: Page;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const escalate = useEscalatePage();
  const form = useForm<EscalatePageInput, unknown, z.output<typeof EscalatePageInputSchema>>({
    resolver: zodResolver(EscalatePageInputSchema),
    defaultValues: EMPTY,
  });
  const pending = escalate.isPending;

  const close = (next: boolean) => {
    if (pending) return;
    if (!next) form.reset(EMPTY);
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Escalate page</DialogTitle>
          <DialogDescription>
            The page goes to the next person in {page.rotation.name}
            {page.target ? ` after ${page.target.name}` : ''}, who gets it by their notification
            channels. {page.pagedBy ? `${page.pagedBy.name} is told.` : ''}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ reason }) =>
              escalate.mutate(
                // The step this dialog showed: if someone moved it first, the server says so.
                { page, reason, fromStep: page.step },
                {
                  onSuccess: () => {
                    form.reset(EMPTY);
                    onOpenChange(false);
                  },
                },
              ),
            )}
          >
            <TextareaField
              control={form.control}
              name="reason"
              label="Reason"
              disabled={pending}
              placeholder="Why does this page need someone else? For example: I am on a flight."
            />
            <DialogFormFooter
              pending={pending}
              onCancel={() => close(false)}
              submitLabel="Escalate"
              pendingLabel="Escalating..."
            />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
