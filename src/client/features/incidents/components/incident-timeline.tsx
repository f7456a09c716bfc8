import type { TimelineEvent } from '@shared/contracts/incidents';
import { LinkedText } from '@/components/linked-text';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { isTimelineProblem, timelineDetail, timelineText } from '../lib/timeline-text';

/** IncidentTimeline lists an incident's events oldest first, each with its time, in words. */
export function IncidentTimeline({ events }: { events: readonly TimelineEvent[] }) {
  const fmt = useTimeFormat();
  if (events.length === 0) {
    return <p className="text-muted-foreground text-sm">Nothing has happened yet.</p>;
  }
  return (
    <ol className="grid gap-3 border-l pl-4" aria-label="Timeline">
      {events.map((event, index) => (
        <li
          // Events have no id of their own; their order is the server's and stable.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={`${index}-${event.kind}-${event.at}`}
          className="relative grid gap-1"
        >
          <span
            aria-hidden
            className={cn(
              '-left-[1.3rem] absolute top-1.5 size-2 rounded-full',
              isTimelineProblem(event) ? 'bg-destructive' : 'bg-muted-foreground/60',
            )}
          />
          <time dateTime={event.at} className="text-muted-foreground text-xs">
            {fmt.dateTime(event.at)}
          </time>
          <p
            className={cn(
              'break-words text-sm',
              isTimelineProblem(event) && 'font-medium text-destructive',
            )}
          >
            {timelineText(event)}
          </p>
          {timelineDetail(event) ? (
            <p className="break-words text-muted-foreground text-xs">{timelineDetail(event)}</p>
          ) : null}
          {(event.kind === 'note' || event.kind === 'resolved') && event.text ? (
            <p className="whitespace-pre-wrap break-words rounded-md border bg-muted/40 px-3 py-2 text-sm">
              {event.kind === 'resolved' ? (
                <span className="font-medium">Resolution note: </span>
              ) : null}
              <LinkedText text={event.text} />
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
