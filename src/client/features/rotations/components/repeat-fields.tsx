import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { cn } from '@/lib/utils';
import { type RepeatValues, repeatProblem, WEEKDAY_CHOICES } from '../lib/repeat-form';

/**
 * RepeatFields: "Repeats" of the add-schedule dialog (decision 250): never, daily or weekly on
 * chosen days, every N days or weeks, ending never, on a date or after N times, with the series
 * in words as a preview.
 */
export function RepeatFields({
  value,
  onChange,
  words,
  timeZoneNote,
  disabled,
  showProblem,
}: {
  value: RepeatValues;
  onChange: (next: RepeatValues) => void;
  /** the series in words, when the start and end make one */
  words: string | null;
  /** said under the words when the rotation's zone is not the viewer's */
  timeZoneNote: string | null;
  disabled?: boolean;
  showProblem: boolean;
}) {
  const set = (patch: Partial<RepeatValues>) => onChange({ ...value, ...patch });
  const problem = showProblem ? repeatProblem(value) : null;
  const unit = `${value.frequency === 'daily' ? 'day' : 'week'}${value.interval === 1 ? '' : 's'}`;
  return (
    <fieldset className="grid gap-3" disabled={disabled}>
      <legend className="mb-2 font-medium text-sm">Repeats</legend>
      <div className="flex flex-wrap items-center gap-2">
        <Select
          value={value.frequency}
          onValueChange={(v) => set({ frequency: v as RepeatValues['frequency'] })}
        >
          <SelectTrigger className="w-36" aria-label="Repeats" size="sm">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="never">Does not repeat</SelectItem>
            <SelectItem value="daily">Daily</SelectItem>
            <SelectItem value="weekly">Weekly</SelectItem>
          </SelectContent>
        </Select>
        {value.frequency !== 'never' ? (
          <>
            <Label htmlFor="repeat-every" className="font-normal">
              every
            </Label>
            <Input
              id="repeat-every"
              type="number"
              min={1}
              max={52}
              className="h-8 w-16"
              value={value.interval}
              onChange={(e) => set({ interval: Number(e.target.value) })}
            />
            <span className="text-sm">{unit}</span>
          </>
        ) : null}
      </div>
      {value.frequency === 'weekly' ? (
        <fieldset className="flex flex-wrap gap-1.5" aria-label="On these days">
          {WEEKDAY_CHOICES.map(({ day, label }) => {
            const on = value.weekdays.includes(day);
            return (
              <button
                key={day}
                type="button"
                aria-pressed={on}
                onClick={() =>
                  set({
                    weekdays: on
                      ? value.weekdays.filter((d) => d !== day)
                      : [...value.weekdays, day],
                  })
                }
                className={cn(
                  'h-8 min-w-11 rounded-md border px-2 text-sm transition-colors',
                  on
                    ? 'border-primary bg-primary text-primary-foreground'
                    : 'bg-background hover:bg-accent',
                )}
              >
                {label}
              </button>
            );
          })}
        </fieldset>
      ) : null}
      {value.frequency !== 'never' ? (
        <div className="flex flex-wrap items-center gap-2">
          <Select
            value={value.ends}
            onValueChange={(v) => set({ ends: v as RepeatValues['ends'] })}
          >
            <SelectTrigger className="w-36" aria-label="Ends" size="sm">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="never">Never ends</SelectItem>
              <SelectItem value="until">Until a date</SelectItem>
              <SelectItem value="count">After N times</SelectItem>
            </SelectContent>
          </Select>
          {value.ends === 'until' ? (
            <Input
              type="date"
              aria-label="Last day"
              className="h-8 w-44"
              value={value.until}
              onChange={(e) => set({ until: e.target.value })}
            />
          ) : null}
          {value.ends === 'count' ? (
            <>
              <Input
                type="number"
                aria-label="Times"
                min={1}
                max={1000}
                className="h-8 w-20"
                value={value.count}
                onChange={(e) => set({ count: Number(e.target.value) })}
              />
              <span className="text-sm">times</span>
            </>
          ) : null}
        </div>
      ) : null}
      {problem ? <p className="text-destructive text-sm">{problem}</p> : null}
      {words ? (
        <p className="text-muted-foreground text-sm" aria-live="polite">
          <span className="font-medium text-foreground">{words}</span>
          {timeZoneNote ? ` (${timeZoneNote})` : null}
        </p>
      ) : null}
    </fieldset>
  );
}
