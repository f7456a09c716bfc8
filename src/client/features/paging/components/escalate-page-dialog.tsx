import { EscalatePageInputSchema, type Page } from '@shared/contracts/paging';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useEscalatePage } from '../api/escalate-page';

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
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  const pending = escalate.isPending;

  const close = (next: boolean) => {
    if (pending) return;
    if (!next) {
      setReason('');
      setError(null);
    }
    onOpenChange(next);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = EscalatePageInputSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter a reason');
      return;
    }
    escalate.mutate(
      { page, reason: parsed.data.reason },
      {
        onSuccess: () => {
          setReason('');
          onOpenChange(false);
        },
      },
    );
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
        <form noValidate onSubmit={submit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-reason`} className={error ? 'text-destructive' : ''}>
              Reason
            </Label>
            <Textarea
              id={`${ids}-reason`}
              rows={3}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setError(null);
              }}
              disabled={pending}
              placeholder="Why does this page need someone else? For example: I am on a flight."
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${ids}-error` : undefined}
            />
            {error ? (
              <p id={`${ids}-error`} className="text-destructive text-sm">
                {error}
              </p>
            ) : null}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={pending}>
              {pending ? 'Escalating...' : 'Escalate'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
