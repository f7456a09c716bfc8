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

/** Who may be chosen: a person's id and name (a rotation's member, a user). */
export interface Choosable {
  id: number;
  name: string;
}

/**
 * PersonField is a labelled select of people by name in a react-hook-form form: the choice of a
 * person (to pass the baton to, to cover, to hand an incident to). The field holds the chosen
 * person's id as a string (the form's own schema turns it into a number), or, when `numeric`, as
 * the number the contract's schema wants. While the people load (`loading`) it shows a
 * placeholder of its size; when they failed to load it shows `error` as an alert instead of the
 * select. `emptyText` shows under the select when there is nobody to choose, `description`
 * whatever the list.
 */
export function PersonField<TValues extends FieldValues, TTransformed = TValues>({
  control,
  name,
  label,
  people,
  optionLabel = (person) => person.name,
  numeric = false,
  disabled,
  placeholder = 'Select team member',
  emptyText,
  description,
  loading,
  error,
}: {
  control: Control<TValues, unknown, TTransformed>;
  name: FieldPath<TValues>;
  label: string;
  people: readonly Choosable[];
  /** what an option says (default: the person's name) */
  optionLabel?: (person: Choosable) => string;
  /** the field holds the id as a number rather than a string */
  numeric?: boolean;
  disabled?: boolean;
  placeholder?: string;
  /** shown under the select when there is nobody to choose */
  emptyText?: string;
  /** shown under the select whoever is listed */
  description?: string;
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
  const hint = people.length === 0 && emptyText ? emptyText : description;
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <Select
            value={field.value == null ? '' : String(field.value)}
            onValueChange={(value) => field.onChange(numeric ? Number(value) : value)}
            disabled={disabled}
          >
            <FormControl>
              <SelectTrigger onBlur={field.onBlur} ref={field.ref}>
                <SelectValue placeholder={placeholder} />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {people.map((person) => (
                <SelectItem key={person.id} value={String(person.id)}>
                  {optionLabel(person)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {hint ? <FormDescription>{hint}</FormDescription> : null}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
