import { zodResolver } from '@hookform/resolvers/zod';
import { type IncidentNoteInput, IncidentNoteInputSchema } from '@shared/contracts/incidents';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { TextareaField } from '@/components/form-fields';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { useIncidentAction } from '../api/act-on-incident';

/** AddNoteForm adds a note to an incident's timeline, signed with the viewer's name. */
export function AddNoteForm({ incidentId }: { incidentId: number }) {
  const act = useIncidentAction(incidentId);
  const form = useForm<IncidentNoteInput, unknown, z.output<typeof IncidentNoteInputSchema>>({
    resolver: zodResolver(IncidentNoteInputSchema),
    defaultValues: { text: '' },
  });
  const pending = act.isPending;
  return (
    <Form {...form}>
      <form
        noValidate
        className="grid gap-3"
        onSubmit={form.handleSubmit((input) =>
          act.mutate({ kind: 'note', input }, { onSuccess: () => form.reset({ text: '' }) }),
        )}
      >
        <TextareaField
          control={form.control}
          name="text"
          label="Add note"
          disabled={pending}
          placeholder="What you found, tried or decided"
        />
        <Button type="submit" size="sm" className="justify-self-end" pending={pending}>
          {pending ? 'Adding...' : 'Add note'}
        </Button>
      </form>
    </Form>
  );
}
