import { FormControl } from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { WEEKDAYS } from '../lib/layer-form';

/**
 * WeekdaySelect chooses a handoff day, Sunday (0) to Saturday (6), inside a form item: the
 * rotation form's and each weekly layer's.
 */
export function WeekdaySelect({
  value,
  onChange,
  disabled,
}: {
  value: number | undefined;
  onChange: (day: number) => void;
  disabled?: boolean;
}) {
  return (
    <Select
      value={value === undefined ? '' : String(value)}
      onValueChange={(v) => onChange(Number(v))}
      disabled={disabled}
    >
      <FormControl>
        <SelectTrigger>
          <SelectValue placeholder="Select a day" />
        </SelectTrigger>
      </FormControl>
      <SelectContent>
        {WEEKDAYS.map((day, index) => (
          <SelectItem key={day} value={String(index)}>
            {day}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
