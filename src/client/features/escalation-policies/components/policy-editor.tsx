import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  type EscalationPolicy,
  type EscalationPolicyInput,
  EscalationPolicyInputSchema,
  type EscalationPolicyValue,
  type EscalationPreview,
  REPEAT_MAX,
  STEPS_MAX,
} from '@shared/contracts/escalation-policies';
import type { Rotation } from '@shared/contracts/rotations';
import type { User } from '@shared/contracts/users';
import { can } from '@shared/domain/permissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useEffect } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { InputField } from '@/components/form-fields';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Form, FormField, FormItem, FormMessage } from '@/components/ui/form';
import { guardSubmission } from '@/lib/notify';
import { useAuth } from '@/lib/use-auth';
import { useSavePolicy } from '../api/policies';
import { PolicyPreview } from './policy-preview';
import { StepCard } from './step-card';

/** The first step of a new policy: the holder of the first rotation, then 15 minutes. */
function newPolicy(rotationId: number): EscalationPolicyInput {
  return {
    name: '',
    repeat: 0,
    steps: [
      {
        delayMinutes: 15,
        targets: [{ type: 'rotation-holder', id: rotationId }],
        assignment: 'everyone',
        activeHours: null,
      },
    ],
  };
}

function formValues(policy: EscalationPolicy): EscalationPolicyInput {
  return { name: policy.name, repeat: policy.repeat, steps: policy.steps };
}

/**
 * PolicyEditor edits a policy (or a new one, `policy` null): its name, its steps as cards
 * (reordered by drag or by the move buttons), its repeat count; beside it, for a saved policy,
 * the live preview. It validates with the API's own schema; errors are words next to the field.
 */
export function PolicyEditor({ policy }: { policy: EscalationPolicy | null }) {
  const { roles } = useAuth();
  const navigate = useNavigate();
  const editable = can(roles, 'escalationPolicy.edit');
  const rotations = useQuery(queryOptions<Rotation[]>({ queryKey: ['/api/rotations'] }));
  const people = useQuery(queryOptions<User[]>({ queryKey: ['/api/users'] }));
  const rotationList = rotations.data ?? [];
  const peopleList = people.data ?? [];
  const save = useSavePolicy(policy?.id ?? null);

  const form = useForm<EscalationPolicyInput, unknown, EscalationPolicyValue>({
    resolver: zodResolver(EscalationPolicyInputSchema),
    defaultValues: policy ? formValues(policy) : newPolicy(0),
  });
  const steps = useFieldArray({ control: form.control, name: 'steps' });
  // A new policy's first target names the first rotation once the rotations are read.
  const firstRotation = rotationList[0]?.id;
  useEffect(() => {
    if (
      policy === null &&
      firstRotation !== undefined &&
      form.getValues('steps.0.targets.0.id') === 0
    ) {
      form.setValue('steps.0.targets.0.id', firstRotation);
    }
  }, [policy, firstRotation, form]);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = steps.fields.findIndex((f) => f.id === active.id);
    const to = steps.fields.findIndex((f) => f.id === over.id);
    if (from >= 0 && to >= 0) steps.move(from, to);
  };
  const positionOf = (id: string | number) => steps.fields.findIndex((f) => f.id === id) + 1;

  const nameOf = ({ type, id }: EscalationPreview['steps'][number]['skipped'][number]['target']) =>
    (type === 'user' ? peopleList : rotationList).find((x) => x.id === id)?.name ?? `#${id}`;

  const onSubmit = (values: EscalationPolicyValue) =>
    save.mutate(values, {
      onSuccess: (saved) => {
        form.reset(formValues(saved));
        if (policy === null) navigate(`/escalation-policies/${saved.id}`, { replace: true });
      },
    });

  const pending = save.isPending;
  const disabled = !editable || pending;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] xl:items-start">
      <Form {...form}>
        <form
          noValidate
          aria-label={policy ? `Edit ${policy.name}` : 'New escalation policy'}
          className="grid min-w-0 gap-5"
          onSubmit={form.handleSubmit((values) => guardSubmission(() => onSubmit(values)))}
        >
          <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-4 sm:grid-cols-[minmax(0,1fr)_12rem]">
            <InputField
              control={form.control}
              name="name"
              label="Policy name"
              placeholder="e.g. Platform escalation"
              disabled={disabled}
            />
            <InputField
              control={form.control}
              name="repeat"
              label="Repeat"
              type="number"
              inputMode="numeric"
              min={0}
              max={REPEAT_MAX}
              step={1}
              disabled={disabled}
              description={`Times the whole policy runs again after its last step (0–${REPEAT_MAX}).`}
            />
          </div>
          <section aria-labelledby="policy-steps-title" className="grid gap-3">
            <h2 id="policy-steps-title" className="font-semibold text-lg">
              Steps
            </h2>
            {editable ? (
              <p className="text-muted-foreground text-sm">
                Drag a step by its grip, or use its move buttons, to change the order.
              </p>
            ) : null}
            <DndContext
              sensors={sensors}
              collisionDetection={closestCenter}
              onDragEnd={onDragEnd}
              accessibility={{
                announcements: {
                  onDragStart: ({ active }) => `Picked up step ${positionOf(active.id)}.`,
                  onDragOver: ({ over }) =>
                    over
                      ? `Over position ${positionOf(over.id)} of ${steps.fields.length}.`
                      : 'Not over a position.',
                  onDragEnd: ({ over }) =>
                    over ? `Dropped at position ${positionOf(over.id)}.` : 'Dropped.',
                  onDragCancel: () => 'Reordering cancelled.',
                },
                screenReaderInstructions: {
                  draggable:
                    'To reorder, press Space or Enter to pick up the step, use the up and down arrow keys to move, then press Space or Enter to drop, or Escape to cancel.',
                },
              }}
            >
              <SortableContext
                items={steps.fields.map((f) => f.id)}
                strategy={verticalListSortingStrategy}
              >
                <ol className="grid gap-4">
                  {steps.fields.map((step, index) => (
                    <StepCard
                      key={step.id}
                      sortableId={step.id}
                      control={form.control}
                      index={index}
                      count={steps.fields.length}
                      rotations={rotationList}
                      people={peopleList}
                      disabled={disabled}
                      onMove={(from, to) => steps.move(from, to)}
                      onRemove={() => steps.remove(index)}
                    />
                  ))}
                </ol>
              </SortableContext>
            </DndContext>
            <FormField
              control={form.control}
              name="steps"
              render={() => (
                <FormItem>
                  <FormMessage />
                </FormItem>
              )}
            />
            {editable ? (
              <div>
                <Button
                  type="button"
                  variant="outline"
                  disabled={disabled || steps.fields.length >= STEPS_MAX}
                  onClick={() =>
                    steps.append({
                      delayMinutes: 15,
                      targets: [{ type: 'rotation-holder', id: firstRotation ?? 0 }],
                      assignment: 'everyone',
                      activeHours: null,
                    })
                  }
                >
                  <Plus aria-hidden="true" /> Add step
                </Button>
              </div>
            ) : null}
          </section>
          {editable ? (
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="outline" disabled={pending} asChild>
                <Link to="/escalation-policies">Cancel</Link>
              </Button>
              <Button type="submit" pending={pending}>
                {pending ? 'Saving...' : policy ? 'Save policy' : 'Create policy'}
              </Button>
            </div>
          ) : null}
        </form>
      </Form>
      <div className="grid gap-4 xl:sticky xl:top-4">
        <Alert tone="info">
          <AlertTitle>Changes apply to new incidents</AlertTitle>
          <AlertDescription>
            An incident keeps a copy of the policy as it was when it was raised, so incidents
            already climbing go on as they started.
          </AlertDescription>
        </Alert>
        {policy ? (
          <PolicyPreview policyId={policy.id} nameOf={nameOf} />
        ) : (
          <p className="text-muted-foreground text-sm">
            Save the policy to preview whom each step would notify now.
          </p>
        )}
      </div>
    </div>
  );
}
