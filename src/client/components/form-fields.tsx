import type { ComponentProps, ReactNode } from 'react';
import {
  type Control,
  type FieldPath,
  type FieldValues,
  useFormState,
  useWatch,
} from 'react-hook-form';
import { useCloseFormDialog } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
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
import { Textarea } from '@/components/ui/textarea';

/**
 * InputField is a labelled one-line field of a react-hook-form form, wired like TextareaField:
 * the label, the control tied to its description and error line by `aria-describedby` (and
 * `aria-invalid` while it is wrong), the description, then the error in words. A `number` field
 * holds a number (an empty box is NaN, so the schema's own message shows); any other type holds
 * a string, and an empty optional value shows as an empty box.
 */
export function InputField<T extends FieldValues, TTransformed = T>({
  control,
  name,
  label,
  labelClassName,
  description,
  type,
  placeholder,
  autoComplete,
  inputMode,
  min,
  max,
  step,
  disabled,
}: {
  control: Control<T, unknown, TTransformed>;
  name: FieldPath<T>;
  label: string;
  labelClassName?: string;
  description?: ReactNode;
  type?: 'text' | 'email' | 'password' | 'tel' | 'number' | 'time' | 'datetime-local' | 'url';
  placeholder?: string;
  autoComplete?: string;
  inputMode?: ComponentProps<'input'>['inputMode'];
  min?: number | string;
  max?: number | string;
  step?: number;
  disabled?: boolean;
}) {
  const props = { type, placeholder, autoComplete, inputMode, min, max, step, disabled };
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel className={labelClassName}>{label}</FormLabel>
          <FormControl>
            {type === 'number' ? (
              <Input
                {...props}
                name={field.name}
                ref={field.ref}
                onBlur={field.onBlur}
                value={Number.isNaN(field.value) ? '' : field.value}
                onChange={(event) => field.onChange(event.target.valueAsNumber)}
              />
            ) : (
              <Input
                {...props}
                {...field}
                value={(field.value as string | null | undefined) ?? ''}
              />
            )}
          </FormControl>
          {description ? (
            <FormDescription className="text-xs">{description}</FormDescription>
          ) : null}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/**
 * TextareaField is a labelled multi-line field of a react-hook-form form: the label, the control
 * tied to its error line by `aria-describedby`, and the error in words under it (FormField does
 * the wiring). An empty optional value shows as an empty box.
 */
export function TextareaField<T extends FieldValues, TTransformed = T>({
  control,
  name,
  label,
  placeholder,
  rows = 3,
  disabled,
}: {
  control: Control<T, unknown, TTransformed>;
  name: FieldPath<T>;
  label: string;
  placeholder?: string;
  rows?: number;
  disabled?: boolean;
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Textarea
              rows={rows}
              disabled={disabled}
              placeholder={placeholder}
              {...field}
              value={(field.value as string | null | undefined) ?? ''}
            />
          </FormControl>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/**
 * SelectField is a labelled choice among fixed options of a react-hook-form form, wired like
 * TextareaField; `description` may depend on the chosen value (a hint for each choice).
 */
export function SelectField<T extends FieldValues, O extends string, TTransformed = T>({
  control,
  name,
  label,
  options,
  optionLabel,
  placeholder,
  description,
  disabled,
}: {
  control: Control<T, unknown, TTransformed>;
  name: FieldPath<T>;
  label: string;
  options: readonly O[];
  optionLabel: (option: O) => string;
  placeholder?: string;
  description?: (value: O | undefined) => ReactNode;
  disabled?: boolean;
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <Select value={field.value} onValueChange={field.onChange} disabled={disabled}>
            <FormControl>
              <SelectTrigger>
                <SelectValue placeholder={placeholder} />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {options.map((option) => (
                <SelectItem key={option} value={option}>
                  {optionLabel(option)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {description ? (
            <FormDescription className="text-xs">{description(field.value)}</FormDescription>
          ) : null}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/**
 * FormError is the error of the form as a whole (`errors.root`, set from a failed request), as an
 * alert over the fields; nothing while there is none. It reads the form of the `Form` around it.
 */
export function FormError() {
  const { errors } = useFormState();
  const message = errors.root?.message;
  return message ? (
    <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-destructive text-sm">
      {message}
    </p>
  ) : null;
}

/** The fields of a time window: its start and end, local date-times in the viewer's zone. */
type TimeWindowValues = { startTime: string; endTime: string };

/**
 * TimeWindowFields are a window's 'Start time' and 'End time' side by side (`datetime-local`, in
 * the viewer's time zone) of a form whose fields are `startTime` and `endTime`. `earliest` (now,
 * as a local input value) is the least the browser's picker offers for the end, or for the start
 * once chosen; the start too unless `startMayBePast` (time off already under way).
 */
export function TimeWindowFields<T extends TimeWindowValues, TTransformed = T>({
  control,
  earliest,
  startMayBePast = false,
  disabled,
}: {
  control: Control<T, unknown, TTransformed>;
  earliest: string;
  startMayBePast?: boolean;
  disabled?: boolean;
}) {
  const startName = 'startTime' as FieldPath<T>;
  const startTime = useWatch({ control, name: startName }) as string | undefined;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <InputField
        control={control}
        name={startName}
        label="Start time"
        type="datetime-local"
        min={startMayBePast ? undefined : earliest}
        disabled={disabled}
      />
      <InputField
        control={control}
        name={'endTime' as FieldPath<T>}
        label="End time"
        type="datetime-local"
        min={startTime || earliest}
        disabled={disabled}
      />
    </div>
  );
}

/**
 * DialogFormFooter ends a dialog's form: Cancel, then the submit button, which says what it is
 * doing while the request runs (for example 'Sending...'). Inside a FormDialog, Cancel closes it
 * (and resets the form) unless `onCancel` says otherwise.
 */
export function DialogFormFooter({
  pending,
  onCancel,
  submitLabel,
  pendingLabel,
  submitDisabled,
}: {
  pending: boolean;
  onCancel?: () => void;
  submitLabel: string;
  pendingLabel: string;
  submitDisabled?: boolean;
}) {
  const closeDialog = useCloseFormDialog();
  return (
    <DialogFooter>
      <Button type="button" variant="outline" disabled={pending} onClick={onCancel ?? closeDialog}>
        Cancel
      </Button>
      <Button type="submit" pending={pending} disabled={submitDisabled}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </DialogFooter>
  );
}
