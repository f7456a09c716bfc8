import type { Integration, IntegrationWithKey } from '@shared/contracts/integrations';
import { Plus, Webhook } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ConnectionsCard } from '@/components/connections-card';
import { Button } from '@/components/ui/button';
import { useDeleteIntegration } from '../api/delete-integration';
import { useIntegrations } from '../api/get-integrations';
import type { IntegrationScope } from '../api/keys';
import { useRegenerateKey } from '../api/regenerate-key';
import type { IntegrationTarget } from '../lib/targets';
import { AddIntegrationDialog, EditIntegrationDialog } from './integration-form-dialog';
import { IntegrationItem } from './integration-item';

type Open =
  | { dialog: 'add' }
  | { dialog: 'edit' | 'regenerate' | 'delete'; integration: Integration }
  | null;

/**
 * IntegrationsCard lists the integrations of a rotation or an escalation policy, or on the
 * Integrations screen every one the viewer may see with where each goes (scope 'all', decision
 * 260), with "Add integration" for those who may (`mayCreate`: the page knows), and holds the one
 * key shown once after a create or a regenerate until the user hides it. Only in memory: a reload
 * forgets it.
 */
export function IntegrationsCard({
  scope,
  targets,
  mayCreate,
  title = 'Integrations',
  description,
  extra,
}: {
  scope: IntegrationScope;
  /** for scope 'all': the rotations and policies the viewer may add an integration to */
  targets?: readonly IntegrationTarget[];
  mayCreate: boolean;
  /** the card's heading (default: Integrations) */
  title?: string;
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
    <>
      <ConnectionsCard
        title={title}
        description={description}
        action={
          mayCreate ? (
            <Button size="sm" onClick={() => setOpen({ dialog: 'add' })}>
              <Plus aria-hidden="true" />
              Add integration
            </Button>
          ) : null
        }
        query={integrations}
        count={list.length}
        loadingLabel="Loading integrations..."
        errorTitle="Failed to load the integrations"
        emptyIcon={Webhook}
        emptyText="No integrations yet. Add one to let Alertmanager, Grafana, an uptime checker or a script raise incidents here."
        listLabel="Integrations"
      >
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
            showTarget={scope === 'all'}
          />
        ))}
      </ConnectionsCard>

      <AddIntegrationDialog
        open={open?.dialog === 'add'}
        onOpenChange={(next) => setOpen(next ? { dialog: 'add' } : null)}
        scope={scope}
        targets={targets}
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
    </>
  );
}
