import type { Integration, IntegrationWithKey } from '@shared/contracts/integrations';
import { Plus, Webhook } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { useDeleteIntegration } from '../api/delete-integration';
import { useIntegrations } from '../api/get-integrations';
import type { IntegrationScope } from '../api/keys';
import { useRegenerateKey } from '../api/regenerate-key';
import { AddIntegrationDialog, EditIntegrationDialog } from './integration-form-dialog';
import { IntegrationItem } from './integration-item';

type Open =
  | { dialog: 'add' }
  | { dialog: 'edit' | 'regenerate' | 'delete'; integration: Integration }
  | null;

/**
 * IntegrationsCard lists the integrations of a rotation or an escalation policy, with "Add
 * integration" for those who may (`mayCreate`: the page knows), and holds the one key shown once
 * after a create or a regenerate until the user hides it. Only in memory: a reload forgets it.
 */
export function IntegrationsCard({
  scope,
  mayCreate,
  description,
  extra,
}: {
  scope: IntegrationScope;
  mayCreate: boolean;
  description: string;
  /** a section the page adds under each integration (its chat and webhooks, decision 221) */
  extra?: (integration: Integration) => { label: string; content: ReactNode };
}) {
  const integrations = useIntegrations(scope);
  const regenerate = useRegenerateKey();
  const remove = useDeleteIntegration();
  const [open, setOpen] = useState<Open>(null);
  const [revealed, setRevealed] = useState<{ id: number; key: string } | null>(null);

  const reveal = (integration: IntegrationWithKey) =>
    setRevealed({ id: integration.id, key: integration.key });
  const list = integrations.data?.integrations ?? [];

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Integrations</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
        {mayCreate ? (
          <CardAction>
            <Button size="sm" onClick={() => setOpen({ dialog: 'add' })}>
              <Plus aria-hidden="true" />
              Add integration
            </Button>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid min-w-0">
        {integrations.isPending ? (
          <LoadingState label="Loading integrations..." className="py-8" />
        ) : integrations.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Failed to load the integrations</AlertTitle>
            <AlertDescription>
              {getErrorMessage(integrations.error, 'Please try again.')}
            </AlertDescription>
          </Alert>
        ) : list.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-8 text-center">
            <Webhook className="size-6 text-muted-foreground" aria-hidden="true" />
            <p className="max-w-md text-muted-foreground text-sm">
              No integrations yet. Add one to let Alertmanager, Grafana, an uptime checker or a
              script raise incidents here.
            </p>
          </div>
        ) : (
          <ul className="grid min-w-0 divide-y" aria-label="Integrations">
            {list.map((integration) => (
              <IntegrationItem
                key={integration.id}
                integration={integration}
                revealedKey={revealed?.id === integration.id ? revealed.key : null}
                onHideKey={() => setRevealed(null)}
                onEdit={() => setOpen({ dialog: 'edit', integration })}
                onRegenerate={() => setOpen({ dialog: 'regenerate', integration })}
                onDelete={() => setOpen({ dialog: 'delete', integration })}
                extra={extra?.(integration)}
              />
            ))}
          </ul>
        )}
      </CardContent>

      <AddIntegrationDialog
        open={open?.dialog === 'add'}
        onOpenChange={(next) => setOpen(next ? { dialog: 'add' } : null)}
        scope={scope}
        onCreated={reveal}
      />
      {open?.dialog === 'edit' ? (
        <EditIntegrationDialog
          open
          onOpenChange={(next) => (next ? null : setOpen(null))}
          integration={open.integration}
        />
      ) : null}
      <ConfirmDialog
        open={open?.dialog === 'regenerate'}
        onOpenChange={(next) => (next ? null : setOpen(null))}
        title={
          open?.dialog === 'regenerate' ? `Regenerate the key of ${open.integration.name}?` : ''
        }
        description="The current key stops working at once: every tool sending with it is refused until you paste the new key, which you will see once."
        confirmLabel="Regenerate key"
        pendingLabel="Regenerating..."
        pending={regenerate.isPending}
        onConfirm={() => {
          if (open?.dialog !== 'regenerate') return;
          regenerate.mutate(open.integration.id, {
            onSuccess: (integration) => {
              reveal(integration);
              setOpen(null);
            },
          });
        }}
      />
      <ConfirmDialog
        open={open?.dialog === 'delete'}
        onOpenChange={(next) => (next ? null : setOpen(null))}
        title={open?.dialog === 'delete' ? `Delete ${open.integration.name}?` : ''}
        description="Its key stops working at once: every tool sending with it is refused. The incidents it raised stay."
        confirmLabel="Delete integration"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => {
          if (open?.dialog !== 'delete') return;
          const { integration } = open;
          remove.mutate(integration, {
            onSuccess: () => {
              if (revealed?.id === integration.id) setRevealed(null);
              setOpen(null);
            },
          });
        }}
      />
    </Card>
  );
}
