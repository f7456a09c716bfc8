import type { Rotation, ScheduleEntry } from '@shared/contracts/rotations';
import { scheduleStatus } from '@shared/domain/rotation';
import { CalendarDays, CalendarPlus, CircleHelp, Trash2 } from 'lucide-react';
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
  const now = new Date();
  const entries = [...(schedules.data ?? [])].sort(
    (a, b) => Date.parse(a.startTime) - Date.parse(b.startTime),
  );

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
              {entries.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell>
                    <span className="flex items-center gap-2">
                      <PersonAvatar name={entry.user.name} className="size-6 text-[10px]" />
                      {entry.user.name}
                    </span>
                  </TableCell>
                  <TableCell>{fmt.dateTime(entry.startTime)}</TableCell>
                  <TableCell>{fmt.dateTime(entry.endTime)}</TableCell>
                  <TableCell>
                    <ScheduleStatusBadge status={scheduleStatus(entry, now)} />
                  </TableCell>
                  {canManage ? (
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="icon"
                        className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
                        onClick={() => setDeleting(entry)}
                        aria-label={`Delete ${entry.user.name}'s schedule entry from ${fmt.dateTime(entry.startTime)}`}
                      >
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <DeleteScheduleDialog entry={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
    </Card>
  );
}
