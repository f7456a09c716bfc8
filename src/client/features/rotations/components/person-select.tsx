import type { Person } from '@shared/contracts/rotations';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import {
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

/** PersonField is a labelled select of people by name in a react-hook-form form. */
export function PersonField<TValues extends FieldValues, TTransformed = TValues>({
  control,
  name,
  label,
  people,
  disabled,
  placeholder = 'Select team member',
  emptyText,
}: {
  control: Control<TValues, unknown, TTransformed>;
  name: FieldPath<TValues>;
  label: string;
  people: readonly Person[];
  disabled?: boolean;
  placeholder?: string;
  /** shown under the select when there is nobody to choose */
  emptyText?: string;
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
              <SelectTrigger onBlur={field.onBlur} ref={field.ref}>
                <SelectValue placeholder={placeholder} />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {people.map((p) => (
                <SelectItem key={p.id} value={String(p.id)}>
                  {p.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {people.length === 0 && emptyText ? <FormDescription>{emptyText}</FormDescription> : null}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
