import type { Calendar } from '@shared/contracts/calendar';
import type { CalendarDay } from '@shared/domain/calendar';
import { formatDay, formatTime } from '@/lib/format-time';
import { cn, initials } from '@/lib/utils';
import {
  type DayAvailability,
  type DayRotation,
  dayAvailability,
  dayRotations,
  shiftLabel,
  shortName,
} from '../lib/calendar-view';
import { rotationColor } from '../lib/rotation-colors';

const WEEKDAYS = [
  ['Sun', 'Sunday'],
  ['Mon', 'Monday'],
  ['Tue', 'Tuesday'],
  ['Wed', 'Wednesday'],
  ['Thu', 'Thursday'],
  ['Fri', 'Friday'],
  ['Sat', 'Saturday'],
] as const;

/** How many people a day cell lists before '+N more'. */
const MAX_CHIPS = 4;

/**
 * MonthGrid is the month from Sunday to Saturday: each day lists who is on call in each rotation
 * (a colour per rotation), today stands out, and so do the signed-in user's own shifts. A day is
 * a button that shows its details below the grid.
 */
export function MonthGrid({
  weeks,
  calendar,
  timeZone,
  todayKey,
  selectedKey,
  onSelect,
  rotationId,
  viewerId,
}: {
  weeks: CalendarDay[][];
  calendar: Calendar | undefined;
  timeZone: string;
  todayKey: string;
  selectedKey: string;
  onSelect: (day: CalendarDay) => void;
  rotationId: number | null;
  viewerId: number | null;
}) {
  return (
    <table className="w-full table-fixed border-collapse overflow-hidden rounded-lg border text-sm">
      <caption className="sr-only">Who is on call each day</caption>
      <thead>
        <tr className="bg-muted/50">
          {WEEKDAYS.map(([short, long]) => (
            <th
              key={short}
              scope="col"
              abbr={long}
              className="border-b px-1 py-2 text-center font-medium text-muted-foreground text-xs"
            >
              {short}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0].key}>
            {week.map((day) => {
              const entries = calendar
                ? dayRotations(calendar, day, timeZone, { rotationId, viewerId })
                : [];
              const availability = calendar
                ? dayAvailability(calendar, day, timeZone, { rotationId, viewerId })
                : { away: [], gaps: [] };
              return (
                <td key={day.key} className="h-20 border p-0 align-top sm:h-28">
                  <DayCell
                    day={day}
                    entries={entries}
                    availability={availability}
                    timeZone={timeZone}
                    today={day.key === todayKey}
                    selected={day.key === selectedKey}
                    onSelect={() => onSelect(day)}
                  />
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DayCell({
  day,
  entries,
  availability,
  timeZone,
  today,
  selected,
  onSelect,
}: {
  day: CalendarDay;
  entries: DayRotation[];
  availability: DayAvailability;
  timeZone: string;
  today: boolean;
  selected: boolean;
  onSelect: () => void;
}) {
  const chips = entries.flatMap((e) => e.people.map((p) => ({ ...p, rotation: e })));
  const shown = chips.slice(0, MAX_CHIPS);
  const summary = [
    ...entries.map((e) => `${e.rotationName}: ${e.people.map(shiftLabel).join(', ')}`),
    ...availability.gaps.map((g) => `${g.rotationName}: gap, everyone away`),
    ...(availability.away.length > 0
      ? [`Time off: ${availability.away.map((a) => a.name).join(', ')}`]
      : []),
  ].join('; ');
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-pressed={selected}
      aria-current={today ? 'date' : undefined}
      className={cn(
        'flex h-full w-full flex-col gap-0.5 p-1 text-left outline-none transition-colors hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset',
        !day.inMonth && 'bg-muted/40 text-muted-foreground',
        today && 'bg-primary/5',
        selected && 'ring-2 ring-primary ring-inset',
      )}
    >
      {/* The name is this line, from the content, not an aria-label: the day number and the
          chips below are its short visual form (hidden from the name), so no visible text is
          missing from the name (axe label-content-name-mismatch). */}
      <span className="sr-only">
        {`${formatDay(day)}${today ? ' (today)' : ''}${summary ? `. ${summary}` : '. No one on call'}`}
      </span>
      <span
        aria-hidden="true"
        className={cn(
          'mb-0.5 inline-flex size-6 shrink-0 items-center justify-center rounded-full text-xs',
          today && 'bg-primary font-semibold text-primary-foreground',
        )}
      >
        {day.day}
      </span>
      {shown.map((chip, i) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: a person may appear twice in one day
          key={`${chip.rotation.rotationId}-${chip.userId}-${i}`}
          aria-hidden="true"
          title={`${chip.rotation.rotationName}: ${shiftLabel(chip)}`}
          className={cn(
            'block truncate rounded-sm border-l-4 px-1 text-[11px] text-foreground leading-4',
            rotationColor(chip.rotation.index).chip,
            chip.coverage && 'border-dashed italic',
            chip.mine && 'font-semibold ring-1 ring-foreground/60',
          )}
        >
          <span className="sm:hidden">{initials(chip.name)}</span>
          <span className="hidden sm:inline">
            {chip.startsAt ? `${formatTime(chip.startsAt, timeZone)} ` : ''}
            {shortName(chip.name)}
          </span>
        </span>
      ))}
      {availability.gaps.length > 0 ? (
        <span
          aria-hidden="true"
          title={availability.gaps.map((g) => `${g.rotationName}: everyone away`).join('; ')}
          className="block truncate rounded-sm bg-warning px-1 font-medium text-[11px] text-warning-foreground leading-4"
        >
          Gap
        </span>
      ) : null}
      {availability.away.length > 0 ? (
        <span
          aria-hidden="true"
          title={`Time off: ${availability.away.map((a) => a.name).join(', ')}`}
          className="block truncate px-1 text-[11px] text-foreground leading-4"
        >
          {availability.away.length} away
        </span>
      ) : null}
      {chips.length > MAX_CHIPS ? (
        // Full foreground: muted text on a tinted day cell fell below 4.5:1 (issue 15).
        <span aria-hidden="true" className="px-1 font-medium text-[11px] text-foreground">
          +{chips.length - MAX_CHIPS} more
        </span>
      ) : null}
    </button>
  );
}
