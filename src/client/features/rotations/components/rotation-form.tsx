import { zodResolver } from '@hookform/resolvers/zod';
import {
  CADENCES,
  type CreateRotationInput,
  CreateRotationInputSchema,
  ROTATION_TYPES,
} from '@shared/contracts/rotations';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SelectField, TextareaField } from '@/components/form-fields';
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
import { guardSubmission } from '@/lib/notify';

export type RotationFormValues = CreateRotationInput;
export type RotationFormOutput = z.output<typeof CreateRotationInputSchema>;

const TYPE_LABELS = { fixed: 'Fixed', scheduled: 'Scheduled' } as const;
const TYPE_HINTS = {
  fixed: 'Members take turns in a fixed order.',
  scheduled: 'On-call follows a calendar of schedule entries.',
} as const;
const CADENCE_LABELS = { daily: 'Daily', weekly: 'Weekly' } as const;
export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/**
 * RotationForm edits a rotation's name (at least 3 characters), description (3 rows), type,
 * cadence, time zone (any IANA zone, from a searchable list), handoff time and, for weekly
 * rotations, handoff weekday. It validates with the API's own CreateRotationInputSchema.
 */
export function RotationForm({
  defaultValues,
  submitLabel,
  pendingLabel,
  pending,
  showType = true,
  onSubmit,
  onCancel,
}: {
  defaultValues: RotationFormValues;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** whether the type can be chosen here */
  showType?: boolean;
  onSubmit: (values: RotationFormOutput, form: { reset: () => void }) => void;
  onCancel: () => void;
}) {
  const form = useForm<RotationFormValues, unknown, RotationFormOutput>({
    resolver: zodResolver(CreateRotationInputSchema),
    defaultValues,
  });
  const cadence = form.watch('cadence');

  return (
    <Form {...form}>
      <form
        noValidate
        className="grid gap-4"
        onSubmit={form.handleSubmit((values) =>
          guardSubmission(() => onSubmit(values, { reset: () => form.reset() })),
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
        <div className="grid gap-4 sm:grid-cols-2">
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
          <SelectField
            control={form.control}
            name="cadence"
            label="Cadence"
            options={CADENCES}
            optionLabel={(option) => CADENCE_LABELS[option]}
            description={() => 'How often the baton changes hands.'}
            disabled={pending}
          />
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
                  <Select
                    value={field.value === undefined ? '' : String(field.value)}
                    onValueChange={(v) => field.onChange(Number(v))}
                    disabled={pending}
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
                  <FormMessage />
                </FormItem>
              )}
            />
          ) : null}
        </div>
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
