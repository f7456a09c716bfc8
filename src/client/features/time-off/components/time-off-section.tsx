import { zodResolver } from '@hookform/resolvers/zod';
import type { TimeOffEntry } from '@shared/contracts/time-off';
import { CalendarOff, Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormDialog } from '@/components/form-dialog';
import {
  DialogFormFooter,
  FormError,
  TextareaField,
  TimeWindowFields,
} from '@/components/form-fields';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiRequestError, getErrorMessage } from '@/lib/api-client';
import { fieldErrorsOf } from '@/lib/field-errors';
import { toLocalInput } from '@/lib/format-time';
import { useTimeFormat } from '@/lib/use-time-format';
import { useAddTimeOff } from '../api/add-time-off';
import { useDeleteTimeOff } from '../api/delete-time-off';
import { useTimeOff } from '../api/get-time-off';
import { type TimeOffFormValues, timeOffFormSchema } from '../lib/time-off-form';
import { TimeOffImpactNote } from './time-off-impact';

const EMPTY: TimeOffFormValues = { startTime: '', endTime: '', note: '' };

/**
 * TimeOffSection is a person's time off on their profile (their own) or on their person page (for
 * the managers of their rotations and administrators): the entries under way or to come, a
 * dialog to add one (start, end, note) that shows, before saving, whose shifts it would move
 * (decision 256), and a confirmation to take one back. `hideWhenForbidden`: a viewer who may not see it sees nothing.
 */
export function TimeOffSection({
  personId,
  personName,
  own,
  hideWhenForbidden = false,
}: {
  personId: number;
  personName: string;
  own: boolean;
  hideWhenForbidden?: boolean;
}) {
  const format = useTimeFormat();
  const timeOff = useTimeOff(personId);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<TimeOffEntry | null>(null);
  const remove = useDeleteTimeOff(personId);
  const forbidden = timeOff.error instanceof ApiRequestError && timeOff.error.status === 403;
  if (hideWhenForbidden && forbidden) return null;
  const entries = timeOff.data?.entries ?? [];
  const now = Date.now();

  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle asChild>
            <h2>Time off</h2>
          </CardTitle>
          <CardDescription>
            {own
              ? 'While you are away, the next available member covers each of your shifts; nobody else’s shifts move.'
              : `While ${personName} is away, the next available member covers each of their shifts.`}{' '}
            {format.timesIn}.
          </CardDescription>
        </div>
        <Button size="sm" variant="outline" onClick={() => setAdding(true)} disabled={forbidden}>
          <Plus aria-hidden="true" />
          Add time off
        </Button>
      </CardHeader>
      <CardContent>
        {timeOff.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : timeOff.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {getErrorMessage(timeOff.error, 'Failed to fetch time off')}
          </p>
        ) : entries.length === 0 ? (
          <p className="flex items-center gap-2 text-muted-foreground text-sm">
            <CalendarOff className="size-4" aria-hidden="true" />
            No time off planned.
          </p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Time off">
            {entries.map((entry) => (
              <li key={entry.id} className="flex items-start justify-between gap-3 p-3">
                <div className="min-w-0 text-sm">
                  <p className="font-medium">
                    {format.dateTime(entry.startTime)} – {format.dateTime(entry.endTime)}
                    {Date.parse(entry.startTime) <= now ? (
                      <Badge tone="info" className="ml-2">
                        Under way
                      </Badge>
                    ) : null}
                  </p>
                  {entry.note ? (
                    <p className="mt-0.5 break-words text-muted-foreground">{entry.note}</p>
                  ) : null}
                  {entry.recordedBy ? (
                    <p className="mt-0.5 text-muted-foreground text-xs">
                      Recorded by {entry.recordedBy.name}
                    </p>
                  ) : null}
                </div>
                <Button
                  size="icon"
                  variant="ghost"
                  aria-label={`Remove time off from ${format.dateTime(entry.startTime)}`}
                  onClick={() => setRemoving(entry)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <AddTimeOffDialog
        personId={personId}
        personName={personName}
        own={own}
        open={adding}
        onOpenChange={setAdding}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title="Remove time off?"
        description={
          removing && Date.parse(removing.startTime) <= now
            ? 'This time off is under way: it ends now. The rotations will count on you from the next shift.'
            : 'The rotations will count on this person again for that time.'
        }
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, { onSuccess: () => setRemoving(null) });
        }}
      />
    </Card>
  );
}

function AddTimeOffDialog({
  personId,
  personName,
  own,
  open,
  onOpenChange,
}: {
  personId: number;
  personName: string;
  own: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { timeZone } = useTimeFormat();
  const add = useAddTimeOff(personId);
  const schema = useMemo(() => timeOffFormSchema(timeZone), [timeZone]);
  const form = useForm<TimeOffFormValues, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });
  const minimum = toLocalInput(new Date(), timeZone);
  const pending = add.isPending;
  const [startTime, endTime] = form.watch(['startTime', 'endTime']);
  const proposed = useMemo(() => {
    const parsed = schema.safeParse({ startTime, endTime, note: '' });
    return parsed.success
      ? { startTime: parsed.data.startTime, endTime: parsed.data.endTime }
      : null;
  }, [schema, startTime, endTime]);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add time off</DialogTitle>
          <DialogDescription>
            {own ? 'When will you be away?' : `When will ${personName} be away?`} Times are in your
            time zone ({timeZone}).
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((entry) =>
              add.mutate(entry, {
                onSuccess: () => {
                  form.reset(EMPTY);
                  onOpenChange(false);
                },
                onError: (error) => {
                  const fields = fieldErrorsOf(error, ['startTime', 'endTime', 'note'] as const);
                  if (fields) {
                    for (const [name, message] of Object.entries(fields)) {
                      form.setError(name as 'startTime', { message });
                    }
                  } else {
                    form.setError('root', {
                      message: getErrorMessage(error, 'Failed to record the time off'),
                    });
                  }
                },
              }),
            )}
          >
            <FormError />
            <TimeWindowFields
              control={form.control}
              earliest={minimum}
              startMayBePast
              disabled={pending}
            />
            <TextareaField
              control={form.control}
              name="note"
              label="Note (optional)"
              disabled={pending}
              placeholder="Only you, your rotations' managers and administrators see it."
            />
            <TimeOffImpactNote personId={personId} own={own} entry={open ? proposed : null} />
            <DialogFormFooter
              pending={pending}
              submitLabel="Add time off"
              pendingLabel="Adding..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
