import type { Calendar } from '@shared/contracts/calendar';
import type { CalendarDay } from '@shared/domain/calendar';
import { Ellipsis } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { formatDateTime, formatDay, formatTime } from '@/lib/format-time';
import { cn } from '@/lib/utils';
import { type DayShift, dayAvailability, dayRotations } from '../lib/calendar-view';
import { rotationColor } from '../lib/rotation-colors';

/** What a shift's menu offers: asking cover for one's own shift, or arranging it for another's. */
export type ShiftCoverAction = 'ask' | 'arrange';

/** A shift's menu choice, with the shift and its rotation. */
export interface ShiftCoverChoice {
  action: ShiftCoverAction;
  rotation: { id: number; name: string };
  userId: number;
  start: Date;
  end: Date;
}

/**
 * DayDetails lists who is on call in each rotation on the chosen day, with handoff times. A
 * shift still to come has a menu when `coverActionOf` offers something for it ("Ask for cover",
 * "Arrange cover").
 */
export function DayDetails({
  day,
  calendar,
  timeZone,
  rotationId,
  viewerId,
  today,
  coverActionOf,
  onCover,
}: {
  day: CalendarDay;
  calendar: Calendar | undefined;
  timeZone: string;
  rotationId: number | null;
  viewerId: number | null;
  today: boolean;
  coverActionOf?: (shift: DayShift, rotationId: number) => ShiftCoverAction | null;
  onCover?: (choice: ShiftCoverChoice) => void;
}) {
  const entries = calendar ? dayRotations(calendar, day, timeZone, { rotationId, viewerId }) : [];
  const availability = calendar
    ? dayAvailability(calendar, day, timeZone, { rotationId, viewerId })
    : { away: [], gaps: [] };
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle asChild className="flex items-center gap-2 text-base">
          <h2>
            {formatDay(day)}
            {today ? <Badge variant="secondary">Today</Badge> : null}
          </h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="text-muted-foreground text-sm">No one is on call this day.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {entries.map((entry) => (
              <li key={entry.rotationId} className="min-w-0">
                <p className="flex items-center gap-2 font-medium text-sm">
                  <span
                    className={cn(
                      'size-2.5 shrink-0 rounded-full',
                      rotationColor(entry.index).swatch,
                    )}
                    aria-hidden="true"
                  />
                  <Link to={`/rotations/${entry.rotationId}`} className="truncate hover:underline">
                    {entry.rotationName}
                  </Link>
                </p>
                <ul className="mt-1 space-y-1 pl-4.5">
                  {entry.people.map((p, i) => (
                    <li
                      // biome-ignore lint/suspicious/noArrayIndexKey: a person may hold twice in a day
                      key={`${p.userId}-${i}`}
                      className="flex flex-wrap items-center gap-x-2 text-sm"
                    >
                      <span className={cn(p.mine && 'font-semibold')}>{p.name}</span>
                      <span className="text-muted-foreground text-xs">
                        {p.startsAt && p.endsAt
                          ? `${formatTime(p.startsAt, timeZone)} – ${formatTime(p.endsAt, timeZone)}`
                          : p.startsAt
                            ? `from ${formatTime(p.startsAt, timeZone)}`
                            : p.endsAt
                              ? `until ${formatTime(p.endsAt, timeZone)}`
                              : 'all day'}
                      </span>
                      {p.mine ? <Badge variant="outline">You</Badge> : null}
                      {p.coverage ? (
                        <Badge variant="outline">
                          {p.coveredName ? `Covering ${p.coveredName}` : 'Coverage'}
                        </Badge>
                      ) : null}
                      {(() => {
                        const action = coverActionOf?.(p, entry.rotationId) ?? null;
                        if (!action || !onCover) return null;
                        const label = action === 'ask' ? 'Ask for cover' : 'Arrange cover';
                        return (
                          <DropdownMenu>
                            <DropdownMenuTrigger asChild>
                              <Button
                                variant="ghost"
                                size="icon"
                                className="size-6"
                                aria-label={`Shift of ${p.name} in ${entry.rotationName}: actions`}
                              >
                                <Ellipsis aria-hidden="true" />
                              </Button>
                            </DropdownMenuTrigger>
                            <DropdownMenuContent align="start">
                              <DropdownMenuItem
                                onSelect={() =>
                                  onCover({
                                    action,
                                    rotation: { id: entry.rotationId, name: entry.rotationName },
                                    userId: p.userId,
                                    start: p.shift.start,
                                    end: p.shift.end,
                                  })
                                }
                              >
                                {label}
                              </DropdownMenuItem>
                            </DropdownMenuContent>
                          </DropdownMenu>
                        );
                      })()}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
        {availability.gaps.length > 0 ? (
          <ul className="mt-3 grid gap-1">
            {availability.gaps.map((g) => (
              <li
                key={`${g.rotationId}-${g.start.toISOString()}`}
                className="rounded-md border border-warning-border bg-warning px-2 py-1 text-sm text-warning-foreground"
              >
                <span className="font-medium">Gap in {g.rotationName}:</span> everyone is away{' '}
                {formatDateTime(g.start, timeZone)} – {formatDateTime(g.end, timeZone)}
              </li>
            ))}
          </ul>
        ) : null}
        {availability.away.length > 0 ? (
          <div className="mt-3">
            <h3 className="font-medium text-sm">Time off</h3>
            <ul className="mt-1 flex flex-wrap gap-2">
              {availability.away.map((a) => (
                <li key={a.userId}>
                  <Badge variant="outline">
                    {a.name}
                    {a.mine ? ' (you)' : ''}
                  </Badge>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
