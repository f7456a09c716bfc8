import { useFormContext, useWatch } from 'react-hook-form';
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
import { useEligibleUsers } from '../api/get-eligible-users';
import type { RotationFormValues } from '../lib/layer-form';
import { TurnOrderField } from './layer-members-field';

/**
 * RotationMembersFields are a new rotation's members in turn order and, for a fixed rotation, who
 * is on call first (decision 255): that person holds the baton from the moment the rotation
 * exists, so nobody waits for the first handoff. Members can still be added later, one by one.
 */
export function RotationMembersFields({ disabled }: { disabled?: boolean }) {
  const form = useFormContext<RotationFormValues>();
  const eligible = useEligibleUsers({ enabled: true });
  const people = (eligible.data ?? []).map(({ id, name }) => ({ id, name }));
  const type = useWatch({ control: form.control, name: 'type' });
  const memberIds = useWatch({ control: form.control, name: 'memberIds' }) ?? [];
  const nameOf = (id: number) => people.find((p) => p.id === id)?.name ?? `User ${id}`;
  return (
    <div className="grid gap-4">
      <TurnOrderField
        name="memberIds"
        label="Members"
        description={
          type === 'scheduled'
            ? 'The people this rotation schedules. Its entries say who is on call when.'
            : 'In turn order: each handoff passes the baton to the next, round to the first again. You can add members later too.'
        }
        removeLabel={(person) => `Remove ${person} from the members`}
        repeats={false}
        people={people}
        loading={eligible.isPending}
        error={eligible.isError ? 'Failed to fetch eligible users' : null}
        disabled={disabled}
      />
      {type === 'fixed' && memberIds.length > 0 ? (
        <FormField
          control={form.control}
          name="firstOnCallId"
          render={({ field }) => {
            const chosen =
              field.value !== undefined && memberIds.includes(field.value)
                ? field.value
                : memberIds[0];
            return (
              <FormItem>
                <FormLabel>On call first</FormLabel>
                <Select
                  value={String(chosen)}
                  onValueChange={(value) => field.onChange(Number(value))}
                  disabled={disabled}
                >
                  <FormControl>
                    <SelectTrigger onBlur={field.onBlur} ref={field.ref}>
                      <SelectValue />
                    </SelectTrigger>
                  </FormControl>
                  <SelectContent>
                    {memberIds.map((id) => (
                      <SelectItem key={id} value={String(id)}>
                        {nameOf(id)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                <FormDescription className="text-xs">
                  {nameOf(chosen)} holds the baton as soon as the rotation is created, and is told
                  so.
                </FormDescription>
                <FormMessage />
              </FormItem>
            );
          }}
        />
      ) : null}
    </div>
  );
}
