import { z } from 'zod';
import { can } from '../domain/permissions';
import type { Actor } from '../domain/roles';
import { idText } from './primitives';

/*
 * The live stream (issue 19, decision 220): `GET /api/events` sends server-sent events that name
 * what changed by kind and id, never what it now says. A browser re-reads the queries that show
 * it, through the usual permission checks.
 */

/** The kinds a change event names; each is written by the triggers of migration 0016. */
export const CHANGE_KINDS = [
  'rotation',
  'handoff',
  'incident',
  'coverage',
  'time-off',
  'user',
  'escalation-policy',
  'integration',
  'invitation',
  'shift-notice',
  'session',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * One change as the stream sends it in an event's data (its SSE `id` is `id`): `entityId` is the
 * row (a time off and a shift notice name their person), `rotationId` the rotation it belongs
 * to, when it belongs to one. An incident's change sent live says whether it `concernsYou`, the
 * stream's viewer (decision 287: notified, assigned, its target or pager, or a member of its
 * rotation); absent (a replay, or when the server could not tell) it may.
 */
export const ChangeEventSchema = z.object({
  id: z.number().int().positive(),
  kind: z.enum(CHANGE_KINDS),
  entityId: z.number().int().nullable(),
  rotationId: z.number().int().nullable(),
  concernsYou: z.boolean().optional(),
});
export type ChangeEvent = z.infer<typeof ChangeEventSchema>;

/** SSE event names: `change` (data: a ChangeEvent), `resync` (re-read everything), `ready`. */
export const LIVE_EVENT_NAMES = { change: 'change', resync: 'resync', ready: 'ready' } as const;

/** how long change events are kept for a browser that reconnects with `Last-Event-ID` */
export const LIVE_REPLAY_WINDOW_MS = 10 * 60_000;

/** a comment line at least this often keeps proxies from closing an idle stream */
export const LIVE_HEARTBEAT_MS = 15_000;

/** the specification's rotations polling, which the page falls back to when the stream fails */
export const LIVE_FALLBACK_POLL_SECONDS = 15;

/** shouldReceiveChange tells whether a stream of a user with these roles is sent the change. */
export function shouldReceiveChange(
  viewer: Actor,
  event: Pick<ChangeEvent, 'kind' | 'entityId'>,
): boolean {
  switch (event.kind) {
    // Session ends concern the server (it re-checks its streams), not the screens.
    case 'session':
      return false;
    case 'invitation':
      return can(viewer.roles, 'invitations.manage');
    // A shift notice is its person's alone.
    case 'shift-notice':
      return event.entityId === viewer.id;
    default:
      return can(viewer.roles, 'rotation.view');
  }
}

/**
 * `GET /api/events?lastEventId=N`: the id a browser saw last, for a stream opened anew (an
 * EventSource that reconnects by itself sends it as the `Last-Event-ID` header instead).
 */
export const LiveStreamQuerySchema = z.object({
  lastEventId: idText({ label: 'lastEventId', column: 'int8' }).optional(),
});
export type LiveStreamQuery = z.infer<typeof LiveStreamQuerySchema>;
