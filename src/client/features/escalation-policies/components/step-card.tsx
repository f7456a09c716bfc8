import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  ESCALATION_TARGET_TYPES,
  type EscalationPolicyInput,
  type EscalationPolicyValue,
  STEP_ASSIGNMENTS,
  TARGETS_MAX,
} from '@shared/contracts/escalation-policies';
import type { Rotation } from '@shared/contracts/rotations';
import type { User } from '@shared/contracts/users';
import { ArrowDown, ArrowUp, GripVertical, Plus, Trash2, X } from 'lucide-react';
import { type Control, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { InputField, SelectField } from '@/components/form-fields';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { cn } from '@/lib/utils';
import { ASSIGNMENT_LABELS, TARGET_TYPE_LABELS } from '../lib/policy-text';
import { ActiveHoursField } from './active-hours-field';

export type PolicyControl = Control<EscalationPolicyInput, unknown, EscalationPolicyValue>;

/**
 * StepCard edits one step: its targets (a type, then the rotation or person it names), the delay
 * before the next step, how it notifies (everyone or round robin) and its optional active hours.
 * Its grip reorders it by drag; the move buttons do the same from the keyboard.
 */
export function StepCard({
  sortableId,
  control,
  index,
  count,
  rotations,
  people,
  disabled,
  onMove,
  onRemove,
}: {
  sortableId: string;
  control: PolicyControl;
  index: number;
  count: number;
  rotations: readonly Pick<Rotation, 'id' | 'name'>[];
  people: readonly Pick<User, 'id' | 'name'>[];
  disabled: boolean;
  onMove: (from: number, to: number) => void;
  onRemove: () => void;
}) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id: sortableId, disabled });
  const targets = useFieldArray({ control, name: `steps.${index}.targets` });
  const number = index + 1;

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn('relative min-w-0 list-none', isDragging && 'z-10')}
    >
      <Card
        className={cn('gap-4', isDragging && 'shadow-lg')}
        role="group"
        aria-labelledby={`${sortableId}-title`}
      >
        <CardHeader className="flex items-center gap-2">
          {disabled ? null : (
            <button
              type="button"
              ref={setActivatorNodeRef}
              {...attributes}
              {...listeners}
              aria-label={`Drag to reorder step ${number}`}
              className="flex size-7 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
            >
              <GripVertical className="size-4" aria-hidden="true" />
            </button>
          )}
          <CardTitle asChild>
            <h3 id={`${sortableId}-title`}>Step {number}</h3>
          </CardTitle>
          {disabled ? null : (
            <CardAction className="flex items-center gap-0.5">
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-8"
                disabled={index === 0}
                onClick={() => onMove(index, index - 1)}
                aria-label={`Move step ${number} up`}
              >
                <ArrowUp aria-hidden="true" />
              </Button>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-8"
                disabled={index === count - 1}
                onClick={() => onMove(index, index + 1)}
                aria-label={`Move step ${number} down`}
              >
                <ArrowDown aria-hidden="true" />
              </Button>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-8"
                disabled={count === 1}
                onClick={onRemove}
                aria-label={`Remove step ${number}`}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </CardAction>
          )}
        </CardHeader>
        <CardContent className="grid gap-4">
          <fieldset className="grid gap-3">
            <legend className="mb-2 font-medium text-sm">Notify</legend>
            {targets.fields.map((target, targetIndex) => (
              <TargetRow
                key={target.id}
                control={control}
                stepIndex={index}
                targetIndex={targetIndex}
                rotations={rotations}
                people={people}
                disabled={disabled}
                canRemove={targets.fields.length > 1}
                onRemove={() => targets.remove(targetIndex)}
              />
            ))}
            <FormField
              control={control}
              name={`steps.${index}.targets`}
              render={() => (
                <FormItem>
                  <FormMessage />
                </FormItem>
              )}
            />
            {disabled ? null : (
              <div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={targets.fields.length >= TARGETS_MAX}
                  onClick={() =>
                    targets.append({ type: 'rotation-holder', id: rotations[0]?.id ?? 0 })
                  }
                >
                  <Plus aria-hidden="true" /> Add target to step {number}
                </Button>
              </div>
            )}
          </fieldset>
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-2">
            <InputField
              control={control}
              name={`steps.${index}.delayMinutes`}
              label="Minutes before the next step"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              disabled={disabled}
            />
            <SelectField
              control={control}
              name={`steps.${index}.assignment`}
              label="How it notifies"
              options={STEP_ASSIGNMENTS}
              optionLabel={(assignment) => ASSIGNMENT_LABELS[assignment]}
              disabled={disabled}
            />
          </div>
          <ActiveHoursField control={control} stepIndex={index} disabled={disabled} />
        </CardContent>
      </Card>
    </li>
  );
}

function TargetRow({
  control,
  stepIndex,
  targetIndex,
  rotations,
  people,
  disabled,
  canRemove,
  onRemove,
}: {
  control: PolicyControl;
  stepIndex: number;
  targetIndex: number;
  rotations: readonly Pick<Rotation, 'id' | 'name'>[];
  people: readonly Pick<User, 'id' | 'name'>[];
  disabled: boolean;
  canRemove: boolean;
  onRemove: () => void;
}) {
  const type = useWatch({ control, name: `steps.${stepIndex}.targets.${targetIndex}.type` });
  const { setValue } = useFormContext<EscalationPolicyInput>();
  const choices = type === 'user' ? people : rotations;
  const label = `target ${targetIndex + 1} of step ${stepIndex + 1}`;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-2 rounded-md border p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]">
      <FormField
        control={control}
        name={`steps.${stepIndex}.targets.${targetIndex}.type`}
        render={({ field }) => (
          <FormItem>
            <FormLabel className="text-xs">Whom</FormLabel>
            <Select
              value={field.value}
              onValueChange={(next) => {
                // A person's id means nothing as a rotation's, and the other way round.
                if ((next === 'user') !== (field.value === 'user')) {
                  setValue(`steps.${stepIndex}.targets.${targetIndex}.id`, 0);
                }
                field.onChange(next);
              }}
              disabled={disabled}
            >
              <FormControl>
                <SelectTrigger className="w-full">
                  <SelectValue placeholder="Choose whom" />
                </SelectTrigger>
              </FormControl>
              <SelectContent>
                {ESCALATION_TARGET_TYPES.map((option) => (
                  <SelectItem key={option} value={option}>
                    {TARGET_TYPE_LABELS[option]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        control={control}
        name={`steps.${stepIndex}.targets.${targetIndex}.id`}
        render={({ field }) => {
          const known = choices.some((choice) => choice.id === field.value);
          return (
            <FormItem>
              <FormLabel className="text-xs">{type === 'user' ? 'Person' : 'Rotation'}</FormLabel>
              <Select
                value={known ? String(field.value) : ''}
                onValueChange={(value) => field.onChange(Number(value))}
                disabled={disabled}
              >
                <FormControl>
                  <SelectTrigger className="w-full">
                    <SelectValue
                      placeholder={
                        field.value && !known
                          ? `#${field.value} (no longer exists)`
                          : type === 'user'
                            ? 'Choose a person'
                            : 'Choose a rotation'
                      }
                    />
                  </SelectTrigger>
                </FormControl>
                <SelectContent>
                  {choices.map((choice) => (
                    <SelectItem key={choice.id} value={String(choice.id)}>
                      {choice.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <FormMessage />
            </FormItem>
          );
        }}
      />
      {disabled ? null : (
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="mt-5 size-9"
          disabled={!canRemove}
          onClick={onRemove}
          aria-label={`Remove ${label}`}
        >
          <X aria-hidden="true" />
        </Button>
      )}
    </div>
  );
}
