import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useMinuteClock } from '@/components/timeline-chart';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { formatWeekdayDateTime } from '@/lib/format-time';
import { type RotationWeek, type ShiftAhead, WEEK_AHEAD_DAYS, weekAhead } from '@/lib/shifts-ahead';
import { useAuth } from '@/lib/use-auth';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { useCalendar } from '../api/get-calendar';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Rotations shown before "Show all", and each rotation's changes before "more". */
const ROTATIONS_SHOWN = 6;
const CHANGES_SHOWN = 3;

/** whoText names the holder of a stretch, and whom a cover stands in for. */
function whoText(s: ShiftAhead): string {
  if (s.kind !== 'cover') return s.name;
  return `${s.name} (covering${s.coveredName ? ` for ${s.coveredName}` : ''})`;
}

function RotationWeekItem({ week, zone }: { week: RotationWeek; zone: string }) {
  const [all, setAll] = useState(false);
  const { current, changes } = week;
  const shown = all ? changes : changes.slice(0, CHANGES_SHOWN);
  return (
    <li className="grid gap-2 py-3 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          to={`/rotations/${week.id}`}
          className="font-medium underline-offset-4 hover:underline"
        >
          {week.name}
        </Link>
        {week.mine ? <Badge tone="info">Yours</Badge> : null}
        {week.suspended ? <Badge variant="outline">Suspended</Badge> : null}
      </div>
      <p className="text-sm">
        <span className="text-muted-foreground">Now: </span>
        <span className={cn('font-medium', current.kind === 'nobody' && 'text-danger-foreground')}>
          {whoText(current)}
        </span>
        {current.end ? (
          <>
            {' '}
            <span className="whitespace-nowrap text-muted-foreground">
              until {formatWeekdayDateTime(current.end, zone)}
            </span>
          </>
        ) : null}
      </p>
      {changes.length === 0 ? (
        <p className="text-muted-foreground text-sm">No change in the next 7 days.</p>
      ) : (
        <ol aria-label={`Changes in ${week.name}`} className="grid gap-1 border-l-2 pl-3">
          {shown.map((c) => (
            <li key={c.start.getTime()} className="grid gap-x-3 text-sm sm:grid-cols-[11rem_1fr]">
              <span className="text-muted-foreground tabular-nums">
                {formatWeekdayDateTime(c.start, zone)}
              </span>
              <span className={cn(c.kind === 'nobody' && 'text-danger-foreground')}>
                {whoText(c)}
              </span>
            </li>
          ))}
        </ol>
      )}
      {changes.length > CHANGES_SHOWN ? (
        <Button
          variant="ghost"
          size="sm"
          className="-ml-2 w-fit"
          aria-expanded={all}
          onClick={() => setAll(!all)}
        >
          {all
            ? 'Show fewer changes'
            : `Show ${changes.length - CHANGES_SHOWN} more ${changes.length - CHANGES_SHOWN === 1 ? 'change' : 'changes'}`}
        </Button>
      ) : null}
    </li>
  );
}

/**
 * OnCallWeekCard is the dashboard's "On call now and the next 7 days" (issue 35, decision 259):
 * for each rotation, the viewer's own first, who holds the baton now and each change of hands in
 * the coming seven days, from the calendar read (the one projection). The read starts at the
 * hour, so it is asked again once an hour, not each minute.
 */
export function OnCallWeekCard() {
  const { user } = useAuth();
  const { timeZone } = useTimeFormat();
  const now = useMinuteClock();
  const hour = Math.floor(now.getTime() / HOUR) * HOUR;
  const from = new Date(hour).toISOString();
  const to = new Date(hour + (WEEK_AHEAD_DAYS + 1) * DAY).toISOString();
  const calendar = useCalendar(from, to);
  const [all, setAll] = useState(false);
  const weeks = useMemo(() => {
    const data = calendar.data;
    if (!data) return [];
    const names = new Map(data.people.map((p) => [p.id, p.name]));
    return weekAhead(data.rotations, user?.id ?? null, names, now);
  }, [calendar.data, user?.id, now]);
  const shown = all ? weeks : weeks.slice(0, ROTATIONS_SHOWN);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>On call now and the next 7 days</h2>
        </CardTitle>
        <CardDescription>
          Who holds each rotation’s baton now, and when it changes hands. Your rotations first;
          times in your time zone.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {calendar.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {getErrorMessage(calendar.error, 'Failed to fetch who is on call')}
          </p>
        ) : calendar.isPending ? (
          <div className="grid gap-2" role="status" aria-label="Loading who is on call">
            {[0, 1].map((i) => (
              <Skeleton key={i} className="h-16 w-full" />
            ))}
          </div>
        ) : weeks.length === 0 ? (
          <p className="text-muted-foreground text-sm">No rotations yet.</p>
        ) : (
          <>
            <ul aria-label="On call by rotation" className="grid divide-y">
              {shown.map((week) => (
                <RotationWeekItem key={week.id} week={week} zone={timeZone} />
              ))}
            </ul>
            {weeks.length > ROTATIONS_SHOWN ? (
              <Button
                variant="outline"
                size="sm"
                className="w-fit"
                aria-expanded={all}
                onClick={() => setAll(!all)}
              >
                {all ? 'Show fewer rotations' : `Show all ${weeks.length} rotations`}
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
