import { dayKeyOf } from '@shared/domain/calendar';
import { useMemo } from 'react';
import { TimelineChart, TimelineLegend, useMinuteClock } from '@/components/timeline-chart';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { buildTeamTimeline, timelineSpan } from '@/lib/timeline';
import { useTimeFormat } from '@/lib/use-time-format';
import { useCalendar } from '../api/get-calendar';

/**
 * TeamTimeline is the calendar's "Next two weeks" (issue 35, decision 257): a row per rotation
 * (the one the filter chose, or all), who is on call in it from the start of today for fourteen
 * days with cover hatched and nobody named, then a row per person away, with now marked. It reads
 * the calendar of its own span, whatever month the grid below shows.
 */
export function TeamTimeline({ rotationId }: { rotationId: number | null }) {
  const fmt = useTimeFormat();
  const now = useMinuteClock();
  // The span moves on at midnight in the viewer's zone: keyed by the day, not by the minute.
  const today = dayKeyOf(now, fmt.timeZone);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the span changes with the day, not each minute
  const span = useMemo(() => timelineSpan(now, fmt.timeZone), [today, fmt.timeZone]);
  const calendar = useCalendar(span.from.toISOString(), span.to.toISOString());
  const timeline = useMemo(() => {
    const rotations = (calendar.data?.rotations ?? []).filter(
      (r) => rotationId === null || r.id === rotationId,
    );
    const members =
      rotationId === null ? null : new Set(rotations.flatMap((r) => r.shifts.map((s) => s.userId)));
    return buildTeamTimeline({
      rotations,
      timeOff: (calendar.data?.timeOff ?? []).filter(
        (t) => members === null || members.has(t.userId),
      ),
      people: calendar.data?.people ?? [],
      from: span.from,
      to: span.to,
      now,
      viewerZone: fmt.timeZone,
    });
  }, [calendar.data, rotationId, span, now, fmt.timeZone]);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Next two weeks</h2>
        </CardTitle>
        <CardDescription>
          Who is on call in each rotation, with cover and time off. Days in your time zone.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {calendar.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Failed to fetch the next two weeks</AlertTitle>
            <AlertDescription>
              {getErrorMessage(calendar.error, 'Could not load who is on call. Please try again.')}
            </AlertDescription>
          </Alert>
        ) : null}
        <TimelineLegend layers={false} />
        {calendar.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : timeline.rows.length === 0 ? (
          <p className="text-muted-foreground text-sm">No rotations yet.</p>
        ) : (
          <TimelineChart
            timeline={timeline}
            pending={false}
            label="Timeline of the next two weeks"
          />
        )}
      </CardContent>
    </Card>
  );
}
