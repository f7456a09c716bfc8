import type { ActiveWindow, EscalationPolicyInput } from '@shared/contracts/escalation-policies';
import { ACTIVE_WINDOWS_MAX } from '@shared/contracts/escalation-policies';
import { Plus, X } from 'lucide-react';
import { useFormContext, useWatch } from 'react-hook-form';
import { InputField } from '@/components/form-fields';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { DAY_NAMES, DAY_SHORT } from '../lib/policy-text';
import type { PolicyControl } from './step-card';

/** A new window: weeknights, 22:00 to 07:00 (the "only at night" example). */
const NEW_WINDOW: ActiveWindow = {
  daysOfWeek: [1, 2, 3, 4, 5],
  startTime: '22:00',
  endTime: '07:00',
};

/**
 * ActiveHoursField lets a step apply only at chosen days and hours, in the zone of the rotation
 * following the policy (the preview says which zone). Off: the step applies at every hour (null).
 */
export function ActiveHoursField({
  control,
  stepIndex,
  disabled,
}: {
  control: PolicyControl;
  stepIndex: number;
  disabled: boolean;
}) {
  const { setValue } = useFormContext<EscalationPolicyInput>();
  const name = `steps.${stepIndex}.activeHours` as const;
  const windows = useWatch({ control, name }) ?? null;
  const switchId = `step-${stepIndex}-hours`;
  const set = (next: ActiveWindow[] | null) =>
    setValue(name, next, { shouldDirty: true, shouldValidate: false });

  return (
    <fieldset className="grid gap-3">
      <legend className="sr-only">Active hours of step {stepIndex + 1}</legend>
      <div className="flex items-center gap-2">
        <Checkbox
          id={switchId}
          checked={windows !== null}
          disabled={disabled}
          onCheckedChange={(checked) => set(checked === true ? [{ ...NEW_WINDOW }] : null)}
        />
        <Label htmlFor={switchId}>Only at certain hours</Label>
      </div>
      {windows === null ? (
        <p className="text-muted-foreground text-xs">This step applies at every hour.</p>
      ) : (
        <>
          {windows.map((window, windowIndex) => (
            <div
              // Windows have no identity of their own; their place is their name.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={windowIndex}
              className="grid gap-3 rounded-md border p-3"
            >
              <FormField
                control={control}
                name={`${name}.${windowIndex}.daysOfWeek`}
                render={({ field }) => (
                  <FormItem>
                    <FormLabel className="text-xs">Days</FormLabel>
                    <div className="flex flex-wrap gap-1.5">
                      {DAY_SHORT.map((day, dayIndex) => {
                        const days = (field.value as number[] | undefined) ?? [];
                        const on = days.includes(dayIndex);
                        return (
                          <Button
                            key={day}
                            type="button"
                            size="sm"
                            variant={on ? 'default' : 'outline'}
                            aria-pressed={on}
                            aria-label={DAY_NAMES[dayIndex]}
                            disabled={disabled}
                            onClick={() =>
                              field.onChange(
                                on
                                  ? days.filter((d) => d !== dayIndex)
                                  : [...days, dayIndex].sort((a, b) => a - b),
                              )
                            }
                          >
                            {day}
                          </Button>
                        );
                      })}
                    </div>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <div className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
                {(['startTime', 'endTime'] as const).map((part) => (
                  <InputField
                    key={part}
                    control={control}
                    name={`${name}.${windowIndex}.${part}`}
                    label={part === 'startTime' ? 'From' : 'Until'}
                    labelClassName="text-xs"
                    type="time"
                    step={60}
                    disabled={disabled}
                  />
                ))}
                {disabled ? null : (
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    className="mt-5 size-9"
                    disabled={windows.length === 1}
                    onClick={() => set(windows.filter((_, i) => i !== windowIndex))}
                    aria-label={`Remove window ${windowIndex + 1} of step ${stepIndex + 1}`}
                  >
                    <X aria-hidden="true" />
                  </Button>
                )}
              </div>
              {window.endTime <= window.startTime ? (
                <p className="text-muted-foreground text-xs">
                  An end at or before the start runs into the next day.
                </p>
              ) : null}
            </div>
          ))}
          {disabled ? null : (
            <div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={windows.length >= ACTIVE_WINDOWS_MAX}
                onClick={() => set([...windows, { ...NEW_WINDOW }])}
              >
                <Plus aria-hidden="true" /> Add hours to step {stepIndex + 1}
              </Button>
            </div>
          )}
        </>
      )}
    </fieldset>
  );
}
