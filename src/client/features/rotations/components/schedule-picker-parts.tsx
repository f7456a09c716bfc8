import { CalendarIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Calendar } from '@/components/ui/calendar';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/utils';

/**
 * DayPickerButton is the schedule dialog's date field: a button showing the chosen day (or what
 * to do), opening a one-month calendar in the viewer's zone. `which` names it ('start', 'end').
 */
export function DayPickerButton({
  which,
  value,
  formatDay,
  timeZone,
  open,
  onOpenChange,
  invalid,
  disabled,
  defaultMonth,
  isDayDisabled,
  onPick,
}: {
  which: 'start' | 'end';
  value: Date | null;
  formatDay: (day: Date) => string;
  timeZone: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  invalid: boolean;
  disabled?: boolean;
  defaultMonth: Date | undefined;
  isDayDisabled: (day: Date) => boolean;
  onPick: (day: Date) => void;
}) {
  const Which = which === 'start' ? 'Start' : 'End';
  const prompt = which === 'start' ? 'Pick a start date' : 'Pick an end date';
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <Button
          type="button"
          variant="outline"
          disabled={disabled}
          aria-label={value ? `${Which} date: ${formatDay(value)}` : prompt}
          aria-invalid={invalid ? true : undefined}
          className={cn('justify-start font-normal', !value && 'text-muted-foreground')}
        >
          <CalendarIcon aria-hidden="true" />
          {value ? formatDay(value) : prompt}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-auto p-0" align="start" aria-label={`Choose the ${which} day`}>
        <Calendar
          mode="single"
          timeZone={timeZone}
          selected={value ?? undefined}
          defaultMonth={defaultMonth}
          disabled={isDayDisabled}
          onSelect={(day) => {
            if (day) onPick(day);
          }}
        />
      </PopoverContent>
    </Popover>
  );
}

/** PresetChips is a row of toggle buttons for the schedule dialog's time and duration presets. */
export function PresetChips({
  legend,
  presets,
  disabled,
}: {
  legend: string;
  presets: { label: string; active: boolean; onPick: () => void }[];
  disabled: boolean;
}) {
  return (
    <fieldset className="flex flex-wrap gap-1.5">
      <legend className="mb-1.5 text-muted-foreground text-xs">{legend}</legend>
      {presets.map((preset) => (
        <Button
          key={preset.label}
          type="button"
          size="sm"
          variant={preset.active ? 'default' : 'outline'}
          aria-pressed={preset.active}
          disabled={disabled}
          className="h-7 px-2 text-xs"
          onClick={preset.onPick}
        >
          {preset.label}
        </Button>
      ))}
    </fieldset>
  );
}
