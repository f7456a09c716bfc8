import type { CalendarRotation } from '@shared/contracts/calendar';
import { cn } from '@/lib/utils';
import { rotationColor } from '../lib/rotation-colors';

/**
 * CalendarLegend names the colour of each rotation shown with its pattern in words, and the marks
 * for you, coverage and today.
 */
export function CalendarLegend({
  rotations,
  rotationId,
}: {
  rotations: CalendarRotation[];
  rotationId: number | null;
}) {
  return (
    <section aria-label="Legend" className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs">
      <ul className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {rotations.map((rotation, index) =>
          rotationId !== null && rotation.id !== rotationId ? null : (
            <li key={rotation.id} className="flex items-center gap-1.5">
              <span
                className={cn('size-3 rounded-sm', rotationColor(index).swatch)}
                aria-hidden="true"
              />
              <span>{rotation.name}</span>
              {rotation.suspended ? (
                <span className="text-muted-foreground">(suspended)</span>
              ) : null}
              {/* Drawn from data-label: the item's own text stays the rotation's name (decision 249). */}
              <span
                data-label={`· ${rotation.pattern}`}
                className="text-muted-foreground before:content-[attr(data-label)]"
              />
            </li>
          ),
        )}
      </ul>
      <span className="hidden h-4 w-px bg-border sm:block" aria-hidden="true" />
      <ul className="flex flex-wrap items-center gap-x-4 gap-y-2 text-muted-foreground">
        <li className="flex items-center gap-1.5">
          <span
            className="h-3 w-6 border-l-4 border-l-muted-foreground bg-muted ring-1 ring-foreground/60"
            aria-hidden="true"
          />
          Your shifts
        </li>
        <li className="flex items-center gap-1.5">
          <span
            className="h-3 w-6 border-l-4 border-dashed border-l-muted-foreground bg-muted"
            aria-hidden="true"
          />
          Coverage
        </li>
        <li className="flex items-center gap-1.5">
          <span className="size-3 rounded-full bg-primary" aria-hidden="true" />
          Today
        </li>
      </ul>
    </section>
  );
}
