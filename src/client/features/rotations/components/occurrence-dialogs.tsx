import { TZDate } from '@date-fns/tz';
import type { Person, ScheduleEntry } from '@shared/contracts/rotations';
import { useEffect, useState } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { type ChangeScope, useChangeSchedule, useDeleteOccurrence } from '../api/change-schedule';
import { useDeleteSchedule } from '../api/delete-schedule';

/** One row of the schedule list: an entry, or one occurrence of a series. */
export interface ScheduleRow {
  entry: ScheduleEntry;
  /** the occurrence's window (a single entry's own) */
  startTime: string;
  endTime: string;
  /** whether the row is an occurrence of a series */
  occurrence: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** localInput writes an instant as a datetime-local value in a zone. */
function localInput(iso: string, timeZone: string): string {
  const d = new TZDate(Date.parse(iso), timeZone);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** instantOfInput reads a datetime-local value in a zone as an ISO instant, or null. */
function instantOfInput(value: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  return new Date(new TZDate(y, mo - 1, d, h, mi, timeZone).getTime()).toISOString();
}

function ScopeChoice({
  scope,
  onChange,
}: {
  scope: ChangeScope;
  onChange: (scope: ChangeScope) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 font-medium text-sm">Change</legend>
      <div className="flex flex-wrap gap-2">
        {(
          [
            ['occurrence', 'This occurrence'],
            ['series', 'The whole series'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={scope === value}
            onClick={() => onChange(value)}
            className={cn(
              'h-8 rounded-md border px-3 text-sm transition-colors',
              scope === value
                ? 'border-primary bg-primary text-primary-foreground'
                : 'bg-background hover:bg-accent',
            )}
          >
            {label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * EditScheduleDialog changes a row's person and times: a single entry as a whole, an occurrence
 * of a series as "this occurrence" or "the whole series" (decision 250; the series' times move by
 * as much as this occurrence's do).
 */
export function EditScheduleDialog({
  row,
  people,
  onOpenChange,
}: {
  row: ScheduleRow | null;
  people: Person[];
  onOpenChange: (open: boolean) => void;
}) {
  const fmt = useTimeFormat();
  const change = useChangeSchedule();
  const [scope, setScope] = useState<ChangeScope>('occurrence');
  const [userId, setUserId] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!row) return;
    setScope('occurrence');
    setUserId(String(row.entry.userId));
    setStart(localInput(row.startTime, fmt.timeZone));
    setEnd(localInput(row.endTime, fmt.timeZone));
    setProblem(null);
  }, [row, fmt.timeZone]);

  const save = () => {
    if (!row) return;
    const startTime = instantOfInput(start, fmt.timeZone);
    const endTime = instantOfInput(end, fmt.timeZone);
    if (!startTime) return setProblem('Start time must be a valid date and time');
    if (!endTime) return setProblem('End time must be a valid date and time');
    if (Date.parse(endTime) <= Date.parse(startTime)) {
      return setProblem('End time must be after start time');
    }
    const moved = {
      start: Date.parse(startTime) - Date.parse(row.startTime),
      end: Date.parse(endTime) - Date.parse(row.endTime),
    };
    const shift = (iso: string, by: number) => new Date(Date.parse(iso) + by).toISOString();
    const whole = !row.occurrence || scope === 'series';
    // The whole series moves from its first occurrence not begun (the server splits one begun).
    const first =
      row.entry.occurrences?.find((o) => Date.parse(o.startTime) > Date.now()) ?? row.entry;
    const times =
      moved.start === 0 && moved.end === 0
        ? {}
        : whole && row.occurrence
          ? {
              startTime: shift(first.startTime, moved.start),
              endTime: shift(first.endTime, moved.end),
            }
          : { startTime, endTime };
    const personChanged = Number(userId) !== row.entry.userId;
    change.mutate(
      {
        scheduleId: row.entry.id,
        occurrenceStart: whole ? undefined : row.startTime,
        change: { ...(personChanged ? { userId: Number(userId) } : {}), ...times },
      },
      { onSuccess: () => onOpenChange(false) },
    );
  };

  return (
    <Dialog open={row !== null} onOpenChange={(next) => !change.isPending && onOpenChange(next)}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Change schedule entry</DialogTitle>
          <DialogDescription>
            {row?.entry.repeats
              ? `${row.entry.repeats}. Times are in your time zone (${fmt.timeZone}).`
              : `Times are in your time zone (${fmt.timeZone}).`}
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
          {row?.occurrence ? <ScopeChoice scope={scope} onChange={setScope} /> : null}
          <div className="grid gap-2">
            <Label htmlFor="edit-schedule-person">Team member</Label>
            <Select value={userId} onValueChange={setUserId}>
              <SelectTrigger id="edit-schedule-person" aria-label="Team member">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {people.map((p) => (
                  <SelectItem key={p.id} value={String(p.id)}>
                    {p.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="edit-schedule-start">Start</Label>
              <Input
                id="edit-schedule-start"
                type="datetime-local"
                value={start}
                onChange={(e) => setStart(e.target.value)}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="edit-schedule-end">End</Label>
              <Input
                id="edit-schedule-end"
                type="datetime-local"
                value={end}
                onChange={(e) => setEnd(e.target.value)}
              />
            </div>
          </div>
          {problem ? <p className="text-destructive text-sm">{problem}</p> : null}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={change.isPending}>
            Cancel
          </Button>
          <Button onClick={save} pending={change.isPending}>
            {change.isPending ? 'Saving...' : 'Save'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * DeleteOccurrenceDialog asks whether to delete one occurrence of a series (a gap where it was)
 * or the whole series.
 */
export function DeleteOccurrenceDialog({
  row,
  onOpenChange,
}: {
  row: ScheduleRow | null;
  onOpenChange: (open: boolean) => void;
}) {
  const fmt = useTimeFormat();
  const deleteOne = useDeleteOccurrence();
  const deleteAll = useDeleteSchedule();
  const pending = deleteOne.isPending || deleteAll.isPending;
  const done = { onSuccess: () => onOpenChange(false) };
  return (
    <AlertDialog open={row !== null} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete a repeating entry?</AlertDialogTitle>
          <AlertDialogDescription>
            {row
              ? `${row.entry.user.name}'s shift from ${fmt.dateTime(row.startTime)} to ${fmt.dateTime(row.endTime)} is part of "${row.entry.repeats}". Delete this occurrence only, or the whole series? This cannot be undone.`
              : ''}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          <Button
            variant="outline"
            className="text-destructive"
            pending={deleteOne.isPending}
            disabled={pending}
            onClick={() =>
              row && deleteOne.mutate({ scheduleId: row.entry.id, start: row.startTime }, done)
            }
          >
            This occurrence
          </Button>
          <Button
            variant="destructive"
            pending={deleteAll.isPending}
            disabled={pending}
            onClick={() => row && deleteAll.mutate({ scheduleId: row.entry.id }, done)}
          >
            The whole series
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
