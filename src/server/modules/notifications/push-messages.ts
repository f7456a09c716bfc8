import type { PushNotice } from '../../../shared/contracts/push';
import { URGENCY_LABELS } from '../../../shared/domain/paging';
import { shorten } from './message-layout';
import type { PersonEvent, PersonEventOf, ToldOf } from './person-events';

/**
 * What a push of a page shows (issue 33, decision 253): the incident (its summary, urgency and
 * who raised it), with Acknowledge, the person's own signed one-time link (the email's, decision
 * 062, posted to by the service worker without opening Baton), and Open, the incident. Pure. The
 * links are paths: the service worker resolves them on its own origin.
 */

type PagingEvent = PersonEventOf<'page' | 'page.reminder' | 'page.escalated'>;

const PAGING = new Set<PersonEvent['type']>(['page', 'page.reminder', 'page.escalated']);

/** The path the service worker posts to, to acknowledge with a link's token. */
export const ackPath = (token: string) => `/api/pages/ack/${encodeURIComponent(token)}`;
/** The incident's page in Baton. */
export const incidentPath = (id: number) => `/incidents/${id}`;

const HEADS: Record<PagingEvent['type'], string> = {
  page: 'Page',
  'page.reminder': 'Reminder',
  'page.escalated': 'Escalated page',
};

/** pagePush: the push of a page to one person it reaches, with their own link. */
export function pagePush(event: PagingEvent, told: ToldOf<PagingEvent['type']>): PushNotice {
  const urgency = event.page.urgency;
  const from = event.pagerName ?? 'Someone';
  return {
    title: `${HEADS[event.type]} (${URGENCY_LABELS[urgency].toLowerCase()} urgency): ${shorten(event.message, 90)}`,
    body: `${event.rotation.name}, from ${from}`,
    tag: `incident-${event.page.id}`,
    urgency,
    actions: [
      { action: 'acknowledge', title: 'Acknowledge' },
      { action: 'open', title: 'Open' },
    ],
    data: { open: incidentPath(event.page.id), acknowledge: ackPath(told.ackToken) },
  };
}

/**
 * pagePushOf: the push of a person event for one person told, when it pages them; undefined for
 * any other event (its push is the registry's default: subject and text, opening Baton).
 */
export function pagePushOf(
  event: PersonEvent,
  told: PersonEvent['told'][number],
): PushNotice | undefined {
  if (!PAGING.has(event.type)) return undefined;
  return pagePush(event as PagingEvent, told as ToldOf<PagingEvent['type']>);
}
