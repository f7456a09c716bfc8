import { ArrowDown, ArrowUp, X } from 'lucide-react';
import { useFormContext } from 'react-hook-form';
import type { Choosable } from '@/components/person-field';
import { Button } from '@/components/ui/button';
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
import { moved, type RotationFormValues } from '../lib/layer-form';

/**
 * TurnOrderField is a list of people in turn order: each with buttons to move them up or down or
 * take them out, and a select adding one of the people who may hold the baton at the end. A
 * layer's list may name a person more than once (`repeats`); a rotation's members only once.
 */
export function TurnOrderField({
  name,
  label,
  description,
  removeLabel,
  repeats,
  people,
  loading,
  error,
  disabled,
}: {
  name: 'memberIds' | `layers.${number}.memberIds`;
  label: string;
  description: string;
  /** the remove button's name for a person: "Remove Noah from the layer" */
  removeLabel: (person: string) => string;
  repeats: boolean;
  people: readonly Choosable[];
  loading: boolean;
  error: string | null;
  disabled?: boolean;
}) {
  const form = useFormContext<RotationFormValues>();
  const nameOf = (id: number) => people.find((p) => p.id === id)?.name ?? `User ${id}`;
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => {
        const ids = field.value ?? [];
        const addable = repeats ? people : people.filter((p) => !ids.includes(p.id));
        const set = (next: number[]) => field.onChange(next);
        return (
          <FormItem>
            <FormLabel>{label}</FormLabel>
            {ids.length > 0 ? (
              <ol className="grid gap-1" aria-label="Turn order">
                {ids.map((id, at) => (
                  <li
                    // A person may hold several turns: the place tells them apart.
                    // biome-ignore lint/suspicious/noArrayIndexKey: the turn's place is its identity
                    key={`${at}-${id}`}
                    className="flex items-center gap-2 rounded-md border bg-muted/40 px-2 py-1 text-sm"
                  >
                    <span className="w-5 shrink-0 text-right text-muted-foreground tabular-nums">
                      {at + 1}.
                    </span>
                    <span className="min-w-0 flex-1 truncate">{nameOf(id)}</span>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      aria-label={`Move ${nameOf(id)} earlier`}
                      disabled={disabled || at === 0}
                      onClick={() => set(moved(ids, at, at - 1))}
                    >
                      <ArrowUp aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      aria-label={`Move ${nameOf(id)} later`}
                      disabled={disabled || at === ids.length - 1}
                      onClick={() => set(moved(ids, at, at + 1))}
                    >
                      <ArrowDown aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      aria-label={removeLabel(nameOf(id))}
                      disabled={disabled}
                      onClick={() => set(ids.filter((_, i) => i !== at))}
                    >
                      <X aria-hidden="true" />
                    </Button>
                  </li>
                ))}
              </ol>
            ) : null}
            {loading ? (
              <Skeleton className="h-9 w-full" />
            ) : error ? (
              <p role="alert" className="text-destructive text-sm">
                {error}
              </p>
            ) : (
              <Select
                value=""
                onValueChange={(value) => set([...ids, Number(value)])}
                disabled={disabled || addable.length === 0}
              >
                <FormControl>
                  <SelectTrigger aria-label="Add a member" onBlur={field.onBlur} ref={field.ref}>
                    <SelectValue placeholder="Add a member" />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  {addable.map((person) => (
                    <SelectItem key={person.id} value={String(person.id)}>
                      {person.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
            <FormDescription className="text-xs">{description}</FormDescription>
            <FormMessage />
          </FormItem>
        );
      }}
    />
  );
}

/** LayerMembersField is a layer's members in turn order (a person may take more than one turn). */
export function LayerMembersField({
  index,
  ...rest
}: {
  index: number;
  people: readonly Choosable[];
  loading: boolean;
  error: string | null;
  disabled?: boolean;
}) {
  return (
    <TurnOrderField
      name={`layers.${index}.memberIds`}
      label="Members in turn order"
      description="The first person holds the layer's first turn; each handoff passes it to the next, round to the first again. On-call members and managers may hold the baton."
      removeLabel={(person) => `Remove ${person} from the layer`}
      repeats
      {...rest}
    />
  );
}
