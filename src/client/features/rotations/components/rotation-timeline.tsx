import type { Calendar } from '@shared/contracts/calendar';
import type { Rotation } from '@shared/contracts/rotations';
import { useMemo } from 'react';
import { TimelineChart, TimelineLegend, useMinuteClock } from '@/components/timeline-chart';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { buildTimeline } from '@/lib/timeline';
import { useTimeFormat } from '@/lib/use-time-format';

/*
 * The rotation page's two-week timeline (decision 249): a row per layer, one for who is actually
 * on call and one per member away, over days in the viewer's zone, with now marked
 * (components/timeline-chart.tsx draws it).
 */

/**
 * RotationTimeline draws the rotation's coming two weeks over `span`: its layers' turns from the
 * rotation's own layers, and the result from `calendar` (the calendar read of the same span);
 * while that loads, the result row is a placeholder.
 */
export function RotationTimeline({
  rotation,
  calendar,
  span,
}: {
  rotation: Rotation;
  calendar: Calendar | undefined;
  span: { from: Date; to: Date };
}) {
  const fmt = useTimeFormat();
  const now = useMinuteClock();
  const timeline = useMemo(() => {
    const own = calendar?.rotations.find((r) => r.id === rotation.id);
    return buildTimeline({
      rotation,
      shifts: own?.shifts ?? [],
      timeOff: calendar?.timeOff ?? [],
      people: calendar?.people ?? [],
      from: span.from,
      to: span.to,
      now,
      viewerZone: fmt.timeZone,
    });
  }, [rotation, calendar, span, now, fmt.timeZone]);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Next two weeks</h2>
        </CardTitle>
        <CardDescription>
          {rotation.layered || rotation.type === 'fixed'
            ? 'Each layer’s turns, and who is on call once cover and gaps are counted.'
            : 'Who is on call, from the schedule entries and cover.'}{' '}
          Days in your time zone.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <TimelineLegend />
        <TimelineChart
          timeline={timeline}
          pending={!calendar}
          label="Timeline of the next two weeks"
        />
        {timeline.clockChanges.map((text) => (
          <p key={text} className="text-muted-foreground text-sm">
            {text}
          </p>
        ))}
      </CardContent>
    </Card>
  );
}
