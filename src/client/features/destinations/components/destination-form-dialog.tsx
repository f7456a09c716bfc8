import { zodResolver } from '@hookform/resolvers/zod';
import {
  DESTINATION_EVENT_LABELS,
  DESTINATION_EVENTS,
  DESTINATION_KIND_LABELS,
  DESTINATION_KINDS,
  type Destination,
  type DestinationCreated,
  type DestinationEvent,
  type DestinationInput,
  DestinationInputSchema,
  type DestinationKind,
} from '@shared/contracts/destinations';
import { useId } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { FormDialog } from '@/components/form-dialog';
import { InputField } from '@/components/form-fields';
import { TimeZonePicker } from '@/components/time-zone-picker';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  DialogContent,
  DialogDescription,
  DialogFooter,
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
import { Label } from '@/components/ui/label';
import { fieldErrorsOf } from '@/lib/field-errors';
import { notifyError } from '@/lib/notify';
import { useTimeFormat } from '@/lib/use-time-format';
import { useCreateDestination } from '../api/create-destination';
import type { DestinationScope } from '../api/keys';
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

/** What the form holds; the digest's time and zone are sent only when the digest is chosen. */
interface DestinationFormValues {
  kind: DestinationKind;
  url: string;
  events: DestinationEvent[];
  digestTime: string;
  digestTimeZone: string;
}

const FORM_FIELDS = [
  'kind',
  'url',
  'events',
  'digestTime',
  'digestTimeZone',
  'rotationId',
] as const;

type AddScope = Exclude<DestinationScope, { kind: string }>;

/** digestOf: the digest's time and zone when the events include it, else nothing. */
function digestOf(values: DestinationFormValues) {
  return values.events.includes('digest')
    ? { digestTime: values.digestTime, digestTimeZone: values.digestTimeZone }
    : {};
}

/**
 * addResolver checks what an add would send with the shared DestinationInputSchema (the scope
 * included); the form submits the parsed input.
 */
function addResolver(scope: AddScope | undefined): Resolver<DestinationFormValues> {
  const check = zodResolver(DestinationInputSchema);
  return (values, context, options) => {
    const input = { kind: values.kind, url: values.url.trim(), events: values.events };
    return check(
      { ...input, ...digestOf(values), ...scope },
      context,
      options as never,
    ) as ReturnType<Resolver<DestinationFormValues>>;
  };
}

/** Edits are checked by the server only (the URL is optional, the kind fixed). */
const editResolver: Resolver<DestinationFormValues> = (values) => ({ values, errors: {} });

/**
 * DestinationFormDialog adds a destination to a scope (kind, URL, events, digest time), or edits
 * one's events, digest time and URL (its kind stays). Checked by the shared schema first.
 */
export function DestinationFormDialog({
  scope,
  kind: presetKind,
  destination,
  onClose,
  onCreated,
}: {
  scope?: AddScope;
  kind?: DestinationKind;
  destination?: Destination;
  onClose: () => void;
  onCreated: (created: DestinationCreated) => void;
}) {
  const create = useCreateDestination();
  const update = useUpdateDestination();
  const ids = useId();
  const { timeZone: viewerZone } = useTimeFormat();
  const form = useForm<DestinationFormValues>({
    resolver: destination ? editResolver : addResolver(scope),
    // Errors stay as the last submit left them, and nothing takes the focus: as before the form
    // was a react-hook-form one.
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
    defaultValues: {
      kind: destination?.kind ?? presetKind ?? 'slack',
      url: '',
      events: destination?.events ?? ['handoff', 'incident.raised'],
      digestTime: destination?.digestTime ?? '09:00',
      digestTimeZone: destination?.digestTimeZone ?? viewerZone,
    },
  });
  const kind = useWatch({ control: form.control, name: 'kind' });
  const events = useWatch({ control: form.control, name: 'events' });
  const pending = create.isPending || update.isPending;
  const wantsDigest = events.includes('digest');
  const rotationError = (form.formState.errors as { rotationId?: { message?: string } }).rotationId
    ?.message;

  const serverRefused = (error: unknown, title: string, fallback: string) => {
    const fields = fieldErrorsOf(error, FORM_FIELDS);
    if (!fields) {
      notifyError(title, error, fallback);
      return;
    }
    for (const [name, message] of Object.entries(fields)) {
      form.setError(name as keyof DestinationFormValues, { type: 'server', message });
    }
  };

  const submit = (values: DestinationFormValues) => {
    if (destination) {
      const url = values.url.trim();
      update.mutate(
        {
          id: destination.id,
          change: { events: values.events, ...(url ? { url } : {}), ...digestOf(values) },
        },
        {
          onSuccess: () => onCreated({ ...destination, events: values.events }),
          onError: (error) =>
            serverRefused(error, 'Error saving destination', 'It could not be saved.'),
        },
      );
      return;
    }
    // The add resolver hands on the input as the shared schema parsed it.
    create.mutate(values as unknown as DestinationInput, {
      onSuccess: onCreated,
      onError: (error) =>
        serverRefused(error, 'Error adding destination', 'The destination could not be added.'),
    });
  };

  const available = DESTINATION_EVENTS.filter((e) => kind !== 'webhook' || e !== 'digest');

  return (
    <FormDialog open onOpenChange={(next) => (next ? null : onClose())} pending={pending}>
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
        <Form {...form}>
          <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(submit)}>
            {destination ? null : (
              <FormField
                control={form.control}
                name="kind"
                render={({ field }) => (
                  <fieldset className="grid gap-2">
                    <legend className="mb-2 font-medium text-sm">Kind</legend>
                    <div className="flex flex-wrap gap-3">
                      {DESTINATION_KINDS.map((k) => (
                        <label key={k} className="flex items-center gap-2 text-sm">
                          <input
                            type="radio"
                            name={`${ids}-kind`}
                            value={k}
                            checked={field.value === k}
                            onChange={() => {
                              field.onChange(k);
                              if (k === 'webhook') {
                                form.setValue(
                                  'events',
                                  form.getValues('events').filter((e) => e !== 'digest'),
                                );
                              }
                            }}
                          />
                          {DESTINATION_KIND_LABELS[k]}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                )}
              />
            )}
            <FormField
              control={form.control}
              name="url"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{destination ? 'New URL (optional)' : 'Webhook URL'}</FormLabel>
                  <FormControl>
                    <Input
                      {...field}
                      type="url"
                      autoComplete="off"
                      placeholder={destination ? destination.urlHint : 'https://'}
                    />
                  </FormControl>
                  <FormDescription className="text-xs">{URL_HINTS[kind]}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="events"
              render={({ field, fieldState }) => (
                <fieldset
                  className="grid gap-2"
                  aria-describedby={fieldState.error ? `${ids}-events-error` : undefined}
                >
                  <legend className="mb-2 font-medium text-sm">Events to post</legend>
                  {available.map((event) => (
                    <div key={event} className="flex items-center gap-2">
                      <Checkbox
                        id={`${ids}-${event}`}
                        checked={field.value.includes(event)}
                        onCheckedChange={(on) =>
                          field.onChange(
                            on === true
                              ? [...field.value, event]
                              : field.value.filter((e) => e !== event),
                          )
                        }
                      />
                      <Label htmlFor={`${ids}-${event}`} className="font-normal">
                        {DESTINATION_EVENT_LABELS[event]}
                      </Label>
                    </div>
                  ))}
                  {fieldState.error ? (
                    <p id={`${ids}-events-error`} className="text-destructive text-sm">
                      {fieldState.error.message}
                    </p>
                  ) : null}
                </fieldset>
              )}
            />
            {wantsDigest ? (
              <div className="grid gap-3 sm:grid-cols-2">
                <InputField
                  control={form.control}
                  name="digestTime"
                  label="Digest time"
                  type="time"
                />
                <FormField
                  control={form.control}
                  name="digestTimeZone"
                  render={({ field }) => (
                    <FormItem>
                      <FormLabel>Time zone</FormLabel>
                      <FormControl>
                        <TimeZonePicker value={field.value} onChange={field.onChange} />
                      </FormControl>
                      <FormMessage />
                    </FormItem>
                  )}
                />
              </div>
            ) : null}
            {rotationError ? <p className="text-destructive text-sm">{rotationError}</p> : null}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={onClose} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? 'Saving...' : destination ? 'Save destination' : 'Add destination'}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </FormDialog>
  );
}
