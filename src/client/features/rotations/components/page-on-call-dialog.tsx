import { zodResolver } from '@hookform/resolvers/zod';
import {
  type PageInput,
  PageInputSchema,
  type Rotation,
  URGENCIES,
} from '@shared/contracts/rotations';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
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

  const close = (next: boolean) => {
    if (pending) return;
    if (!next) form.reset(EMPTY);
    onOpenChange(next);
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
            <FormField
              control={form.control}
              name="message"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Message</FormLabel>
                  <FormControl>
                    <Textarea
                      rows={4}
                      disabled={pending}
                      placeholder="What is happening, and what do you need from the on-call engineer?"
                      {...field}
                    />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="urgency"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Urgency</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange} disabled={pending}>
                    <FormControl>
                      <SelectTrigger>
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {URGENCIES.map((u) => (
                        <SelectItem key={u} value={u}>
                          {URGENCY_LABELS[u]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormMessage />
                </FormItem>
              )}
            />
            <DialogFooter>
              <Button
                type="button"
                variant="outline"
                disabled={pending}
                onClick={() => close(false)}
              >
                Cancel
              </Button>
              <Button type="submit" pending={pending}>
                {pending ? 'Sending...' : 'Send page'}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
