import { backupAfter, type HandoffFlowTimings, type LatestHandoff } from './handoff-flow';
import {
  canPageRotation,
  type ManagedRotationFacts,
  managesRotation,
} from './permissions-rotation';
import { hasRole, isAdmin, type Role } from './roles';
import { canHoldBaton } from './rotation';

/**
 * The paging flow (specification sections 4 and 9, decision 060): the page goes out at once; a
 * reminder to the recipient and a warning to the pager 15 minutes later if nobody acknowledged
 * it; an automatic escalation to the next person in the rotation at 30 minutes; a manual
 * escalation with a reason at any time. What urgency changes is in URGENCY_POLICY. Pure: `now`
 * comes in, and the server runs each step in a transaction that re-checks the page under a lock.
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
  /** automatic steps are not taken for a page left open longer than this (catch-up bound) */
  automaticStepsWithinMs: number;
}

export const PAGE_TIMINGS: PageTimings = {
  reminderAfterMs: 15 * MINUTE,
  escalateAfterMs: 30 * MINUTE,
  ackLinkValidMs: 24 * 60 * MINUTE,
  automaticStepsWithinMs: 24 * 60 * MINUTE,
};

/** What an urgency changes (decision 060). */
export interface UrgencyPolicy {
  /** true: email only, whatever the recipient's preference; false: the preference decides */
  emailOnly: boolean;
  /** reminder to the recipient and warning to the pager after 15 minutes */
  remind: boolean;
  /** automatic escalation to the next person after 30 minutes */
  autoEscalate: boolean;
  /** a copy to the previous holder while they are backup after a handoff (decision 130) */
  notifyBackup: boolean;
}

export const URGENCY_POLICY: Record<Urgency, UrgencyPolicy> = {
  high: { emailOnly: false, remind: true, autoEscalate: true, notifyBackup: true },
  medium: { emailOnly: false, remind: true, autoEscalate: false, notifyBackup: true },
  low: { emailOnly: true, remind: true, autoEscalate: false, notifyBackup: false },
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

/** reminderAt returns when the reminder for the current recipient is due, or null if none comes. */
export function reminderAt(page: PageFacts, t: PageTimings = PAGE_TIMINGS): Date | null {
  if (!isPageOpen(page.status) || !URGENCY_POLICY[page.urgency].remind) return null;
  return new Date(stepStartOf(page).getTime() + t.reminderAfterMs);
}

/**
 * escalatesAt returns when the page escalates automatically, or null: only a high-urgency page
 * nobody has escalated yet escalates on its own, once (later escalations are by hand).
 */
export function escalatesAt(page: PageFacts, t: PageTimings = PAGE_TIMINGS): Date | null {
  if (page.status !== 'triggered' || !URGENCY_POLICY[page.urgency].autoEscalate) return null;
  return new Date(page.createdAt.getTime() + t.escalateAfterMs);
}

export type PageStep = { kind: 'remind'; stepStart: Date } | { kind: 'escalate' };

/**
 * nextPageStep returns the automatic step due at `now`, or null. After downtime an escalation
 * that is due replaces the reminder it would have followed (no reminder, then an escalation a
 * second later). Nothing is due for an acknowledged or resolved page, or one older than the
 * catch-up bound.
 */
export function nextPageStep(
  page: PageFacts & { reminderSent: boolean; hasEscalationTarget: boolean },
  now: Date,
  t: PageTimings = PAGE_TIMINGS,
): PageStep | null {
  if (!isPageOpen(page.status)) return null;
  const start = stepStartOf(page);
  if (now.getTime() - start.getTime() > t.automaticStepsWithinMs) return null;
  const escalation = escalatesAt(page, t);
  if (escalation && page.hasEscalationTarget && now >= escalation) return { kind: 'escalate' };
  const reminder = reminderAt(page, t);
  if (reminder && !page.reminderSent && now >= reminder)
    return { kind: 'remind', stepStart: start };
  return null;
}

/** What decides whether a new page also goes to the backup. */
export interface PageBackupFacts {
  urgency: Urgency;
  /** who sends the page */
  pagerId: number;
  /** who holds the baton, and so is paged */
  holderId: number;
  /** the rotation's latest handoff (who handed over, when, urgent, acknowledged) */
  latest: LatestHandoff | null;
  /** the rotation's members now */
  memberIds: readonly number[];
}

/**
 * pageBackupOf returns who gets a copy of a new page as backup, or null (decision 130): the
 * previous holder while they are still backup after the latest handoff (`backupAfter`: 15
 * minutes, or until an emergency handoff is acknowledged) and still a member, unless they send
 * the page themselves or its urgency keeps backups out (low).
 */
export function pageBackupOf(
  facts: PageBackupFacts,
  now: Date,
  t: HandoffFlowTimings,
): { userId: number; until: Date | null } | null {
  if (!URGENCY_POLICY[facts.urgency].notifyBackup) return null;
  const backup = backupAfter(facts.latest, facts.holderId, now, t);
  if (!backup || backup.userId === facts.pagerId) return null;
  return facts.memberIds.includes(backup.userId) ? backup : null;
}

/** The member facts escalation reads. */
export interface EscalationMember {
  userId: number;
  order: number;
  roles: readonly Role[];
}

/**
 * escalationTarget returns the next person after `currentTargetId` in the rotation's order
 * (wrapping) who can hold the baton, or null when there is no one else. When the current
 * recipient is no longer a member, the first member who can hold the baton is next.
 */
export function escalationTarget(
  members: readonly EscalationMember[],
  currentTargetId: number | null,
): number | null {
  const ordered = [...members].sort((a, b) => a.order - b.order);
  const at = ordered.findIndex((m) => m.userId === currentTargetId);
  for (let step = 1; step <= ordered.length; step++) {
    const candidate = ordered[(at + step) % ordered.length];
    if (candidate.userId !== currentTargetId && canHoldBaton(candidate.roles)) {
      return candidate.userId;
    }
  }
  return null;
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

/** The people a page names, and the caller. */
export interface PageParties {
  status: PageStatus;
  pagedById: number | null;
  targetUserId: number | null;
}
export interface PageActor {
  id: number;
  roles: readonly Role[];
}

/** canAcknowledgePage tells whether the actor may acknowledge: the current recipient, while open. */
export function canAcknowledgePage(actor: PageActor, page: PageParties): boolean {
  return isPageOpen(page.status) && page.targetUserId === actor.id;
}

/**
 * canResolvePage tells whether the actor may resolve the page: the pager, the current recipient,
 * administrators, and managers of the rotation; never once resolved.
 */
export function canResolvePage(
  actor: PageActor,
  page: PageParties,
  rotation: ManagedRotationFacts,
): boolean {
  if (page.status === 'resolved') return false;
  if (actor.id === page.pagedById || actor.id === page.targetUserId) return true;
  if (isAdmin(actor.roles)) return true;
  return (
    hasRole(actor.roles, 'manager') &&
    managesRotation({ roles: actor.roles, userId: actor.id }, rotation)
  );
}

/**
 * canEscalatePage tells whether the actor may escalate the page by hand: the current recipient,
 * the pager, and anyone who may page the rotation (incident managers, administrators, managers of
 * it), while the page is open.
 */
export function canEscalatePage(
  actor: PageActor,
  page: PageParties,
  rotation: ManagedRotationFacts,
): boolean {
  if (!isPageOpen(page.status)) return false;
  if (actor.id === page.targetUserId || actor.id === page.pagedById) return true;
  return canPageRotation({ roles: actor.roles, userId: actor.id }, rotation);
}
