import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';

/**
 * InputField is a labelled one-line text field of a react-hook-form form, wired like
 * components/form-fields.tsx's TextareaField. Local to this feature for now: form-fields.tsx is
 * being reworked elsewhere, and this moves there once that lands.
 */
export function InputField<T extends FieldValues, TTransformed = T>({
  control,
  name,
  label,
  placeholder,
  disabled,
}: {
  control: Control<T, unknown, TTransformed>;
  name: FieldPath<T>;
  label: string;
  placeholder?: string;
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
            <Input
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
