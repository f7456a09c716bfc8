import { zodResolver } from '@hookform/resolvers/zod';
import {
  API_TOKEN_DEFAULT_DAYS,
  API_TOKEN_MAX_DAYS,
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  type ApiTokenInput,
  ApiTokenInputSchema,
  type CreatedApiToken,
} from '@shared/contracts/api-tokens';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { DialogFormFooter, FormError, InputField, SelectField } from '@/components/form-fields';
import {
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { getErrorMessage } from '@/lib/api-client';
import { fieldErrorsOf } from '@/lib/field-errors';
import { useCreateApiToken } from '../api/create-api-token';

const EMPTY: ApiTokenInput = { name: '', scope: 'read', expiresInDays: API_TOKEN_DEFAULT_DAYS };
const FIELDS = ['name', 'scope', 'expiresInDays'] as const;

/** CreateApiTokenDialog asks for a token's name, scope and expiry, and hands the answer back. */
export function CreateApiTokenDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (token: CreatedApiToken) => void;
}) {
  const create = useCreateApiToken();
  const form = useForm<ApiTokenInput, unknown, z.output<typeof ApiTokenInputSchema>>({
    resolver: zodResolver(ApiTokenInputSchema),
    defaultValues: EMPTY,
  });
  const pending = create.isPending;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={pending}
      onClose={() => form.reset(EMPTY)}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create API token</DialogTitle>
          <DialogDescription>
            A token acts as you in scripts, with your permissions; a read token only reads.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={form.handleSubmit((input) =>
              create.mutate(input, {
                onSuccess: (token) => {
                  form.reset(EMPTY);
                  onOpenChange(false);
                  onCreated(token);
                },
                onError: (error) => {
                  const fields = fieldErrorsOf(error, FIELDS);
                  if (fields) {
                    for (const [name, message] of Object.entries(fields)) {
                      form.setError(name as 'name', { message });
                    }
                  } else {
                    form.setError('root', {
                      message: getErrorMessage(error, 'Failed to create the API token'),
                    });
                  }
                },
              }),
            )}
          >
            <FormError />
            <InputField
              control={form.control}
              name="name"
              label="Name"
              placeholder="Deploy script"
              disabled={pending}
            />
            <SelectField
              control={form.control}
              name="scope"
              label="Scope"
              options={API_TOKEN_SCOPES}
              optionLabel={(scope) => API_TOKEN_SCOPE_LABELS[scope]}
              description={(scope) =>
                scope === 'write'
                  ? 'Does everything you may do, changes included.'
                  : 'Reads only: every change is refused.'
              }
              disabled={pending}
            />
            <InputField
              control={form.control}
              name="expiresInDays"
              label="Expires in (days)"
              type="number"
              min={1}
              max={API_TOKEN_MAX_DAYS}
              step={1}
              description={`At most ${API_TOKEN_MAX_DAYS} days (one year).`}
              disabled={pending}
            />
            <DialogFormFooter
              pending={pending}
              submitLabel="Create token"
              pendingLabel="Creating..."
            />
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
