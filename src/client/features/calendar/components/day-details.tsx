import type { Calendar } from '@shared/contracts/calendar';
import type { CalendarDay } from '@shared/domain/calendar';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDay, formatTime } from '@/lib/format-time';
import { cn } from '@/lib/utils';
import { dayRotations } from '../lib/calendar-view';
import { rotationColor } from '../lib/rotation-colors';

/** DayDetails lists who is on call in each rotation on the chosen day, with handoff times. */
export function DayDetails({
  day,
  calendar,
  timeZone,
  rotationId,
  viewerId,
  today,
}: {
  day: CalendarDay;
  calendar: Calendar | undefined;
  timeZone: string;
  rotationId: number | null;
  viewerId: number | null;
  today: boolean;
}) {
  const entries = calendar ? dayRotations(calendar, day, timeZone, { rotationId, viewerId }) : [];
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
                      {p.coverage ? <Badge variant="outline">Coverage</Badge> : null}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
