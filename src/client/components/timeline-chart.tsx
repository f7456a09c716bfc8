import { useEffect, useState } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import {
  NOBODY_ON_CALL,
  type SegmentKind,
  type Timeline,
  type TimelineRow,
  type TimelineSegment,
} from '@/lib/timeline';
import { cn } from '@/lib/utils';

/*
 * A timeline of who is on call when, drawn as rows of bars over days in the viewer's zone with now
 * marked: the rotation page's (decision 249) and the calendar's (decision 257). The chart is a
 * picture: its words are in each bar's accessible name (role img) and drawn from data-label with
 * CSS, so the page's text (what people and tests search) says each name once, elsewhere.
 */

const HATCH = 'bg-[repeating-linear-gradient(135deg,var(--hatch)_0_2px,transparent_2px_7px)]';

/** The bar's colours by what it shows: tones (decision 194), cover and time off hatched. */
const BAR_STYLES: Record<SegmentKind | 'layer', string> = {
  layer: 'border-info-border bg-info text-info-foreground',
  turn: 'border-success-border bg-success text-success-foreground',
  cover: cn(
    'border-warning-border bg-warning text-warning-foreground [--hatch:var(--warning-border)]',
    HATCH,
  ),
  nobody: 'border-danger-border border-dashed bg-danger text-danger-foreground',
  away: cn('border-border bg-muted text-muted-foreground [--hatch:var(--border)]', HATCH),
};

const LEGEND: { key: keyof typeof BAR_STYLES; text: string }[] = [
  { key: 'layer', text: 'A layer’s turn, while it is on duty' },
  { key: 'turn', text: 'On call' },
  { key: 'cover', text: 'Cover' },
  { key: 'nobody', text: NOBODY_ON_CALL },
  { key: 'away', text: 'Time off' },
];

/** Drawn text: the element's data-label, shown by CSS and kept out of the page's text. */
const DRAWN_LABEL = 'before:content-[attr(data-label)]';

function Bar({ segment, row }: { segment: TimelineSegment; row: TimelineRow }) {
  const style = row.kind === 'layer' ? BAR_STYLES.layer : BAR_STYLES[segment.kind];
  return (
    <li
      className="absolute inset-y-1 px-px"
      style={{ left: `${segment.left}%`, width: `${segment.width}%` }}
    >
      <div
        role="img"
        aria-label={segment.label}
        title={segment.label}
        data-kind={segment.kind}
        data-now={segment.now || undefined}
        data-label={segment.short}
        className={cn(
          'h-full overflow-hidden text-ellipsis whitespace-nowrap rounded-sm border px-1 text-[11px] leading-[1.375rem]',
          DRAWN_LABEL,
          style,
        )}
      />
    </li>
  );
}

/** TimelineLegend says what each bar's colours mean, and the line for now. */
export function TimelineLegend({ layers = true }: { layers?: boolean }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1.5 text-muted-foreground text-xs">
      {LEGEND.filter((item) => layers || item.key !== 'layer').map((item) => (
        <li key={item.key} className="flex items-center gap-1.5">
          <span className={cn('h-3 w-6 rounded-sm border', BAR_STYLES[item.key])} aria-hidden />
          {item.text}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <span className="h-3 w-0.5 bg-primary" aria-hidden />
        Now
      </li>
    </ul>
  );
}

/** useMinuteClock returns now, moving on every minute while the page is open. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/**
 * TimelineChart draws a timeline in a box that scrolls sideways where it is wider than the page;
 * while `pending`, the result rows are placeholders.
 */
export function TimelineChart({
  timeline,
  pending,
  label,
  minWidth = 'min-w-[84rem]',
}: {
  timeline: Timeline;
  pending: boolean;
  /** the box's accessible name: "Timeline of the next two weeks" */
  label: string;
  /** the chart's least width (a Tailwind class): two weeks need more than one */
  minWidth?: string;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls sideways must be reachable by keyboard
      tabIndex={0}
      className="overflow-x-auto rounded-md border outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <div className={cn('grid grid-cols-[8.5rem_1fr]', minWidth)}>
        <div className="sticky left-0 z-20 border-b bg-card" />
        <div className="relative h-7 border-b" aria-hidden>
          {timeline.days.map((day) => (
            <span
              key={day.key}
              data-label={day.label}
              className={cn(
                'absolute inset-y-0 border-l pl-1 text-[11px] text-muted-foreground leading-7',
                DRAWN_LABEL,
              )}
              style={{ left: `${day.left}%` }}
            />
          ))}
        </div>
        {timeline.rows.map((row) => (
          <TimelineRowView key={row.key} row={row} days={timeline.days} pending={pending} />
        ))}
        <div className="sticky left-0 z-20 bg-card" />
        <div className="relative h-0">
          {timeline.now === null ? null : (
            <div
              aria-hidden
              className="pointer-events-none absolute bottom-0 z-10 w-0.5 bg-primary"
              style={{ left: `${timeline.now}%`, height: `${timeline.rows.length * 2.5}rem` }}
            />
          )}
        </div>
      </div>
    </section>
  );
}

function TimelineRowView({
  row,
  days,
  pending,
}: {
  row: TimelineRow;
  days: { key: string; left: number }[];
  pending: boolean;
}) {
  const waiting = pending && row.kind === 'result';
  return (
    <>
      <div
        className={cn(
          'sticky left-0 z-20 flex h-10 items-center truncate border-r border-b bg-card px-2 text-xs',
          row.kind === 'result' ? 'font-semibold' : 'font-medium',
        )}
        aria-hidden
        title={row.label}
      >
        <span className={cn('truncate', DRAWN_LABEL)} data-label={row.label} />
      </div>
      <div className="relative h-10 border-b">
        {days.map((day) => (
          <span
            key={day.key}
            aria-hidden
            className="absolute inset-y-0 border-border/60 border-l"
            style={{ left: `${day.left}%` }}
          />
        ))}
        {waiting ? (
          <Skeleton className="absolute inset-1" />
        ) : (
          <ul aria-label={row.label} className="absolute inset-0">
            {row.segments.map((segment) => (
              <Bar
                key={`${segment.start.getTime()}-${segment.end.getTime()}`}
                segment={segment}
                row={row}
              />
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
