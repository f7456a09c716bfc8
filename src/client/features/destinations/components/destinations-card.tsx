import {
  DESTINATION_KIND_LABELS,
  DESTINATION_KINDS,
  type Destination,
  type DestinationKind,
} from '@shared/contracts/destinations';
import { MessageSquare, Plus } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ConnectionsCard } from '@/components/connections-card';
import { Button } from '@/components/ui/button';
import { useDeleteDestination } from '../api/delete-destination';
import { useDestinations } from '../api/get-destinations';
import type { DestinationScope } from '../api/keys';
import { useSendTestEvent } from '../api/send-test-event';
import { DeliveryLogDialog } from './delivery-log-dialog';
import { DestinationFormDialog } from './destination-form-dialog';
import { DestinationItem } from './destination-item';
import { SigningSecretNotice } from './signing-secret-notice';

type Open =
  | { dialog: 'add' }
  | { dialog: 'edit' | 'delete' | 'log'; destination: Destination }
  | null;

/**
 * DestinationsCard is the "Chat and webhooks" section of a rotation, an escalation policy or an
 * integration (decision 221): its destinations with their failing state and last delivery, and
 * for those who may, add, edit events, send a test event, delete; the delivery log of each; a
 * webhook's signing secret shown once after it is added, kept only in memory.
 */
export function DestinationsCard({
  scope,
  mayCreate,
  description,
  title = 'Chat and webhooks',
  nested = false,
}: {
  scope: DestinationScope;
  mayCreate: boolean;
  description: string;
  title?: string;
  /** inside another card's item (an integration's): its heading is a level 4 */
  nested?: boolean;
}) {
  const destinations = useDestinations(scope);
  const remove = useDeleteDestination();
  const test = useSendTestEvent();
  // Settings → Integrations' Connect leads here with ?add-destination=<kind>: the form opens.
  const [params, setParams] = useSearchParams();
  const asked = params.get('add-destination');
  const preset = (DESTINATION_KINDS as readonly string[]).includes(asked ?? '')
    ? (asked as DestinationKind)
    : undefined;
  const [open, setOpen] = useState<Open>(mayCreate && preset ? { dialog: 'add' } : null);
  const closeForm = () => {
    setOpen(null);
    if (asked !== null) {
      params.delete('add-destination');
      setParams(params, { replace: true });
    }
  };
  const [secret, setSecret] = useState<{ id: number; secret: string } | null>(null);
  const list = destinations.data?.destinations ?? [];

  return (
    <>
      <ConnectionsCard
        title={title}
        headingLevel={nested ? 4 : 2}
        description={description}
        action={
          mayCreate && !('kind' in scope) ? (
            <Button size="sm" onClick={() => setOpen({ dialog: 'add' })}>
              <Plus aria-hidden="true" />
              Add destination
            </Button>
          ) : null
        }
        notice={
          secret ? (
            <SigningSecretNotice secret={secret.secret} onHide={() => setSecret(null)} />
          ) : null
        }
        query={destinations}
        count={list.length}
        loadingLabel="Loading destinations..."
        errorTitle="Failed to load the destinations"
        emptyIcon={MessageSquare}
        emptyText="No destinations yet. Add Slack, Mattermost, Discord, Microsoft Teams or a signed webhook to post handoffs, cover and incidents there."
        listLabel="Destinations"
      >
        {list.map((destination) => (
          <DestinationItem
            key={destination.id}
            destination={destination}
            showTarget={'kind' in scope}
            nested={nested}
            testing={test.isPending && test.variables === destination.id}
            onTest={() => test.mutate(destination.id)}
            onEdit={() => setOpen({ dialog: 'edit', destination })}
            onDelete={() => setOpen({ dialog: 'delete', destination })}
            onLog={() => setOpen({ dialog: 'log', destination })}
          />
        ))}
      </ConnectionsCard>

      {open?.dialog === 'add' && !('kind' in scope) ? (
        <DestinationFormDialog
          scope={scope}
          kind={preset}
          onClose={closeForm}
          onCreated={(created) => {
            if (created.secret) setSecret({ id: created.id, secret: created.secret });
            closeForm();
          }}
        />
      ) : null}
      {open?.dialog === 'edit' ? (
        <DestinationFormDialog
          destination={open.destination}
          onClose={() => setOpen(null)}
          onCreated={() => setOpen(null)}
        />
      ) : null}
      {open?.dialog === 'log' ? (
        <DeliveryLogDialog destination={open.destination} onClose={() => setOpen(null)} />
      ) : null}
      <ConfirmDialog
        open={open?.dialog === 'delete'}
        onOpenChange={(next) => (next ? null : setOpen(null))}
        title={
          open?.dialog === 'delete'
            ? `Delete the ${DESTINATION_KIND_LABELS[open.destination.kind]} destination ${open.destination.urlHint}?`
            : ''
        }
        description="Nothing more is posted there; its delivery log is deleted with it."
        confirmLabel="Delete destination"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => {
          if (open?.dialog !== 'delete') return;
          const { id } = open.destination;
          remove.mutate(id, {
            onSuccess: () => {
              if (secret?.id === id) setSecret(null);
              setOpen(null);
            },
          });
        }}
      />
    </>
  );
}
