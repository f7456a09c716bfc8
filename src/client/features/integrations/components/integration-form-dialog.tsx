import { zodResolver } from '@hookform/resolvers/zod';
import {
  ALERT_GROUPINGS,
  INTEGRATION_SOURCE_DEFAULT,
  INTEGRATION_SOURCE_LABELS,
  INTEGRATION_SOURCES,
  INTEGRATION_URGENCIES,
  type Integration,
  type IntegrationInput,
  IntegrationInputSchema,
  type IntegrationWithKey,
  SIGNING_SECRET_MAX,
} from '@shared/contracts/integrations';
import { useForm, useFormContext } from 'react-hook-form';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, InputField, SelectField } from '@/components/form-fields';
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
import { Input } from '@/components/ui/input';
import {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectLabel,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { fieldErrorsOf } from '@/lib/field-errors';
import { guardSubmission, notifyError } from '@/lib/notify';
import { useCreateIntegration } from '../api/create-integration';
import type { IntegrationScope } from '../api/keys';
import { useUpdateIntegration } from '../api/update-integration';
import {
  GROUPING_HINTS,
  GROUPING_LABELS,
  groupsAlerts,
  SOURCE_HINTS,
  secretHintOf,
  URGENCY_HINTS,
  URGENCY_LABELS,
} from '../lib/labels';
import type { IntegrationTarget } from '../lib/targets';

const FIELDS = [
  'name',
  'source',
  'rotationId',
  'escalationPolicyId',
  'grouping',
  'urgency',
  'signingSecret',
] as const;

function emptyValues(scope: IntegrationScope): IntegrationInput {
  return {
    name: '',
    source: INTEGRATION_SOURCE_DEFAULT,
    grouping: 'group',
    urgency: 'severity',
    signingSecret: undefined,
    ...(scope === 'all' ? {} : scope),
  };
}

/**
 * AddIntegrationDialog creates an integration on a rotation or a policy (chosen from `targets` on
 * the Integrations screen): its name, the tool it is for, how Alertmanager and Grafana messages
 * become incidents, the urgency, and an optional Grafana signing secret. Checked by the shared
 * schema; the answer (with its key, shown once) goes to `onCreated`.
 */
export function AddIntegrationDialog({
  open,
  onOpenChange,
  scope,
  targets,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  scope: IntegrationScope;
  /** where it may go, for scope 'all' */
  targets?: readonly IntegrationTarget[];
  onCreated: (integration: IntegrationWithKey) => void;
}) {
  const create = useCreateIntegration();
  return (
    <IntegrationFormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add integration"
      description="A monitoring tool raises incidents here with the integration’s key. You will see the key once, when it is made."
      defaults={emptyValues(scope)}
      submitLabel="Add integration"
      pendingLabel="Adding..."
      pending={create.isPending}
      secretHint={secretHintOf(false)}
      targets={scope === 'all' ? (targets ?? []) : undefined}
      onSave={(values, done) =>
        create.mutate(values, {
          onSuccess: (integration) => {
            done.success();
            onCreated(integration);
          },
          onError: (error) => done.failure(error, 'Error adding integration'),
        })
      }
    />
  );
}

/** EditIntegrationDialog changes an integration's name and settings (not where it routes). */
export function EditIntegrationDialog({
  open,
  onOpenChange,
  integration,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  integration: Integration;
}) {
  const update = useUpdateIntegration(integration.id);
  return (
    <IntegrationFormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Edit ${integration.name}`}
      description="The key stays the same. Changes apply to the alerts that arrive from now on."
      defaults={{
        name: integration.name,
        source: integration.source,
        grouping: integration.grouping,
        urgency: integration.urgency,
        signingSecret: undefined,
        ...(integration.rotationId !== null
          ? { rotationId: integration.rotationId }
          : { escalationPolicyId: integration.escalationPolicyId ?? undefined }),
      }}
      submitLabel="Save"
      pendingLabel="Saving..."
      pending={update.isPending}
      secretHint={secretHintOf(integration.hasSigningSecret)}
      hasSigningSecret={integration.hasSigningSecret}
      onSave={({ name, source, grouping, urgency, signingSecret }, done) =>
        update.mutate(
          { name, source, grouping, urgency, ...(signingSecret ? { signingSecret } : {}) },
          {
            onSuccess: () => done.success(),
            onError: (error) => done.failure(error, 'Error saving integration'),
          },
        )
      }
    />
  );
}

type SaveOutcome = {
  success: () => void;
  failure: (error: unknown, title: string) => void;
};

function IntegrationFormDialog({
  open,
  onOpenChange,
  title,
  description,
  defaults,
  submitLabel,
  pendingLabel,
  pending,
  secretHint,
  hasSigningSecret = false,
  targets,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  defaults: IntegrationInput;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  secretHint: string;
  hasSigningSecret?: boolean;
  /** the rotations and policies to choose from; absent: the dialog's scope is fixed */
  targets?: readonly IntegrationTarget[];
  onSave: (values: IntegrationInput, done: SaveOutcome) => void;
}) {
  const form = useForm<IntegrationInput>({
    resolver: zodResolver(IntegrationInputSchema),
    defaultValues: defaults,
  });
  const source = form.watch('source') ?? INTEGRATION_SOURCE_DEFAULT;

  const submit = (values: IntegrationInput) =>
    onSave(values, {
      success: () => {
        form.reset(defaults);
        onOpenChange(false);
      },
      failure: (error, failureTitle) => {
        const fields = fieldErrorsOf(error, FIELDS);
        if (!fields) {
          notifyError(failureTitle, error, 'The integration could not be saved.');
          return;
        }
        for (const [name, message] of Object.entries(fields) as [
          (typeof FIELDS)[number],
          string,
        ][]) {
          form.setError(name, { type: 'server', message }, { shouldFocus: true });
        }
      },
    });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(defaults)}
    >
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((values) => guardSubmission(() => submit(values)))}
          >
            <InputField
              control={form.control}
              name="name"
              label="Name"
              placeholder="e.g. Prometheus production"
              disabled={pending}
            />
            {targets ? <TargetField targets={targets} disabled={pending} /> : null}
            <SelectField
              control={form.control}
              name="source"
              label="Source"
              options={INTEGRATION_SOURCES}
              optionLabel={(option) => INTEGRATION_SOURCE_LABELS[option]}
              description={(option) => (option ? SOURCE_HINTS[option] : null)}
              disabled={pending}
            />
            {groupsAlerts(source) ? (
              <SelectField
                control={form.control}
                name="grouping"
                label="Grouping"
                options={ALERT_GROUPINGS}
                optionLabel={(g) => GROUPING_LABELS[g]}
                description={(g) => (g ? GROUPING_HINTS[g] : null)}
                disabled={pending}
              />
            ) : null}
            <SelectField
              control={form.control}
              name="urgency"
              label="Urgency"
              options={INTEGRATION_URGENCIES}
              optionLabel={(u) => URGENCY_LABELS[u]}
              description={(u) => (u ? URGENCY_HINTS[u] : null)}
              disabled={pending}
            />
            {source === 'grafana' || hasSigningSecret ? (
              <FormField
                control={form.control}
                name="signingSecret"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>Grafana signing secret</FormLabel>
                    <FormControl>
                      <Input
                        type="password"
                        autoComplete="new-password"
                        maxLength={SIGNING_SECRET_MAX}
                        disabled={pending}
                        name={field.name}
                        ref={field.ref}
                        onBlur={field.onBlur}
                        value={field.value ?? ''}
                        // An empty box is no secret: left out, not sent as ''.
                        onChange={(event) => field.onChange(event.target.value || undefined)}
                      />
                    </FormControl>
                    <FormDescription className="text-xs">{secretHint}</FormDescription>
                    <FormMessage />
                  </FormItem>
                )}
              />
            ) : null}
            <DialogFormFooter
              pending={pending}
              submitLabel={submitLabel}
              pendingLabel={pendingLabel}
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}

const targetValue = (t: Pick<IntegrationTarget, 'kind' | 'id'>) => `${t.kind}:${t.id}`;

/**
 * TargetField chooses where a new integration's incidents go, a rotation or an escalation policy,
 * and sets `rotationId` or `escalationPolicyId` (the other cleared); the contract's "Choose the
 * rotation or the escalation policy…" shows under it.
 */
function TargetField({
  targets,
  disabled,
}: {
  targets: readonly IntegrationTarget[];
  disabled: boolean;
}) {
  const form = useFormContext<IntegrationInput>();
  const rotationId = form.watch('rotationId');
  const policyId = form.watch('escalationPolicyId');
  const value =
    rotationId !== undefined
      ? targetValue({ kind: 'rotation', id: rotationId })
      : policyId !== undefined
        ? targetValue({ kind: 'policy', id: policyId })
        : '';
  const groups = [
    { label: 'Rotations', items: targets.filter((t) => t.kind === 'rotation') },
    { label: 'Escalation policies', items: targets.filter((t) => t.kind === 'policy') },
  ].filter((g) => g.items.length > 0);
  return (
    <FormField
      control={form.control}
      name="rotationId"
      render={() => (
        <FormItem>
          <FormLabel>Incidents go to</FormLabel>
          <Select
            value={value}
            disabled={disabled}
            onValueChange={(next) => {
              const chosen = targets.find((t) => targetValue(t) === next);
              if (!chosen) return;
              const isRotation = chosen.kind === 'rotation';
              form.setValue('rotationId', isRotation ? chosen.id : undefined);
              form.setValue('escalationPolicyId', isRotation ? undefined : chosen.id);
              form.clearErrors(['rotationId', 'escalationPolicyId']);
            }}
          >
            <FormControl>
              <SelectTrigger>
                <SelectValue placeholder="Choose a rotation or a policy" />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {groups.map((group) => (
                <SelectGroup key={group.label}>
                  <SelectLabel>{group.label}</SelectLabel>
                  {group.items.map((t) => (
                    <SelectItem key={targetValue(t)} value={targetValue(t)}>
                      {t.name}
                    </SelectItem>
                  ))}
                </SelectGroup>
              ))}
            </SelectContent>
          </Select>
          <FormDescription className="text-xs">
            A rotation’s integration follows the rotation’s escalation policy.
          </FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
