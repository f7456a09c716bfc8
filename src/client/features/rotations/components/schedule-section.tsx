import type { Rotation, ScheduleEntry } from '@shared/contracts/rotations';
import { membersInOrder, scheduleStatus } from '@shared/domain/rotation';
import { CalendarDays, CalendarPlus, CircleHelp, Pencil, Repeat, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useTimeFormat } from '@/lib/use-time-format';
import { useRotationSchedules } from '../api/get-rotation-schedules';
import { DeleteScheduleDialog } from './delete-schedule-dialog';
import { EmptyState } from './empty-state';
import { DeleteOccurrenceDialog, EditScheduleDialog, type ScheduleRow } from './occurrence-dialogs';
import { PersonAvatar } from './person-avatar';
import { ScheduleStatusBadge } from './status-badges';

/**
 * ScheduleSection lists a rotation's schedule entries with their status (Current, Past, Upcoming,
 * Unknown); administrators add and delete entries.
 */
export function ScheduleSection({
  rotation,
  canManage,
  onAddSchedule,
  onShowGuide,
}: {
  rotation: Rotation;
  canManage: boolean;
  onAddSchedule: () => void;
  onShowGuide: () => void;
}) {
  const fmt = useTimeFormat();
  const schedules = useRotationSchedules(rotation.id);
  const [deleting, setDeleting] = useState<ScheduleEntry | null>(null);
  const [deletingOccurrence, setDeletingOccurrence] = useState<ScheduleRow | null>(null);
  const [editing, setEditing] = useState<ScheduleRow | null>(null);
  const now = new Date();
  const entries = [...(schedules.data ?? [])].sort(
    (a, b) => Date.parse(a.startTime) - Date.parse(b.startTime),
  );
  const rowsOf = (entry: ScheduleEntry): ScheduleRow[] =>
    entry.recurrence
      ? (entry.occurrences ?? []).map((o) => ({ entry, ...o, occurrence: true }))
      : [{ entry, startTime: entry.startTime, endTime: entry.endTime, occurrence: false }];
  // Every window in time order; each series is also said in words above the table.
  const rows = entries
    .flatMap(rowsOf)
    .sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
  const series = entries.filter((e) => e.recurrence);

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Schedule</h2>
        </CardTitle>
        <CardDescription>
          {rotation.type === 'scheduled'
            ? 'On-call follows these entries.'
            : 'This rotation takes turns in a fixed order; entries take effect in scheduled mode.'}
        </CardDescription>
        <CardAction className="flex flex-wrap justify-end gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={onShowGuide}
            aria-label="How scheduled mode works"
          >
            <CircleHelp aria-hidden="true" />
            <span className="hidden sm:inline">How scheduled mode works</span>
          </Button>
          {canManage ? (
            <Button size="sm" onClick={onAddSchedule} aria-label="Add Schedule">
              <CalendarPlus aria-hidden="true" />
              <span className="hidden sm:inline">Add Schedule</span>
              <span className="sm:hidden">Add</span>
            </Button>
          ) : null}
        </CardAction>
      </CardHeader>
      <CardContent>
        {schedules.isPending ? (
          <div className="grid gap-2" role="status" aria-label="Loading schedule">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
          </div>
        ) : schedules.isError ? (
          <p role="alert" className="text-destructive text-sm">
            Failed to fetch rotation details
          </p>
        ) : entries.length === 0 ? (
          <EmptyState
            icon={CalendarDays}
            title="No schedule entries yet"
            description={
              rotation.type === 'scheduled'
                ? 'This rotation follows its schedule, which is empty: no one takes the baton on the clock until an entry is added.'
                : canManage
                  ? 'Add an entry to say who holds the baton, and when.'
                  : 'An administrator adds entries to set who holds the baton, and when.'
            }
            action={
              rotation.type === 'scheduled' ? (
                <Button variant="outline" size="sm" onClick={onShowGuide}>
                  Set up scheduled mode
                </Button>
              ) : undefined
            }
          />
        ) : (
          <>
            {series.length > 0 ? (
              <ul className="mb-3 grid gap-1.5" aria-label="Repeating entries">
                {series.map((entry) => (
                  <li
                    key={entry.id}
                    className="flex flex-wrap items-center gap-x-2 gap-y-0.5 rounded-md bg-muted/50 px-3 py-2 text-sm"
                  >
                    <Repeat aria-hidden="true" className="size-4 text-muted-foreground" />
                    <span className="font-medium">{entry.user.name}</span>
                    <span className="text-muted-foreground">{entry.repeats}</span>
                    {(entry.occurrences ?? []).length === 0 ? (
                      <span className="text-muted-foreground">· no occurrences ahead</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <Table>
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>Person</TableHead>
                  <TableHead>Start</TableHead>
                  <TableHead>End</TableHead>
                  <TableHead>Status</TableHead>
                  {canManage ? <TableHead className="text-right">Actions</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => {
                  const entry = row.entry;
                  return (
                    <TableRow key={`${entry.id}-${row.startTime}`}>
                      <TableCell>
                        <span className="flex items-center gap-2">
                          <PersonAvatar name={entry.user.name} className="size-6 text-[10px]" />
                          {entry.user.name}
                          {row.occurrence ? (
                            <Repeat
                              aria-label="Repeating"
                              className="size-3.5 text-muted-foreground"
                            />
                          ) : null}
                        </span>
                      </TableCell>
                      <TableCell>{fmt.dateTime(row.startTime)}</TableCell>
                      <TableCell>{fmt.dateTime(row.endTime)}</TableCell>
                      <TableCell>
                        <ScheduleStatusBadge status={scheduleStatus(row, now)} />
                      </TableCell>
                      {canManage ? (
                        <TableCell className="whitespace-nowrap text-right">
                          <Button
                            variant="ghost"
                            size="icon"
                            className="size-8"
                            onClick={() => setEditing(row)}
                            aria-label={`Change ${entry.user.name}'s schedule entry from ${fmt.dateTime(row.startTime)}`}
                          >
                            <Pencil aria-hidden="true" />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
                            onClick={() =>
                              row.occurrence ? setDeletingOccurrence(row) : setDeleting(entry)
                            }
                            aria-label={`Delete ${entry.user.name}'s schedule entry from ${fmt.dateTime(row.startTime)}`}
                          >
                            <Trash2 aria-hidden="true" />
                          </Button>
                        </TableCell>
                      ) : null}
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
      <DeleteScheduleDialog entry={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
      <DeleteOccurrenceDialog
        row={deletingOccurrence}
        onOpenChange={(open) => !open && setDeletingOccurrence(null)}
      />
      <EditScheduleDialog
        row={editing}
        people={membersInOrder(rotation.members).map((m) => m.user)}
        onOpenChange={(open) => !open && setEditing(null)}
      />
    </Card>
  );
}
