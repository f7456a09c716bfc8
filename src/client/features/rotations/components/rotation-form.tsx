import { zodResolver } from '@hookform/resolvers/zod';
import { CADENCES, ROTATION_TYPES } from '@shared/contracts/rotations';
import { type FieldPath, useForm } from 'react-hook-form';
import { SelectField, TextareaField } from '@/components/form-fields';
import type { Choosable } from '@/components/person-field';
import { TimeZonePicker } from '@/components/time-zone-picker';
import { Button } from '@/components/ui/button';
import {
  Form,
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
import { ApiRequestError } from '@/lib/api-client';
import { guardSubmission } from '@/lib/notify';
import {
  formFieldOf,
  newLayer,
  type RotationFormOutput,
  RotationFormSchema,
  type RotationFormValues,
  SHIFT_PATTERNS,
  type ShiftPatternChoice,
  WEEKDAYS,
} from '../lib/layer-form';
import { LayerEditor } from './layer-editor';
import { RotationMembersFields } from './rotation-members-fields';
import { WeekdaySelect } from './weekday-select';

export type { RotationFormOutput, RotationFormValues };
export { WEEKDAYS };

const TYPE_LABELS = { fixed: 'Fixed', scheduled: 'Scheduled' } as const;
const TYPE_HINTS = {
  fixed: 'Members take turns in a fixed order.',
  scheduled: 'On-call follows a calendar of schedule entries.',
} as const;
const CADENCE_LABELS = { daily: 'Daily', weekly: 'Weekly' } as const;
const PATTERN_LABELS: Record<ShiftPatternChoice, string> = {
  cadence: 'Daily or weekly',
  layers: 'Layers',
};
const PATTERN_HINTS: Record<ShiftPatternChoice, string> = {
  cadence: 'Members take turns in order; the baton changes hands daily or weekly.',
  layers:
    'Shifts of N hours, days or weeks, on-duty hours by weekday, and layers stacked (follow the sun, business hours and after hours).',
};

/** What a form's submit handler may do with the form. */
export interface RotationFormHandle {
  reset: () => void;
  /**
   * showRefusal shows a refused request's field messages beside their fields; false when the
   * refusal named none of the form's fields (the toast says it all).
   */
  showRefusal: (error: unknown) => boolean;
}

/**
 * RotationForm edits a rotation's name (at least 3 characters), description (3 rows), type,
 * cadence, time zone (any IANA zone, from a searchable list), handoff time and, for weekly
 * rotations, handoff weekday; or, with the shift pattern 'Layers' (a fixed rotation only), its
 * layers (decision 248). It validates with the API's own CreateRotationInputSchema, after turning
 * the form into the request, and hands the request to `onSubmit`.
 */
export function RotationForm({
  defaultValues,
  submitLabel,
  pendingLabel,
  pending,
  showType = true,
  showMembers = false,
  knownPeople,
  onSubmit,
  onCancel,
}: {
  defaultValues: RotationFormValues;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** whether the type can be chosen here */
  showType?: boolean;
  /** whether the members and who is on call first are chosen here (a new rotation) */
  showMembers?: boolean;
  /** people the layers may already name (the rotation's members) */
  knownPeople?: readonly Choosable[];
  onSubmit: (request: RotationFormOutput, form: RotationFormHandle) => void;
  onCancel: () => void;
}) {
  const form = useForm<RotationFormValues, unknown, RotationFormOutput>({
    resolver: zodResolver(RotationFormSchema),
    defaultValues,
  });
  const cadence = form.watch('cadence');
  const type = form.watch('type');
  const pattern = form.watch('pattern');
  const layered = pattern === 'layers' && type !== 'scheduled';
  const timeZone = form.watch('timeZone') ?? 'UTC';

  const showRefusal = (error: unknown) => {
    const fields = error instanceof ApiRequestError && error.status === 400 && error.body?.fields;
    if (!fields) return false;
    let shown = false;
    for (const [key, message] of Object.entries(fields)) {
      const name = formFieldOf(key);
      if (!name) continue;
      form.setError(name as FieldPath<RotationFormValues>, { type: 'server', message });
      shown = true;
    }
    return shown;
  };

  const choosePattern = (next: ShiftPatternChoice) => {
    // The first time layers are chosen, one layer starts with the rotation's cadence and handoff.
    if (next === 'layers' && form.getValues('layers').length === 0) {
      form.setValue('layers', [
        newLayer(1, {
          cadence: form.getValues('cadence') ?? 'weekly',
          cadenceEvery: 1,
          handoffTime: form.getValues('handoffTime') ?? '09:00',
          handoffWeekday: form.getValues('handoffWeekday') ?? 1,
        }),
      ]);
    }
  };

  return (
    <Form {...form}>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={form.handleSubmit((values) =>
          guardSubmission(() => onSubmit(values, { reset: () => form.reset(), showRefusal })),
        )}
      >
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Name</FormLabel>
              <FormControl>
                <Input placeholder="e.g. Platform Primary" disabled={pending} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <TextareaField
          control={form.control}
          name="description"
          label="Description"
          disabled={pending}
          placeholder="What this rotation covers (optional)"
        />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          {showType ? (
            <SelectField
              control={form.control}
              name="type"
              label="Type"
              options={ROTATION_TYPES}
              optionLabel={(type) => TYPE_LABELS[type]}
              description={(value) => TYPE_HINTS[value ?? 'fixed']}
              disabled={pending}
            />
          ) : null}
          {type !== 'scheduled' ? (
            <FormField
              control={form.control}
              name="pattern"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>Shift pattern</FormLabel>
                  <Select
                    value={field.value}
                    onValueChange={(value) => {
                      choosePattern(value as ShiftPatternChoice);
                      field.onChange(value);
                    }}
                    disabled={pending}
                  >
                    <FormControl>
                      <SelectTrigger>
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {SHIFT_PATTERNS.map((option) => (
                        <SelectItem key={option} value={option}>
                          {PATTERN_LABELS[option]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormDescription className="text-xs">
                    {PATTERN_HINTS[field.value]}
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
          ) : null}
          {layered ? null : (
            <SelectField
              control={form.control}
              name="cadence"
              label="Cadence"
              options={CADENCES}
              optionLabel={(option) => CADENCE_LABELS[option]}
              description={() => 'How often the baton changes hands.'}
              disabled={pending}
            />
          )}
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField
            control={form.control}
            name="timeZone"
            render={({ field }) => (
              <FormItem className="sm:col-span-3">
                <FormLabel>Time zone</FormLabel>
                <FormControl>
                  <TimeZonePicker
                    value={field.value}
                    onChange={field.onChange}
                    disabled={pending}
                  />
                </FormControl>
                <FormDescription className="text-xs">
                  Handoffs happen at this zone's wall-clock time, across daylight saving changes.
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          {layered ? null : (
            <>
              <FormField
                control={form.control}
                name="handoffTime"
                render={({ field }) => (
                  <FormItem className={cadence === 'weekly' ? '' : 'sm:col-span-3'}>
                    <FormLabel>Handoff time</FormLabel>
                    <FormControl>
                      <Input type="time" step={60} disabled={pending} {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              {cadence === 'weekly' ? (
                <FormField
                  control={form.control}
                  name="handoffWeekday"
                  render={({ field }) => (
                    <FormItem className="sm:col-span-2">
                      <FormLabel>Handoff day</FormLabel>
                      <WeekdaySelect
                        value={field.value}
                        onChange={field.onChange}
                        disabled={pending}
                      />
                      <FormMessage />
                    </FormItem>
                  )}
                />
              ) : null}
            </>
          )}
        </div>
        {layered ? (
          <LayerEditor timeZone={timeZone} knownPeople={knownPeople} disabled={pending} />
        ) : showMembers ? (
          <RotationMembersFields disabled={pending} />
        ) : null}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" disabled={pending} onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" pending={pending}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </div>
      </form>
    </Form>
  );
}
