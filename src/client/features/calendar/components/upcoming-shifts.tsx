import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useMinuteClock } from '@/components/timeline-chart';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { formatWeekdayDateTime } from '@/lib/format-time';
import {
  personShiftsAhead,
  rotationShiftsAhead,
  type ShiftAhead,
  shiftsAheadSpan,
} from '@/lib/shifts-ahead';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { useCalendar } from '../api/get-calendar';

/** How many shifts the list shows before "Show all". */
const SHOWN = 8;

/** The shifts of one rotation, or one person's in every rotation. */
export type UpcomingShiftsOf = { rotationId: number } | { personId: number; own: boolean };

/** When renders a stretch's span: 'Now – Wed, Dec 2, 9:00 AM'; 'From …' when it has no end. */
function When({ shift, zone }: { shift: ShiftAhead; zone: string }) {
  const start = shift.now ? 'Now' : formatWeekdayDateTime(shift.start, zone);
  const part = 'whitespace-nowrap';
  if (shift.end === null) {
    return (
      <>
        <span className={part}>{shift.now ? 'From now' : `From ${start}`},</span>{' '}
        <span>nobody due in the next two months</span>
      </>
    );
  }
  return (
    <>
      <span className={part}>{start}</span> –{' '}
      <span className={part}>{formatWeekdayDateTime(shift.end, zone)}</span>
    </>
  );
}

function ShiftItem({
  shift,
  byRotation,
  zone,
}: {
  shift: ShiftAhead;
  byRotation: boolean;
  zone: string;
}) {
  const covering =
    shift.kind === 'cover'
      ? `Covering${shift.coveredName ? ` for ${shift.coveredName}` : ''}`
      : null;
  return (
    <li
      className={cn(
        'grid gap-0.5 border-l-2 py-1.5 pl-3',
        shift.kind === 'nobody'
          ? 'border-danger-border'
          : shift.kind === 'cover'
            ? 'border-warning-border'
            : 'border-success-border',
      )}
    >
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        {byRotation ? (
          <Link
            to={`/rotations/${shift.rotationId}`}
            className="font-medium text-sm underline-offset-4 hover:underline"
          >
            {shift.rotationName}
          </Link>
        ) : (
          <span
            className={cn(
              'font-medium text-sm',
              shift.kind === 'nobody' && 'text-danger-foreground',
            )}
          >
            {shift.name}
          </span>
        )}
        {shift.now ? <Badge tone="success">Now</Badge> : null}
        {covering ? <span className="text-muted-foreground text-xs">{covering}</span> : null}
      </div>
      <p className="text-muted-foreground text-sm tabular-nums">
        <When shift={shift} zone={zone} />
      </p>
    </li>
  );
}

/** UpcomingShiftsList lists the shifts, the first few and the rest behind "Show all". */
export function UpcomingShiftsList({
  shifts,
  byRotation,
  label,
}: {
  shifts: ShiftAhead[];
  byRotation: boolean;
  label: string;
}) {
  const { timeZone } = useTimeFormat();
  const [all, setAll] = useState(false);
  const shown = all ? shifts : shifts.slice(0, SHOWN);
  return (
    <div className="grid gap-2">
      <ol aria-label={label} className="grid gap-1">
        {shown.map((s) => (
          <ShiftItem
            key={`${s.rotationId}-${s.start.getTime()}`}
            shift={s}
            byRotation={byRotation}
            zone={timeZone}
          />
        ))}
      </ol>
      {shifts.length > SHOWN ? (
        <Button
          variant="ghost"
          size="sm"
          className="w-fit"
          aria-expanded={all}
          onClick={() => setAll(!all)}
        >
          {all ? 'Show fewer' : `Show all ${shifts.length}`}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * UpcomingShiftsCard is "Upcoming shifts" (issue 35, decision 259): a rotation's next shifts, or
 * a person's in every rotation, from now for about two months, as the calendar read projects them
 * (time off gone round, cover laid over). `span`: the read to share (the rotation page's cover
 * plans read the same one), else its own from the minute it opened.
 */
export function UpcomingShiftsCard({
  of,
  name,
  span: shared,
}: {
  of: UpcomingShiftsOf;
  /** the rotation's or the person's name */
  name: string;
  span?: { from: string; to: string };
}) {
  const [own] = useState(() => shiftsAheadSpan(new Date()));
  const span = shared ?? own;
  const calendar = useCalendar(span.from, span.to);
  const now = useMinuteClock();
  const rotationId = 'rotationId' in of ? of.rotationId : null;
  const personId = 'personId' in of ? of.personId : null;
  const shifts = useMemo(() => {
    const data = calendar.data;
    if (!data) return [];
    const names = new Map(data.people.map((p) => [p.id, p.name]));
    const to = new Date(data.to);
    if (rotationId !== null) {
      const rotation = data.rotations.find((r) => r.id === rotationId);
      return rotation ? rotationShiftsAhead(rotation, names, now, to) : [];
    }
    return personId === null ? [] : personShiftsAhead(data.rotations, personId, names, now, to);
  }, [calendar.data, rotationId, personId, now]);
  const byRotation = rotationId === null;
  const description =
    'rotationId' in of
      ? 'Who holds the baton next, shift by shift, with cover and time off as the calendar shows them. Times in your time zone.'
      : of.own
        ? 'Your shifts in every rotation, and the ones you cover, for the next two months. Times in your time zone.'
        : `${name}’s shifts in every rotation, and the ones they cover, for the next two months. Times in your time zone.`;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Upcoming shifts</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {calendar.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {getErrorMessage(calendar.error, 'Failed to fetch upcoming shifts')}
          </p>
        ) : calendar.isPending ? (
          <div className="grid gap-2" role="status" aria-label="Loading upcoming shifts">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : shifts.length === 0 ? (
          <p className="text-muted-foreground text-sm">No shifts in the next two months.</p>
        ) : (
          <UpcomingShiftsList
            shifts={shifts}
            byRotation={byRotation}
            label={`Upcoming shifts of ${name}`}
          />
        )}
      </CardContent>
    </Card>
  );
}
