import { zodResolver } from '@hookform/resolvers/zod';
import {
  type PageInput,
  PageInputSchema,
  type Rotation,
  URGENCIES,
} from '@shared/contracts/rotations';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, SelectField, TextareaField } from '@/components/form-fields';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { usePageOnCall } from '../api/page-on-call';

type Urgency = (typeof URGENCIES)[number];
const URGENCY_LABELS: Record<Urgency, string> = { low: 'Low', medium: 'Medium', high: 'High' };
const EMPTY: PageInput = { message: '', urgency: 'high' };

/** PageOnCallDialog sends an urgent message to whoever holds the rotation's baton. */
export function PageOnCallDialog({
  rotation,
  open,
  onOpenChange,
}: {
  rotation: Rotation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const page = usePageOnCall();
  const form = useForm<PageInput, unknown, z.output<typeof PageInputSchema>>({
    resolver: zodResolver(PageInputSchema),
    defaultValues: EMPTY,
  });
  const pending = page.isPending;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Page on-call</DialogTitle>
          <DialogDescription>
            {rotation.currentOnCall
              ? `Send an urgent page to ${rotation.currentOnCall.name}, on call for ${rotation.name}.`
              : `No one is on call for ${rotation.name} now: the page goes on to the next step of its escalation policy.`}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit(({ message, urgency }) =>
              page.mutate(
                { rotationId: rotation.id, message, urgency },
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
              name="message"
              label="Message"
              rows={4}
              disabled={pending}
              placeholder="What is happening, and what do you need from the on-call engineer?"
            />
            <SelectField
              control={form.control}
              name="urgency"
              label="Urgency"
              options={URGENCIES}
              optionLabel={(urgency) => URGENCY_LABELS[urgency]}
              disabled={pending}
            />
            <DialogFormFooter pending={pending} submitLabel="Send page" pendingLabel="Sending..." />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
