import { ESCALATION_TARGET_TYPES } from '../../../shared/contracts/escalation-policies';
import type { TimelineEvent } from '../../../shared/contracts/incidents';
import type { PagePerson } from '../../../shared/contracts/paging';
import type { FieldCipher } from '../../crypto/field-crypto';
import { reasonOf } from '../audit/audit-sealed';
import type { IncidentEventRow, IncidentNotificationRow, IncidentRow } from './incident-repository';
import { toCallEvent, toNotifiedEvent, toRulesSkippedEvent } from './incident-timeline-deliveries';

/**
 * An incident's timeline (decision 205): its stored events and notifications read as the lines
 * the incident screen shows, oldest first. Pure: the reads load the rows and names.
 */

type Person = PagePerson;

const numberOr = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const stringOr = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const arrayOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
    : [];

// ---------------------------------------------------------------------------------------------
// The timeline

const VIAS = ['app', 'link', 'sms', 'integration', 'slack', 'phone'] as const;
const viaOf = (value: unknown) => VIAS.find((v) => v === value);

/** Stored steps and loops are zero-based (as the row's progress); the timeline's one-based. */
const oneBased = (value: unknown) => {
  const n = numberOr(value);
  return n === null ? undefined : n + 1;
};

function notifiedOf(value: unknown, person: (id: number | null) => Person | null) {
  return arrayOf(value).flatMap((n) => {
    const found = person(numberOr(n.userId));
    const reasons = Array.isArray(n.reasons) ? n.reasons.filter((r) => typeof r === 'string') : [];
    return found ? [{ ...found, reasons }] : [];
  });
}

function skippedOf(value: unknown, person: (id: number | null) => Person | null) {
  return arrayOf(value).flatMap((s) => {
    const target = s.target as { type?: unknown; id?: unknown } | undefined;
    const type = ESCALATION_TARGET_TYPES.find((t) => t === target?.type);
    const id = numberOr(target?.id);
    if (!type || id === null) return [];
    return [
      {
        target: { type, id },
        reason: stringOr(s.reason) ?? '',
        person: person(numberOr(s.userId)),
      },
    ];
  });
}

/** sourceOf: the integration an event names (issue 17), as the timeline's `source`. */
function sourceOf(d: Record<string, unknown>): { source?: string } {
  const name = stringOr(d.integrationName);
  return name === null || name === undefined ? {} : { source: name };
}

/** toTimelineEvent reads one stored event as a timeline line; null for what the timeline omits. */
function toTimelineEvent(
  e: IncidentEventRow,
  person: (id: number | null) => Person | null,
  cipher: FieldCipher,
): TimelineEvent | null {
  const d = e.details ?? {};
  const base = { at: e.createdAt.toISOString(), actor: person(e.actorUserId) };
  switch (e.action) {
    case 'incident.raised':
      return { kind: 'raised', ...base, ...sourceOf(d) };
    case 'incident.step_reached':
      return {
        kind: d.reminder === true ? 'reminder' : 'step_reached',
        ...base,
        step: oneBased(d.step),
        loop: oneBased(d.loop),
        notified: notifiedOf(d.notified, person),
        skipped: skippedOf(d.skipped, person),
        automatic: d.automatic === true,
      };
    case 'incident.step_skipped':
      return {
        kind: 'step_skipped',
        ...base,
        step: oneBased(d.step),
        loop: oneBased(d.loop),
        skipReason: stringOr(d.reason) ?? 'nobody to notify',
        skipped: skippedOf(d.skipped, person),
      };
    case 'incident.escalated':
      return {
        kind: 'escalated',
        ...base,
        step: oneBased(d.toStep),
        loop: oneBased(d.loop),
        reason: reasonOf(e, cipher),
        automatic: false,
      };
    case 'incident.reassigned':
      return {
        kind: 'reassigned',
        ...base,
        notified: notifiedOf([{ userId: d.toUserId, reasons: ['reassigned'] }], person),
        reason: reasonOf(e, cipher),
      };
    case 'incident.note':
      return { kind: 'note', ...base, text: reasonOf(e, cipher) ?? '' };
    case 'incident.exhausted':
      return { kind: 'exhausted', ...base };
    case 'page.acknowledged':
      return { kind: 'acknowledged', ...base, via: viaOf(d.via) ?? 'app', ...sourceOf(d) };
    case 'page.resolved': {
      const via = viaOf(d.via);
      const note = reasonOf(e, cipher);
      return {
        kind: 'resolved',
        ...base,
        ...(via ? { via } : {}),
        ...sourceOf(d),
        ...(note ? { text: note } : {}),
      };
    }
    case 'incident.reopened':
      return { kind: 'reopened', ...base, reason: reasonOf(e, cipher) };
    case 'incident.alert':
      return {
        kind: 'alert',
        ...base,
        ...sourceOf(d),
        alertOutcome: d.outcome === 'folded' ? 'folded' : 'updated',
      };
    // Pages raised before issue 16: an escalation to the next member, and the backup's copy.
    case 'page.escalated':
      return {
        kind: 'escalated',
        ...base,
        notified: notifiedOf([{ userId: d.toUserId, reasons: ['next on call'] }], person),
        reason: reasonOf(e, cipher),
        automatic: d.automatic === true,
      };
    case 'incident.rules_skipped':
      return toRulesSkippedEvent(e, person);
    case 'incident.call':
      return toCallEvent(e, person);
    case 'page.backup_notified':
      return {
        kind: 'step_reached',
        ...base,
        notified: notifiedOf([{ userId: d.toUserId, reasons: ['backup'] }], person),
      };
    default:
      return null;
  }
}

/**
 * timelineOf builds an incident's timeline, oldest first: its events, then (at the same instant)
 * the notifications they sent. A page raised before issue 16 has no 'incident.raised' event: its
 * row says when and by whom.
 */
export function timelineOf(
  page: IncidentRow,
  events: readonly IncidentEventRow[],
  sent: readonly IncidentNotificationRow[],
  person: (id: number | null) => Person | null,
  cipher: FieldCipher,
): TimelineEvent[] {
  const lines: { event: TimelineEvent; order: number }[] = [];
  if (!events.some((e) => e.action === 'incident.raised')) {
    lines.push({
      event: { kind: 'raised', at: page.createdAt.toISOString(), actor: person(page.pagedById) },
      order: 0,
    });
  }
  for (const e of events) {
    const event = toTimelineEvent(e, person, cipher);
    if (event) lines.push({ event, order: 1 });
  }
  for (const n of sent) lines.push({ event: toNotifiedEvent(n, person), order: 2 });
  // A stable sort: same instant, the raise first, then the events in id order, then notifications.
  return lines
    .sort((a, b) => a.event.at.localeCompare(b.event.at) || a.order - b.order)
    .map((l) => l.event);
}
