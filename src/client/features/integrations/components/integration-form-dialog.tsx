import { zodResolver } from '@hookform/resolvers/zod';
import {
  ALERT_GROUPINGS,
  INTEGRATION_URGENCIES,
  type Integration,
  type IntegrationInput,
  IntegrationInputSchema,
  type IntegrationWithKey,
  SIGNING_SECRET_MAX,
} from '@shared/contracts/integrations';
import { useForm } from 'react-hook-form';
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
import { fieldErrorsOf } from '@/lib/field-errors';
import { guardSubmission, notifyError } from '@/lib/notify';
import { useCreateIntegration } from '../api/create-integration';
import type { IntegrationScope } from '../api/keys';
import { useUpdateIntegration } from '../api/update-integration';
import {
  GROUPING_HINTS,
  GROUPING_LABELS,
  secretHintOf,
  URGENCY_HINTS,
  URGENCY_LABELS,
} from '../lib/labels';

const FIELDS = ['name', 'grouping', 'urgency', 'signingSecret'] as const;

function emptyValues(scope: IntegrationScope): IntegrationInput {
  return { name: '', grouping: 'group', urgency: 'severity', signingSecret: undefined, ...scope };
}

/**
 * AddIntegrationDialog creates an integration on a rotation or a policy: its name, how
 * Alertmanager and Grafana messages become incidents, the urgency, and an optional Grafana signing
 * secret. Checked by the shared schema; the answer (with its key, shown once) goes to `onCreated`.
 */
export function AddIntegrationDialog({
  open,
  onOpenChange,
  scope,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  scope: IntegrationScope;
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
      onSave={({ name, grouping, urgency, signingSecret }, done) =>
        update.mutate(
          { name, grouping, urgency, ...(signingSecret ? { signingSecret } : {}) },
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
  onSave: (values: IntegrationInput, done: SaveOutcome) => void;
}) {
  const form = useForm<IntegrationInput>({
    resolver: zodResolver(IntegrationInputSchema),
    defaultValues: defaults,
  });

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
            <SelectField
              control={form.control}
              name="grouping"
              label="Grouping"
              options={ALERT_GROUPINGS}
              optionLabel={(g) => GROUPING_LABELS[g]}
              description={(g) => (g ? GROUPING_HINTS[g] : null)}
              disabled={pending}
            />
            <SelectField
              control={form.control}
              name="urgency"
              label="Urgency"
              options={INTEGRATION_URGENCIES}
              optionLabel={(u) => URGENCY_LABELS[u]}
              description={(u) => (u ? URGENCY_HINTS[u] : null)}
              disabled={pending}
            />
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
