import { LAYER_CADENCES } from '@shared/contracts/rotations';
import type { Cadence } from '@shared/domain/layers';
import { useFormContext, useWatch } from 'react-hook-form';
import type { Choosable } from '@/components/person-field';
import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { CADENCE_EVERY_MAX, CADENCE_UNITS, type RotationFormValues } from '../lib/layer-form';
import { LayerMembersField } from './layer-members-field';
import { OnDutyWindowsField } from './on-duty-windows-field';
import { WeekdaySelect } from './weekday-select';

/**
 * LayerFields are one layer's fields: its name, members in turn order, shift length (N hours,
 * days or weeks), handoff time and, for weekly turns, weekday, on-duty windows, and an optional
 * start of its first turn in the rotation's zone.
 */
export function LayerFields({
  index,
  timeZone,
  people,
  peopleLoading,
  peopleError,
  disabled,
}: {
  index: number;
  timeZone: string;
  people: readonly Choosable[];
  peopleLoading: boolean;
  peopleError: string | null;
  disabled?: boolean;
}) {
  const form = useFormContext<RotationFormValues>();
  const cadence = useWatch({ control: form.control, name: `layers.${index}.cadence` });
  const prefix = `layers.${index}` as const;

  return (
    <div className="grid gap-4">
      <FormField
        control={form.control}
        name={`${prefix}.name`}
        render={({ field }) => (
          <FormItem>
            <FormLabel>Layer name</FormLabel>
            <FormControl>
              <Input placeholder="e.g. London, After hours" disabled={disabled} {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <LayerMembersField
        index={index}
        people={people}
        loading={peopleLoading}
        error={peopleError}
        disabled={disabled}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          control={form.control}
          name={`${prefix}.cadenceEvery`}
          render={({ field }) => (
            <FormItem>
              <FormLabel>Shift length</FormLabel>
              <div className="flex gap-2">
                <FormControl>
                  <Input
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={CADENCE_EVERY_MAX[cadence]}
                    step={1}
                    className="w-24"
                    disabled={disabled}
                    name={field.name}
                    ref={field.ref}
                    onBlur={field.onBlur}
                    value={Number.isNaN(field.value) ? '' : field.value}
                    onChange={(event) => field.onChange(event.target.valueAsNumber)}
                  />
                </FormControl>
                <FormField
                  control={form.control}
                  name={`${prefix}.cadence`}
                  render={({ field: unit }) => (
                    <Select
                      value={unit.value}
                      onValueChange={(value) => unit.onChange(value as Cadence)}
                      disabled={disabled}
                    >
                      <SelectTrigger aria-label="Shift length unit" className="flex-1">
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {LAYER_CADENCES.map((c) => (
                          <SelectItem key={c} value={c}>
                            {CADENCE_UNITS[c]}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                />
              </div>
              <FormDescription className="text-xs">
                Up to {CADENCE_EVERY_MAX[cadence]} {CADENCE_UNITS[cadence]}. Turns follow the wall
                clock: 12-hour shifts at 08:00 keep 08:00 and 20:00.
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="grid gap-4 sm:grid-cols-2 sm:content-start">
          <FormField
            control={form.control}
            name={`${prefix}.handoffTime`}
            render={({ field }) => (
              <FormItem className={cadence === 'weekly' ? '' : 'sm:col-span-2'}>
                <FormLabel>Handoff time</FormLabel>
                <FormControl>
                  <Input type="time" step={60} disabled={disabled} {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          {cadence === 'weekly' ? (
            <FormField
              control={form.control}
              name={`${prefix}.handoffWeekday`}
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Handoff day</FormLabel>
                  <WeekdaySelect
                    value={field.value}
                    onChange={field.onChange}
                    disabled={disabled}
                  />
                  <FormMessage />
                </FormItem>
              )}
            />
          ) : null}
        </div>
      </div>
      <OnDutyWindowsField index={index} disabled={disabled} />
      <FormField
        control={form.control}
        name={`${prefix}.startsAt`}
        render={({ field }) => (
          <FormItem>
            <FormLabel>First turn starts (optional)</FormLabel>
            <FormControl>
              <Input type="datetime-local" disabled={disabled} {...field} />
            </FormControl>
            <FormDescription className="text-xs">
              When the first member's turn begins, in {timeZone}. Without it the first turn runs
              from now to the first handoff; a layer whose shift is unchanged keeps its start.
            </FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
    </div>
  );
}
