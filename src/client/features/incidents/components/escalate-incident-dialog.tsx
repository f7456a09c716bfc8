import { zodResolver } from '@hookform/resolvers/zod';
import {
  type EscalateIncidentInput,
  EscalateIncidentInputSchema,
  type Incident,
} from '@shared/contracts/incidents';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { EscalateDialog } from '@/components/escalate-dialog';
import { FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { useIncidentAction } from '../api/act-on-incident';
import { nextStepDefault } from '../lib/incident-view';

/**
 * EscalateIncidentDialog moves an unacknowledged incident to a step of its policy at once: the
 * next by default, or any step chosen, with a reason the timeline keeps.
 */
export function EscalateIncidentDialog({
  incident,
  open,
  onOpenChange,
}: {
  incident: Incident;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const act = useIncidentAction(incident.id);
  const defaultStep = nextStepDefault(incident);
  const form = useForm<
    EscalateIncidentInput,
    unknown,
    z.output<typeof EscalateIncidentInputSchema>
  >({
    resolver: zodResolver(EscalateIncidentInputSchema),
    defaultValues: { reason: '', toStep: defaultStep },
  });
  const { reset } = form;
  // Each opening offers the step after the one the incident is at now.
  useEffect(() => {
    if (open) reset({ reason: '', toStep: defaultStep });
  }, [open, defaultStep, reset]);
  const pending = act.isPending;
  const steps = Array.from({ length: incident.escalationPolicy.stepCount }, (_, i) => i + 1);

  return (
    <EscalateDialog
      title="Escalate incident"
      description={
        <>
          The step you choose notifies its people now, and the policy goes on from there. The
          incident is at {`step ${incident.currentStep} of ${incident.escalationPolicy.stepCount}`}.
        </>
      }
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      form={form}
      onSubmit={(input) =>
        act.mutate(
          // The step this dialog showed: if someone moved it first, the server says so.
          { kind: 'escalate', input: { ...input, fromStep: incident.currentStep } },
          {
            onSuccess: () => onOpenChange(false),
          },
        )
      }
      reasonPlaceholder="Why does this incident need the next step now?"
    >
      <FormField
        control={form.control}
        name="toStep"
        render={({ field }) => (
          <FormItem>
            <FormLabel>To step</FormLabel>
            <Select
              value={field.value === undefined ? '' : String(field.value)}
              onValueChange={(value) => field.onChange(Number(value))}
              disabled={pending}
            >
              <FormControl>
                <SelectTrigger onBlur={field.onBlur} ref={field.ref}>
                  <SelectValue />
                </SelectTrigger>
              </FormControl>
              <SelectContent>
                {steps.map((step) => (
                  <SelectItem key={step} value={String(step)}>
                    {step === incident.currentStep ? `Step ${step} (again)` : `Step ${step}`}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FormMessage />
          </FormItem>
        )}
      />
    </EscalateDialog>
  );
}
