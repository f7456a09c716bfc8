import { zodResolver } from '@hookform/resolvers/zod';
import {
  type IncidentInput,
  IncidentInputSchema,
  SEVERITIES,
  SEVERITY_LABELS,
} from '@shared/contracts/incidents';
import type { Rotation } from '@shared/contracts/rotations';
import { URGENCIES } from '@shared/contracts/rotations';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, InputField, SelectField, TextareaField } from '@/components/form-fields';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
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
import { useEscalationPolicies } from '@/lib/escalation-policy-reads';
import { fieldErrorsOf } from '@/lib/field-errors';
import { guardSubmission, notifyError } from '@/lib/notify';
import { useRaiseIncident } from '../api/raise-incident';

type Values = IncidentInput;
type Parsed = z.output<typeof IncidentInputSchema>;

const EMPTY: Values = {
  title: '',
  severity: 'P2',
  urgency: 'high',
  description: '',
  impact: '',
  troubleshootingSteps: '',
  rotationId: undefined,
  escalationPolicyId: undefined,
};

const FIELDS = [
  'title',
  'severity',
  'urgency',
  'description',
  'impact',
  'troubleshootingSteps',
  'rotationId',
  'escalationPolicyId',
] as const;

const URGENCY_TEXT = { low: 'Low', medium: 'Medium', high: 'High' } as const;

/** An empty optional text is left out rather than sent as ''. */
const orUndefined = (value: string | undefined) => (value ? value : undefined);

/**
 * RaiseIncidentDialog raises an incident on a rotation (its policy) or on an escalation policy:
 * title, severity, urgency, the three descriptive fields. Checked by the shared schema before it
 * is sent; what the server refuses shows beside its field, anything else in a toast.
 */
export function RaiseIncidentDialog({
  open,
  onOpenChange,
  rotations,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  rotations: readonly Pick<Rotation, 'id' | 'name'>[];
}) {
  const raise = useRaiseIncident();
  const policies = useEscalationPolicies({ enabled: open });
  const navigate = useNavigate();
  const form = useForm<Values, unknown, Parsed>({
    resolver: zodResolver(IncidentInputSchema),
    defaultValues: EMPTY,
  });
  const pending = raise.isPending;

  const submit = (values: Parsed) =>
    raise.mutate(
      {
        ...values,
        description: orUndefined(values.description),
        impact: orUndefined(values.impact),
        troubleshootingSteps: orUndefined(values.troubleshootingSteps),
      },
      {
        onSuccess: (incident) => {
          form.reset(EMPTY);
          onOpenChange(false);
          navigate(`/incidents/${incident.id}`);
        },
        onError: (error) => {
          const fields = fieldErrorsOf(error, FIELDS);
          if (!fields) {
            notifyError('Error raising incident', error, 'The incident could not be raised.');
            return;
          }
          for (const [name, message] of Object.entries(fields) as [keyof Values, string][]) {
            form.setError(name, { type: 'server', message }, { shouldFocus: true });
          }
        },
      },
    );

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Raise incident</DialogTitle>
          <DialogDescription>
            The incident climbs the rotation’s escalation policy, or the policy you choose, until
            someone acknowledges it.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) => guardSubmission(() => submit(values)))}
          >
            <InputField
              control={form.control}
              name="title"
              label="Title"
              disabled={pending}
              placeholder="What is broken, in one line"
            />
            <div className="grid items-start gap-4 sm:grid-cols-2">
              <SelectField
                control={form.control}
                name="severity"
                label="Severity"
                options={SEVERITIES}
                optionLabel={(s) => SEVERITY_LABELS[s]}
                disabled={pending}
              />
              <SelectField
                control={form.control}
                name="urgency"
                label="Urgency"
                options={URGENCIES}
                optionLabel={(u) => URGENCY_TEXT[u]}
                description={(u) =>
                  u === 'low' ? 'Email only.' : 'By each person’s notification preference.'
                }
                disabled={pending}
              />
            </div>
            <FollowsField
              form={form}
              rotations={rotations}
              policies={policies.data ?? []}
              disabled={pending}
            />
            <TextareaField
              control={form.control}
              name="description"
              label="Description"
              disabled={pending}
              placeholder="What you see, since when"
            />
            <TextareaField
              control={form.control}
              name="impact"
              label="Impact"
              rows={2}
              disabled={pending}
              placeholder="Who or what is affected"
            />
            <TextareaField
              control={form.control}
              name="troubleshootingSteps"
              label="Troubleshooting steps"
              disabled={pending}
              placeholder="What has been tried already"
            />
            <DialogFormFooter
              pending={pending}
              submitLabel="Raise incident"
              pendingLabel="Raising..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}

/**
 * FollowsField chooses what the incident follows: a rotation (and so its policy) or an escalation
 * policy by itself. One select sets `rotationId` or `escalationPolicyId` and clears the other.
 */
function FollowsField({
  form,
  rotations,
  policies,
  disabled,
}: {
  form: UseFormReturn<Values, unknown, Parsed>;
  rotations: readonly Pick<Rotation, 'id' | 'name'>[];
  policies: readonly { id: number; name: string }[];
  disabled: boolean;
}) {
  const policyError = form.formState.errors.escalationPolicyId?.message;
  return (
    <FormField
      control={form.control}
      name="rotationId"
      render={({ field }) => {
        const policyId = form.watch('escalationPolicyId');
        const value =
          field.value !== undefined
            ? `rotation:${field.value}`
            : policyId !== undefined
              ? `policy:${policyId}`
              : '';
        return (
          <FormItem>
            <FormLabel>Rotation or escalation policy</FormLabel>
            <Select
              value={value}
              disabled={disabled}
              onValueChange={(next) => {
                const [kind, id] = next.split(':');
                const chosen = Number(id);
                field.onChange(kind === 'rotation' ? chosen : undefined);
                form.setValue('escalationPolicyId', kind === 'policy' ? chosen : undefined);
                form.clearErrors(['rotationId', 'escalationPolicyId']);
              }}
            >
              <FormControl>
                <SelectTrigger onBlur={field.onBlur} ref={field.ref}>
                  <SelectValue placeholder="Choose a rotation or a policy" />
                </SelectTrigger>
              </FormControl>
              <SelectContent>
                {rotations.map((r) => (
                  <SelectItem key={`r${r.id}`} value={`rotation:${r.id}`}>
                    {r.name}
                  </SelectItem>
                ))}
                {policies.map((p) => (
                  <SelectItem key={`p${p.id}`} value={`policy:${p.id}`}>
                    Policy: {p.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <FormDescription className="text-xs">
              A rotation follows its own escalation policy.
            </FormDescription>
            <FormMessage />
            {policyError ? <p className="text-destructive text-sm">{policyError}</p> : null}
          </FormItem>
        );
      }}
    />
  );
}
