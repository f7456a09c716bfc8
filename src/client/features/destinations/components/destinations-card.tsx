import {
  DESTINATION_EVENT_LABELS,
  DESTINATION_EVENTS,
  DESTINATION_KIND_LABELS,
  DESTINATION_KINDS,
  type Destination,
  type DestinationCreated,
  type DestinationEvent,
  DestinationInputSchema,
  type DestinationKind,
} from '@shared/contracts/destinations';
import { MessageSquare, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ConnectionsCard } from '@/components/connections-card';
import { LoadingState } from '@/components/loading-state';
import { TimeZonePicker } from '@/components/time-zone-picker';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { fieldErrorsOf } from '@/lib/field-errors';
import { notifyError } from '@/lib/notify';
import { useTimeFormat } from '@/lib/use-time-format';
import { useCreateDestination } from '../api/create-destination';
import { useDeleteDestination } from '../api/delete-destination';
import { useDeliveries } from '../api/get-deliveries';
import { useDestinations } from '../api/get-destinations';
import type { DestinationScope } from '../api/keys';
import { useSendTestEvent } from '../api/send-test-event';
import { useUpdateDestination } from '../api/update-destination';

/** Where a destination's URL comes from, per kind: said under the URL field. */
const URL_HINTS: Record<DestinationKind, string> = {
  slack: 'A Slack incoming webhook URL (https://hooks.slack.com/services/…).',
  mattermost: 'A Mattermost incoming webhook URL (https://your-server/hooks/…).',
  discord:
    'A Discord webhook URL ending in /slack, Discord’s Slack-compatible endpoint (https://discord.com/api/webhooks/…/slack).',
  teams:
    'A Microsoft Teams Workflows webhook URL (“Post to a channel when a webhook request is received”).',
  webhook:
    'Your receiver’s https URL. Baton signs each event by the Standard Webhooks scheme; see Help → Webhook receivers.',
};

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
            <Alert>
              <AlertTitle>Signing secret</AlertTitle>
              <AlertDescription className="grid gap-2">
                <p>Copy it now into your receiver: Baton shows it only this once.</p>
                <code className="select-all break-all rounded bg-muted px-2 py-1 font-mono text-xs">
                  {secret.secret}
                </code>
                <Button
                  size="sm"
                  variant="outline"
                  className="w-fit"
                  onClick={() => setSecret(null)}
                >
                  Hide secret
                </Button>
              </AlertDescription>
            </Alert>
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

function DestinationItem({
  destination,
  showTarget,
  nested,
  testing,
  onTest,
  onEdit,
  onDelete,
  onLog,
}: {
  destination: Destination;
  showTarget: boolean;
  nested: boolean;
  testing: boolean;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onLog: () => void;
}) {
  const format = useTimeFormat();
  const kind = DESTINATION_KIND_LABELS[destination.kind];
  return (
    <li className="grid min-w-0 gap-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        {nested ? (
          <h5 className="font-medium text-sm">{kind}</h5>
        ) : (
          <h3 className="font-medium text-sm">{kind}</h3>
        )}
        <span className="break-all font-mono text-muted-foreground text-xs">
          {destination.urlHint}
        </span>
        {destination.failingSince ? (
          <Badge variant="destructive">
            Failing since {format.dateTime(destination.failingSince)}
          </Badge>
        ) : null}
      </div>
      {showTarget && destination.targetName ? (
        <p className="text-sm">
          For{' '}
          {destination.rotationId
            ? 'rotation'
            : destination.escalationPolicyId
              ? 'policy'
              : 'integration'}{' '}
          {destination.targetName}
        </p>
      ) : null}
      <p className="text-muted-foreground text-sm">
        Posts: {destination.events.map((e) => DESTINATION_EVENT_LABELS[e]).join(', ')}
        {destination.digestTime
          ? ` (digest at ${destination.digestTime} ${destination.digestTimeZone})`
          : ''}
      </p>
      <p className="text-muted-foreground text-xs">
        {destination.lastDeliveredAt
          ? `Last delivered ${format.dateTime(destination.lastDeliveredAt)}`
          : 'Nothing delivered yet'}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={onLog}>
          Delivery log
        </Button>
        {destination.canManage ? (
          <>
            <Button size="sm" variant="outline" onClick={onTest} disabled={testing}>
              {testing ? 'Sending...' : 'Send test event'}
            </Button>
            <Button size="sm" variant="outline" onClick={onEdit}>
              Edit
            </Button>
            <Button size="sm" variant="outline" onClick={onDelete}>
              Delete
            </Button>
          </>
        ) : null}
      </div>
    </li>
  );
}

type FormFields = 'kind' | 'url' | 'events' | 'digestTime' | 'digestTimeZone' | 'rotationId';
const FORM_FIELDS: FormFields[] = [
  'kind',
  'url',
  'events',
  'digestTime',
  'digestTimeZone',
  'rotationId',
];

/**
 * DestinationFormDialog adds a destination to a scope (kind, URL, events, digest time), or edits
 * one's events, digest time and URL (its kind stays). Checked by the shared schema first.
 */
function DestinationFormDialog({
  scope,
  kind: presetKind,
  destination,
  onClose,
  onCreated,
}: {
  scope?: Exclude<DestinationScope, { kind: string }>;
  kind?: DestinationKind;
  destination?: Destination;
  onClose: () => void;
  onCreated: (created: DestinationCreated) => void;
}) {
  const create = useCreateDestination();
  const update = useUpdateDestination();
  const ids = useId();
  const [kind, setKind] = useState<DestinationKind>(destination?.kind ?? presetKind ?? 'slack');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<DestinationEvent[]>(
    destination?.events ?? ['handoff', 'incident.raised'],
  );
  const [digestTime, setDigestTime] = useState(destination?.digestTime ?? '09:00');
  const { timeZone: viewerZone } = useTimeFormat();
  const [digestTimeZone, setDigestTimeZone] = useState(destination?.digestTimeZone ?? viewerZone);
  const [errors, setErrors] = useState<Partial<Record<FormFields, string>>>({});
  const pending = create.isPending || update.isPending;
  const wantsDigest = events.includes('digest');

  const submit = () => {
    const digest = wantsDigest ? { digestTime, digestTimeZone } : {};
    if (destination) {
      update.mutate(
        {
          id: destination.id,
          change: { events, ...(url.trim() ? { url: url.trim() } : {}), ...digest },
        },
        {
          onSuccess: () => onCreated({ ...destination, events }),
          onError: (error) => {
            const fields = fieldErrorsOf(error, FORM_FIELDS);
            if (fields) setErrors(fields);
            else notifyError('Error saving destination', error, 'It could not be saved.');
          },
        },
      );
      return;
    }
    const input = { kind, url: url.trim(), events, ...digest, ...scope };
    const parsed = DestinationInputSchema.safeParse(input);
    if (!parsed.success) {
      const found: Partial<Record<FormFields, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'url') as FormFields;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: onCreated,
      onError: (error) => {
        const fields = fieldErrorsOf(error, FORM_FIELDS);
        if (fields) setErrors(fields);
        else notifyError('Error adding destination', error, 'The destination could not be added.');
      },
    });
  };

  const toggle = (event: DestinationEvent, on: boolean) =>
    setEvents((now) => (on ? [...now, event] : now.filter((e) => e !== event)));
  const available = DESTINATION_EVENTS.filter((e) => kind !== 'webhook' || e !== 'digest');

  return (
    <Dialog open onOpenChange={(next) => (next || pending ? null : onClose())}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>
            {destination
              ? `Edit the ${DESTINATION_KIND_LABELS[destination.kind]} destination`
              : 'Add destination'}
          </DialogTitle>
          <DialogDescription>
            Messages go through Baton’s outbox: retried when the receiver fails, and delivered once.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          {destination ? null : (
            <fieldset className="grid gap-2">
              <legend className="mb-2 font-medium text-sm">Kind</legend>
              <div className="flex flex-wrap gap-3">
                {DESTINATION_KINDS.map((k) => (
                  <label key={k} className="flex items-center gap-2 text-sm">
                    <input
                      type="radio"
                      name={`${ids}-kind`}
                      value={k}
                      checked={kind === k}
                      onChange={() => {
                        setKind(k);
                        if (k === 'webhook') setEvents((now) => now.filter((e) => e !== 'digest'));
                      }}
                    />
                    {DESTINATION_KIND_LABELS[k]}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-url`}>
              {destination ? 'New URL (optional)' : 'Webhook URL'}
            </Label>
            <Input
              id={`${ids}-url`}
              type="url"
              autoComplete="off"
              value={url}
              placeholder={destination ? destination.urlHint : 'https://'}
              aria-invalid={errors.url ? true : undefined}
              aria-describedby={`${ids}-url-hint${errors.url ? ` ${ids}-url-error` : ''}`}
              onChange={(event) => setUrl(event.target.value)}
            />
            <p id={`${ids}-url-hint`} className="text-muted-foreground text-xs">
              {URL_HINTS[kind]}
            </p>
            {errors.url ? (
              <p id={`${ids}-url-error`} className="text-destructive text-sm">
                {errors.url}
              </p>
            ) : null}
          </div>
          <fieldset
            className="grid gap-2"
            aria-describedby={errors.events ? `${ids}-events-error` : undefined}
          >
            <legend className="mb-2 font-medium text-sm">Events to post</legend>
            {available.map((event) => (
              <div key={event} className="flex items-center gap-2">
                <Checkbox
                  id={`${ids}-${event}`}
                  checked={events.includes(event)}
                  onCheckedChange={(on) => toggle(event, on === true)}
                />
                <Label htmlFor={`${ids}-${event}`} className="font-normal">
                  {DESTINATION_EVENT_LABELS[event]}
                </Label>
              </div>
            ))}
            {errors.events ? (
              <p id={`${ids}-events-error`} className="text-destructive text-sm">
                {errors.events}
              </p>
            ) : null}
          </fieldset>
          {wantsDigest ? (
            <div className="grid gap-3 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor={`${ids}-digest`}>Digest time</Label>
                <Input
                  id={`${ids}-digest`}
                  type="time"
                  value={digestTime}
                  aria-invalid={errors.digestTime ? true : undefined}
                  onChange={(event) => setDigestTime(event.target.value)}
                />
                {errors.digestTime ? (
                  <p className="text-destructive text-sm">{errors.digestTime}</p>
                ) : null}
              </div>
              <div className="grid gap-2">
                <Label id={`${ids}-zone`}>Time zone</Label>
                <TimeZonePicker
                  value={digestTimeZone}
                  onChange={setDigestTimeZone}
                  aria-labelledby={`${ids}-zone`}
                />
                {errors.digestTimeZone ? (
                  <p className="text-destructive text-sm">{errors.digestTimeZone}</p>
                ) : null}
              </div>
            </div>
          ) : null}
          {errors.rotationId ? (
            <p className="text-destructive text-sm">{errors.rotationId}</p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving...' : destination ? 'Save destination' : 'Add destination'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

const STATUS_LABELS = {
  pending: 'Waiting',
  sending: 'Sending',
  sent: 'Delivered',
  failed: 'Failed',
} as const;

/** DeliveryLogDialog shows a destination's last messages, newest first, as the outbox saw them. */
function DeliveryLogDialog({
  destination,
  onClose,
}: {
  destination: Destination;
  onClose: () => void;
}) {
  const log = useDeliveries(destination.id);
  const format = useTimeFormat();
  const rows = log.data?.deliveries ?? [];
  return (
    <Dialog open onOpenChange={(next) => (next ? null : onClose())}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Delivery log</DialogTitle>
          <DialogDescription>
            {DESTINATION_KIND_LABELS[destination.kind]} {destination.urlHint}: the last 50 messages,
            newest first. {format.timesIn}
          </DialogDescription>
        </DialogHeader>
        {log.isPending ? (
          <LoadingState label="Loading the delivery log..." className="py-6" />
        ) : log.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Failed to load the delivery log</AlertTitle>
            <AlertDescription>{getErrorMessage(log.error, 'Please try again.')}</AlertDescription>
          </Alert>
        ) : rows.length === 0 ? (
          <p className="text-muted-foreground text-sm">Nothing has been sent here yet.</p>
        ) : (
          <ul className="grid divide-y" aria-label="Deliveries">
            {rows.map((d) => (
              <li key={d.id} className="grid gap-1 py-2 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{d.event}</span>
                  <Badge
                    variant={
                      d.status === 'failed'
                        ? 'destructive'
                        : d.status === 'sent'
                          ? 'secondary'
                          : 'outline'
                    }
                  >
                    {STATUS_LABELS[d.status]}
                  </Badge>
                  <span className="text-muted-foreground text-xs">
                    {format.dateTime(d.createdAt)} · {d.attempts}{' '}
                    {d.attempts === 1 ? 'attempt' : 'attempts'}
                  </span>
                </div>
                {d.sentAt ? (
                  <span className="text-muted-foreground text-xs">
                    Delivered {format.toSecond(d.sentAt)}
                  </span>
                ) : d.nextAttemptAt && d.attempts > 0 ? (
                  <span className="text-muted-foreground text-xs">
                    Next attempt {format.toSecond(d.nextAttemptAt)}
                  </span>
                ) : null}
                {d.lastError ? (
                  <span className="text-destructive text-xs">{d.lastError}</span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
