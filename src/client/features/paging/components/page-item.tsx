import type { Page, PageEvent } from '@shared/contracts/paging';
import { ArrowRight, Check, CircleCheck, Forward } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageStatusBadge, UrgencyBadge } from '@/components/incident-badges';
import { LinkedText } from '@/components/linked-text';
import { Button } from '@/components/ui/button';
import { type TimeFormat, useTimeFormat } from '@/lib/use-time-format';
import { useAcknowledgePage } from '../api/acknowledge-page';
import { useResolvePage } from '../api/resolve-page';
import { isNotDelivered, notDeliveredText } from '../lib/delivery-failure-text';
import { EscalatePageDialog } from './escalate-page-dialog';

const name = (person: { name: string } | null | undefined, fallback = 'a deleted user') =>
  person?.name ?? fallback;

/** How an acknowledgement or resolution came in, after the person's name. */
const VIA_TEXT = { app: '', link: ' from the link', sms: ' by SMS reply' } as const;

function eventText(event: PageEvent, fmt: TimeFormat): string {
  switch (event.kind) {
    case 'escalated':
      return `Escalated from ${name(event.from)} to ${name(event.to)}${
        event.automatic ? ' automatically' : ` by ${name(event.actor)}`
      }${event.reason ? `: ${event.reason}` : ''}`;
    case 'acknowledged':
      return event.source
        ? `Acknowledged by ${event.source} (integration)`
        : `Acknowledged by ${name(event.actor)}${VIA_TEXT[event.via ?? 'app']}`;
    case 'resolved':
      return event.source
        ? `Resolved by ${event.source} (integration)`
        : `Resolved by ${name(event.actor)}${VIA_TEXT[event.via ?? 'app']}`;
    case 'backup_notified':
      return `${name(event.to)} told as backup${
        event.until
          ? ` (until ${fmt.dateTime(event.until)})`
          : ' (until the handoff is acknowledged)'
      }`;
    case 'not_delivered':
      return notDeliveredText(event);
    case 'reopened':
      return `Reopened by ${name(event.actor)}${event.reason ? `: ${event.reason}` : ''}`;
  }
}

/**
 * PageItem is one page: who paged whom, when, the message, urgency and state, its history, the
 * next automatic step and what the viewer may do with it.
 */
export function PageItem({ page, showRotation = false }: { page: Page; showRotation?: boolean }) {
  const fmt = useTimeFormat();
  const acknowledge = useAcknowledgePage();
  const resolve = useResolvePage();
  const [escalating, setEscalating] = useState(false);
  const busy = acknowledge.isPending || resolve.isPending;
  const escalatedAway = page.firstTarget && page.target && page.firstTarget.id !== page.target.id;

  return (
    <li className="grid gap-3 px-6 py-4">
      <div className="flex flex-wrap items-center gap-2">
        <PageStatusBadge status={page.status} />
        <UrgencyBadge urgency={page.urgency} />
        {showRotation ? (
          <Link
            to={`/rotations/${page.rotation.id}`}
            className="font-medium text-sm underline-offset-4 hover:underline"
          >
            {page.rotation.name}
          </Link>
        ) : null}
        <Link
          to={`/incidents/${page.id}`}
          className="text-muted-foreground text-xs underline-offset-4 hover:underline"
        >
          Incident #{page.id}
        </Link>
        <time dateTime={page.createdAt} className="ml-auto text-muted-foreground text-xs">
          {fmt.dateTime(page.createdAt)}
        </time>
        {/* A page is an incident (decision 204): its id is the incident's. */}
        <Link
          to={`/incidents/${page.id}`}
          className="font-medium text-primary text-sm underline-offset-4 hover:underline"
        >
          Open incident<span className="sr-only">: {page.message}</span>
        </Link>
      </div>
      <p className="flex flex-wrap items-center gap-1.5 text-sm">
        <span className="font-medium">
          {page.raisedBy.kind === 'user' ? name(page.pagedBy) : page.raisedBy.name}
        </span>
        <span className="text-muted-foreground">paged</span>
        <span className="font-medium">{name(page.firstTarget)}</span>
        {escalatedAway ? (
          <>
            <ArrowRight aria-hidden className="size-3.5 text-muted-foreground" />
            <span className="sr-only">now with</span>
            <span className="font-medium">{name(page.target)}</span>
          </>
        ) : null}
      </p>
      <p className="whitespace-pre-wrap break-words rounded-md border bg-muted/40 px-3 py-2 text-sm">
        <LinkedText text={page.message} />
      </p>
      {page.events.length > 0 ? (
        <ol className="grid gap-1 text-muted-foreground text-xs">
          {page.events.map((event) => (
            <li
              // Several deliveries can fail at the same instant, to different people or channels.
              key={`${event.kind}-${event.at}-${event.to?.id ?? ''}-${event.channel ?? ''}`}
              className={isNotDelivered(event) ? 'font-medium text-destructive' : undefined}
            >
              <time dateTime={event.at}>{fmt.dateTime(event.at)}</time>: {eventText(event, fmt)}
            </li>
          ))}
        </ol>
      ) : null}
      {page.escalatesAt || page.reminderAt ? (
        <p className="text-muted-foreground text-xs">
          {page.reminderAt ? `Reminder ${fmt.dateTime(page.reminderAt)}` : null}
          {page.reminderAt && page.escalatesAt ? ' · ' : null}
          {page.escalatesAt
            ? `Escalates to the next person ${fmt.dateTime(page.escalatesAt)} unless acknowledged`
            : null}
        </p>
      ) : null}
      {page.actions.acknowledge || page.actions.escalate || page.actions.resolve ? (
        <div className="flex flex-wrap gap-2">
          {page.actions.acknowledge ? (
            <Button
              size="sm"
              onClick={() => acknowledge.mutate(page)}
              pending={acknowledge.isPending}
              disabled={busy}
            >
              {acknowledge.isPending ? null : <Check aria-hidden />}
              {acknowledge.isPending ? 'Acknowledging...' : 'Acknowledge'}
            </Button>
          ) : null}
          {page.actions.escalate ? (
            <Button size="sm" variant="outline" onClick={() => setEscalating(true)} disabled={busy}>
              <Forward aria-hidden />
              Escalate
            </Button>
          ) : null}
          {page.actions.resolve ? (
            <Button
              size="sm"
              variant="outline"
              onClick={() => resolve.mutate(page)}
              pending={resolve.isPending}
              disabled={busy}
            >
              {resolve.isPending ? null : <CircleCheck aria-hidden />}
              {resolve.isPending ? 'Resolving...' : 'Resolve'}
            </Button>
          ) : null}
        </div>
      ) : null}
      {page.actions.escalate ? (
        <EscalatePageDialog page={page} open={escalating} onOpenChange={setEscalating} />
      ) : null}
    </li>
  );
}
