import { type Rotation, URGENCIES } from '@shared/contracts/rotations';
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
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { usePageOnCall } from '../api/page-on-call';

type Urgency = (typeof URGENCIES)[number];
const URGENCY_LABELS: Record<Urgency, string> = { low: 'Low', medium: 'Medium', high: 'High' };
const DEFAULT_URGENCY: Urgency = 'high';

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
  const [message, setMessage] = useState('');
  const [urgency, setUrgency] = useState<Urgency>(DEFAULT_URGENCY);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  const pending = page.isPending;

  const reset = () => {
    setMessage('');
    setUrgency(DEFAULT_URGENCY);
    setError(null);
  };
  const close = (next: boolean) => {
    if (pending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!message.trim()) {
      setError('Please enter a message');
      return;
    }
    page.mutate(
      { rotationId: rotation.id, message, urgency },
      {
        onSuccess: () => {
          reset();
          onOpenChange(false);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Page on-call</DialogTitle>
          <DialogDescription>
            {rotation.currentOnCall
              ? `Send an urgent page to ${rotation.currentOnCall.name}, on call for ${rotation.name}.`
              : `Send an urgent page to whoever is on call for ${rotation.name}.`}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-message`} className={error ? 'text-destructive' : ''}>
              Message
            </Label>
            <Textarea
              id={`${ids}-message`}
              rows={4}
              value={message}
              onChange={(e) => {
                setMessage(e.target.value);
                setError(null);
              }}
              disabled={pending}
              placeholder="What is happening, and what do you need from the on-call engineer?"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${ids}-error` : undefined}
            />
            {error ? (
              <p id={`${ids}-error`} className="text-destructive text-sm">
                {error}
              </p>
            ) : null}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-urgency`}>Urgency</Label>
            <Select
              value={urgency}
              onValueChange={(v) => setUrgency(v as Urgency)}
              disabled={pending}
            >
              <SelectTrigger id={`${ids}-urgency`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {URGENCIES.map((u) => (
                  <SelectItem key={u} value={u}>
                    {URGENCY_LABELS[u]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={pending}>
              {pending ? 'Sending...' : 'Send page'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
