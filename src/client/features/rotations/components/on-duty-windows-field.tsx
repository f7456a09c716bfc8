import { LAYER_WINDOWS_MAX } from '@shared/contracts/rotations';
import { Plus, Trash2 } from 'lucide-react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { newWindow, type RotationFormValues, WEEKDAYS } from '../lib/layer-form';

// The days in the order a week is shown: Sunday first, as the contract numbers them.
const DAY_TOGGLES = WEEKDAYS.map((day, number) => ({ number, day, short: day.slice(0, 3) }));

/**
 * OnDutyWindowsField is a layer's on-duty windows: each its days (toggles, Sun–Sat), start and
 * end in the rotation's zone. None: the layer is always on duty.
 */
export function OnDutyWindowsField({ index, disabled }: { index: number; disabled?: boolean }) {
  const form = useFormContext<RotationFormValues>();
  const windows = useFieldArray({ control: form.control, name: `layers.${index}.activeWindows` });
  const listError = form.getFieldState(`layers.${index}.activeWindows`, form.formState).error;
  const listMessage = listError?.message ?? listError?.root?.message;

  return (
    <fieldset className="grid gap-2">
      <legend className="font-medium text-sm">On-duty windows</legend>
      {windows.fields.length === 0 ? (
        <p className="text-muted-foreground text-sm">None: always on duty.</p>
      ) : null}
      {windows.fields.map((window, w) => (
        <fieldset
          key={window.id}
          aria-label={`On-duty window ${w + 1}`}
          className="grid gap-3 rounded-md border p-3"
        >
          <FormField
            control={form.control}
            name={`layers.${index}.activeWindows.${w}.days`}
            render={({ field }) => (
              <FormItem>
                <FormLabel className="text-xs">Days</FormLabel>
                <FormControl>
                  {/* biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons */}
                  <div role="group" className="flex flex-wrap gap-1">
                    {DAY_TOGGLES.map(({ number, day, short }) => {
                      const on = field.value.includes(number);
                      return (
                        <Button
                          key={day}
                          type="button"
                          size="sm"
                          variant={on ? 'default' : 'outline'}
                          aria-pressed={on}
                          aria-label={day}
                          className="w-11 px-0"
                          disabled={disabled}
                          onClick={() =>
                            field.onChange(
                              on
                                ? field.value.filter((d) => d !== number)
                                : [...field.value, number],
                            )
                          }
                        >
                          {short}
                        </Button>
                      );
                    })}
                  </div>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <div className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
            {(['start', 'end'] as const).map((edge) => (
              <FormField
                key={edge}
                control={form.control}
                name={`layers.${index}.activeWindows.${w}.${edge}`}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel className="text-xs">{edge === 'start' ? 'From' : 'Until'}</FormLabel>
                    <FormControl>
                      <Input type="time" step={60} disabled={disabled} {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            ))}
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="mt-[1.375rem]"
              aria-label={`Remove on-duty window ${w + 1}`}
              disabled={disabled}
              onClick={() => windows.remove(w)}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        </fieldset>
      ))}
      {listMessage ? <p className="text-destructive text-sm">{listMessage}</p> : null}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={disabled || windows.fields.length >= LAYER_WINDOWS_MAX}
          onClick={() => windows.append(newWindow())}
        >
          <Plus aria-hidden="true" />
          Add on-duty window
        </Button>
      </div>
      <p className="text-muted-foreground text-xs">
        Times are the rotation's wall-clock time. An end at or before the start runs into the next
        day (19:00 until 07:00 is overnight; 00:00 until 00:00 is the whole day). A window belongs
        to the day it starts on.
      </p>
    </fieldset>
  );
}
