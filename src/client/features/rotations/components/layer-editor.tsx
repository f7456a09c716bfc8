import { LAYERS_MAX } from '@shared/contracts/rotations';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import type { Choosable } from '@/components/person-field';
import { Button } from '@/components/ui/button';
import { useEligibleUsers } from '../api/get-eligible-users';
import { newLayer, previewPattern, type RotationFormValues } from '../lib/layer-form';
import { LayerFields } from './layer-fields';

/**
 * LayerEditor builds a rotation's layers: each layer's fields in a box of its own, buttons to
 * add, remove and reorder layers, and the pattern in words as it is typed. People come from the
 * users who may hold the baton (on-call and manager roles), with `knownPeople` (the rotation's
 * members) naming anyone no longer listed there.
 */
export function LayerEditor({
  timeZone,
  knownPeople = [],
  disabled,
}: {
  timeZone: string;
  knownPeople?: readonly Choosable[];
  disabled?: boolean;
}) {
  const form = useFormContext<RotationFormValues>();
  const layers = useFieldArray({ control: form.control, name: 'layers' });
  const values = useWatch({ control: form.control, name: 'layers' }) ?? [];
  const eligible = useEligibleUsers({ enabled: true });
  const listed = (eligible.data ?? []).map(({ id, name }) => ({ id, name }));
  const people = [...listed, ...knownPeople.filter((k) => !listed.some((p) => p.id === k.id))];
  const preview = previewPattern(values);
  const layersError = form.getFieldState('layers', form.formState).error;
  const layersMessage = layersError?.message ?? layersError?.root?.message;

  const addLayer = () => {
    const last = values.at(-1);
    const like = last ?? {
      cadence: form.getValues('cadence') ?? 'weekly',
      cadenceEvery: 1,
      handoffTime: form.getValues('handoffTime') ?? '09:00',
      handoffWeekday: form.getValues('handoffWeekday') ?? 1,
    };
    layers.append(newLayer(layers.fields.length + 1, like));
  };

  return (
    <section aria-label="Layers" className="grid gap-4">
      <p className="text-muted-foreground text-sm">
        Each layer has its own people taking turns, shift length and on-duty hours. Where layers
        overlap, the last layer listed with somebody on duty wins; where none has anyone on duty,
        nobody is on call.
      </p>
      {layers.fields.map((layer, index) => (
        <fieldset
          key={layer.id}
          aria-label={`Layer ${index + 1}`}
          className="grid min-w-0 gap-4 rounded-lg border p-3 sm:p-4"
        >
          <div className="flex items-center gap-1">
            <h3 className="min-w-0 flex-1 truncate font-semibold text-sm">
              Layer {index + 1}
              {values[index]?.name ? (
                <span className="font-normal text-muted-foreground">: {values[index].name}</span>
              ) : null}
            </h3>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Move layer ${index + 1} up`}
              disabled={disabled || index === 0}
              onClick={() => layers.move(index, index - 1)}
            >
              <ArrowUp aria-hidden="true" />
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Move layer ${index + 1} down`}
              disabled={disabled || index === layers.fields.length - 1}
              onClick={() => layers.move(index, index + 1)}
            >
              <ArrowDown aria-hidden="true" />
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Remove layer ${index + 1}`}
              disabled={disabled || layers.fields.length === 1}
              onClick={() => layers.remove(index)}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
          <LayerFields
            index={index}
            timeZone={timeZone}
            people={people}
            peopleLoading={eligible.isPending}
            peopleError={eligible.isError ? 'Failed to fetch eligible users' : null}
            disabled={disabled}
          />
        </fieldset>
      ))}
      {layersMessage ? (
        <p role="alert" className="text-destructive text-sm">
          {layersMessage}
        </p>
      ) : null}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={disabled || layers.fields.length >= LAYERS_MAX}
          onClick={addLayer}
        >
          <Plus aria-hidden="true" />
          Add layer
        </Button>
      </div>
      <div className="rounded-md border bg-muted/40 p-3 text-sm" aria-live="polite">
        <p className="font-medium">Pattern</p>
        <p>{preview ? preview.words : 'Fill in a layer to see its pattern in words.'}</p>
        {preview?.incomplete ? (
          <p className="text-muted-foreground text-xs">
            Layers with a field still to fix are left out.
          </p>
        ) : null}
        <p className="mt-1 text-muted-foreground text-xs">Times are {timeZone} wall-clock time.</p>
      </div>
    </section>
  );
}
