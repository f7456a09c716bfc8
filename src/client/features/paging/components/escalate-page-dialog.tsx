import { zodResolver } from '@hookform/resolvers/zod';
import {
  type EscalatePageInput,
  EscalatePageInputSchema,
  type Page,
} from '@shared/contracts/paging';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { EscalateDialog } from '@/components/escalate-dialog';
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

  return (
    <EscalateDialog
      title="Escalate page"
      description={
        <>
          The page goes to the next person in {page.rotation.name}
          {page.target ? ` after ${page.target.name}` : ''}, who gets it by their notification
          channels. {page.pagedBy ? `${page.pagedBy.name} is told.` : ''}
        </>
      }
      open={open}
      onOpenChange={onOpenChange}
      onClose={() => form.reset(EMPTY)}
      pending={escalate.isPending}
      form={form}
      onSubmit={({ reason }) =>
        escalate.mutate(
          // The step this dialog showed: if someone moved it first, the server says so.
          { page, reason, fromStep: page.step },
          {
            onSuccess: () => {
              form.reset(EMPTY);
              onOpenChange(false);
            },
          },
        )
      }
      reasonPlaceholder="Why does this page need someone else? For example: I am on a flight."
    />
  );
}
