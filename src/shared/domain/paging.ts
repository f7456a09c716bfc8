import {
  canPageRotation,
  type ManagedRotationFacts,
  managesRotation,
} from './permissions-rotation';
import { type Actor, hasRole, isAdmin } from './roles';

/**
 * Pages (specification sections 4 and 9, decision 060): their statuses, timings, urgencies,
 * messages, acknowledgement links and who may act on one. Since decision 204 a page is an
 * incident and its steps are its escalation policy's (escalation.ts): the specification's flow
 * (the page at once, a reminder at 15 minutes, the next person at 30) is every rotation's
 * default policy, built from PAGE_TIMINGS. Pure: `now` comes in.
 */

export const PAGE_STATUSES = ['triggered', 'acknowledged', 'escalated', 'resolved'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];
export type Urgency = 'low' | 'medium' | 'high';

const MINUTE = 60_000;

export interface PageTimings {
  /** reminder to the recipient and warning to the pager, this long after the page (or escalation) */
  reminderAfterMs: number;
  /** automatic escalation this long after the page */
  escalateAfterMs: number;
  /** an acknowledgement link works this long after it was sent */
  ackLinkValidMs: number;
}

export const PAGE_TIMINGS: PageTimings = {
  reminderAfterMs: 15 * MINUTE,
  escalateAfterMs: 30 * MINUTE,
  ackLinkValidMs: 24 * 60 * MINUTE,
};

/**
 * What an urgency changes (decision 060; since decision 204 every urgency climbs its escalation
 * policy, and the steps, reminders and backups are the policy's): low urgency goes by email
 * alone.
 */
export interface UrgencyPolicy {
  /** true: email only, whatever the recipient's preference; false: the preference decides */
  emailOnly: boolean;
}

export const URGENCY_POLICY: Record<Urgency, UrgencyPolicy> = {
  high: { emailOnly: false },
  medium: { emailOnly: false },
  low: { emailOnly: true },
};

export const URGENCY_LABELS: Record<Urgency, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
};

export const PAGE_STATUS_LABELS: Record<PageStatus, string> = {
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  escalated: 'Escalated',
  resolved: 'Resolved',
};

/** The messages of each refusal; the server answers with these. */
export const PAGE_MESSAGES = {
  notFound: 'Page not found',
  notRecipient: 'Only the person this page was sent to can acknowledge it.',
  alreadyAcknowledged: 'This page has already been acknowledged.',
  alreadyResolved: 'This page has already been resolved.',
  cannotResolve: 'Only the person who paged, the person paged, or a manager can resolve this page.',
  cannotEscalate:
    'Only the person paged, or someone who may page this rotation, can escalate this page.',
  escalateAcknowledged:
    'This page has already been acknowledged. Resolve it, or page the rotation again.',
  noEscalationTarget: 'There is no one else in this rotation to escalate to.',
  linkInvalid:
    'This acknowledgement link is not valid. The page may have been escalated to someone else.',
  linkExpired: 'This acknowledgement link has expired. Sign in to Baton to acknowledge the page.',
  reasonRequired: 'Please enter a reason',
  /** an escalation from a step the page has left (decision 236); `step` is one-based */
  alreadyMoved: (step: number) =>
    `This page was already escalated: it is at step ${step} of its escalation policy now. Nothing changed.`,
} as const;

/** The page facts the flow reads. */
export interface PageFacts {
  status: PageStatus;
  urgency: Urgency;
  createdAt: Date;
  escalatedAt: Date | null;
}

/** isPageOpen tells whether a page still waits for acknowledgement: triggered or escalated. */
export function isPageOpen(status: PageStatus): boolean {
  return status === 'triggered' || status === 'escalated';
}

/** stepStartOf returns when the current recipient was paged: the escalation, else the page. */
export function stepStartOf(page: Pick<PageFacts, 'createdAt' | 'escalatedAt'>): Date {
  return page.escalatedAt ?? page.createdAt;
}

/** ackLinkExpiresAt returns when the current recipient's acknowledgement link stops working. */
export function ackLinkExpiresAt(
  page: Pick<PageFacts, 'createdAt' | 'escalatedAt'>,
  t: PageTimings = PAGE_TIMINGS,
): Date {
  return new Date(stepStartOf(page).getTime() + t.ackLinkValidMs);
}

export type AckLinkState = 'open' | 'acknowledged' | 'resolved' | 'expired';

/** ackLinkState tells what an acknowledgement link can do at `now`: only an open one acknowledges. */
export function ackLinkState(
  page: Pick<PageFacts, 'status' | 'createdAt' | 'escalatedAt'>,
  now: Date,
  t: PageTimings = PAGE_TIMINGS,
): AckLinkState {
  if (page.status === 'resolved') return 'resolved';
  if (page.status === 'acknowledged') return 'acknowledged';
  return now >= ackLinkExpiresAt(page, t) ? 'expired' : 'open';
}

/** The people a page names. */
export interface PageParties {
  status: PageStatus;
  pagedById: number | null;
  targetUserId: number | null;
}

/** canAcknowledgePage tells whether the actor may acknowledge: the current recipient, while open. */
export function canAcknowledgePage(actor: Actor, page: PageParties): boolean {
  return isPageOpen(page.status) && page.targetUserId === actor.id;
}

/**
 * canResolvePage tells whether the actor may resolve the page: the pager, the current recipient,
 * administrators, and managers of the rotation; never once resolved.
 */
export function canResolvePage(
  actor: Actor,
  page: PageParties,
  rotation: ManagedRotationFacts,
): boolean {
  if (page.status === 'resolved') return false;
  if (actor.id === page.pagedById || actor.id === page.targetUserId) return true;
  if (isAdmin(actor.roles)) return true;
  return hasRole(actor.roles, 'manager') && managesRotation(actor, rotation);
}

/**
 * canEscalatePage tells whether the actor may escalate the page by hand: the current recipient,
 * the pager, and anyone who may page the rotation (incident managers, administrators, managers of
 * it), while the page is open.
 */
export function canEscalatePage(
  actor: Actor,
  page: PageParties,
  rotation: ManagedRotationFacts,
): boolean {
  if (!isPageOpen(page.status)) return false;
  if (actor.id === page.targetUserId || actor.id === page.pagedById) return true;
  return canPageRotation(actor, rotation);
}
