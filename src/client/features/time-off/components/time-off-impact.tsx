import type { TimeOffInput } from '@shared/contracts/time-off';
import { CalendarCheck, TriangleAlert } from 'lucide-react';
import { getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { useTimeOffImpact } from '../api/preview-time-off';
import { impactLines } from '../lib/time-off-impact';

/**
 * TimeOffImpactNote shows, in the time-off dialog before saving, whose shifts the entry would
 * move and to whom (decision 256): "Noah Novak covers 1, 3 and 6 December in Payments", read
 * from the server's own projection, so it says exactly what saving does. Nothing until the start
 * and end are whole; a refusal (an overlap, an end in the past) is left to the form's own check.
 */
export function TimeOffImpactNote({
  personId,
  own,
  entry,
}: {
  personId: number;
  own: boolean;
  entry: Pick<TimeOffInput, 'startTime' | 'endTime'> | null;
}) {
  const { timeZone } = useTimeFormat();
  const impact = useTimeOffImpact(personId, entry);
  if (entry === null) return null;
  const lines = impact.data ? impactLines(impact.data.moves, timeZone) : [];
  return (
    <section
      aria-label="Impact on the rotations"
      aria-live="polite"
      className="rounded-md border bg-muted/40 p-3 text-sm"
    >
      <h3 className="mb-1 font-medium">Impact on the rotations</h3>
      {impact.isError ? (
        <p className="text-muted-foreground">
          {getErrorMessage(impact.error, 'The impact could not be worked out.')}
        </p>
      ) : impact.isPending ? (
        <p className="text-muted-foreground">Working out whose shifts move…</p>
      ) : lines.length === 0 ? (
        <p className="flex items-center gap-2 text-muted-foreground">
          <CalendarCheck className="size-4 shrink-0" aria-hidden="true" />
          {own
            ? 'None of your shifts in the next 8 weeks falls in this time.'
            : 'None of their shifts in the next 8 weeks falls in this time.'}
        </p>
      ) : (
        <ul className="grid gap-1">
          {lines.map((line) => (
            <li key={line.key} className="flex items-start gap-2">
              {line.gap ? (
                <TriangleAlert
                  className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400"
                  aria-hidden="true"
                />
              ) : (
                <CalendarCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              )}
              <span>{line.text}.</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
