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
import { Skeleton } from '@/components/ui/skeleton';

/**
 * PersonField is a labelled select of people by name in a react-hook-form form. While the people
 * load (`loading`) it shows a placeholder of its size; when they failed to load it shows `error`
 * as an alert instead of the select.
 */
export function PersonField<TValues extends FieldValues, TTransformed = TValues>({
  control,
  name,
  label,
  people,
  disabled,
  placeholder = 'Select team member',
  emptyText,
  loading,
  error,
}: {
  control: Control<TValues, unknown, TTransformed>;
  name: FieldPath<TValues>;
  label: string;
  people: readonly Person[];
  disabled?: boolean;
  placeholder?: string;
  /** shown under the select when there is nobody to choose */
  emptyText?: string;
  /** the people are still loading */
  loading?: boolean;
  /** the people failed to load: this sentence is shown instead of the select */
  error?: string | null;
}) {
  if (loading) {
    return (
      <div className="grid gap-2">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-9 w-full" />
      </div>
    );
  }
  if (error) {
    return (
      <p role="alert" className="text-destructive text-sm">
        {error}
      </p>
    );
  }
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
