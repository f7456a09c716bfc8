import type { Page } from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import {
  canAcknowledgePage,
  canEscalatePage,
  canResolvePage,
  PAGE_MESSAGES,
  type PageStatus,
} from '../../../shared/domain/paging';
import { ROTATION_MESSAGES } from '../../../shared/domain/rotation';
import type { Tx } from '../../db/client';
import { AppError, conflict, forbidden, notFound } from '../../http/errors';
import {
  escalateLocked,
  markAcknowledged,
  markResolved,
  requireStillAt,
} from '../incidents/incident-actions';
import { nextPersonStep } from '../incidents/incident-engine';
import { type IncidentDeps, managedFacts, refuseClosed } from '../incidents/incident-facts';
import { lockIncidentRow, type PageWithRotation } from '../incidents/incident-repository';
import { listMemberRoles } from '../members/member-reads';
import { getPage } from './page-reads';

/**
 * What people do to a page through the legacy Page API: acknowledge, resolve and escalate it. A
 * page is an incident (decision 204): these keep the Page API's rules and answers and act through
 * the incident actions' steps, under the incident row's lock. A thin mapping: the steps, the
 * queries and the next person are the incidents module's (decision 239).
 */

/** Where a person acted on a page from: the app, or a reply to its SMS (decision 201). */
export type ActedVia = 'app' | 'sms';

/** inPage runs `work` on a locked page of a rotation (404 when none, or raised on a policy alone). */
async function inPage<T>(
  deps: IncidentDeps,
  pageId: number,
  work: (tx: Tx, locked: PageWithRotation) => Promise<T>,
): Promise<T> {
  return deps.database.db.transaction(async (tx) => {
    const locked = await lockIncidentRow(tx, pageId);
    if (!locked || locked.rotation === null) throw notFound(PAGE_MESSAGES.notFound);
    return work(tx, locked as PageWithRotation);
  });
}

/**
 * acknowledgePage acknowledges a page in the app (or by SMS reply): only a person it is with now,
 * while it is open. Locks the page row, so an automatic step racing it either commits first or
 * sends nothing.
 */
export async function acknowledgePage(
  deps: IncidentDeps,
  actor: User,
  pageId: number,
  via: ActedVia = 'app',
): Promise<Page> {
  await inPage(deps, pageId, async (tx, locked) => {
    const status = locked.page.status as PageStatus;
    const assigned =
      locked.page.assigneeIds.includes(actor.id) || locked.page.targetUserId === actor.id;
    if (!assigned) throw forbidden(PAGE_MESSAGES.notRecipient);
    if (!canAcknowledgePage(actor, { ...locked.page, targetUserId: actor.id, status })) {
      refuseClosed(status);
    }
    await markAcknowledged(tx, deps, locked, { byUserId: actor.id, via, now: deps.clock.now() });
  });
  return getPage(deps, actor, pageId);
}

/**
 * resolvePage closes a page: the pager, the current recipient, administrators and the rotation's
 * managers may, in the app or by SMS reply. The people it was with, if still open, are told it
 * needs nothing more; its SMS reply codes close.
 */
export async function resolvePage(
  deps: IncidentDeps,
  actor: User,
  pageId: number,
  via: ActedVia = 'app',
): Promise<Page> {
  await inPage(deps, pageId, async (tx, locked) => {
    const { page, rotation } = locked;
    const status = page.status as PageStatus;
    const members = await listMemberRoles(tx, [rotation.id]);
    const parties = {
      ...page,
      targetUserId: page.assigneeIds.includes(actor.id) ? actor.id : page.targetUserId,
      status: 'triggered' as const,
    };
    // Permission first (as if the page were open), then the state: a stranger learns nothing.
    if (!canResolvePage(actor, parties, managedFacts(rotation, members))) {
      throw forbidden(PAGE_MESSAGES.cannotResolve);
    }
    if (status === 'resolved') refuseClosed(status);
    await markResolved(tx, deps, locked, { actor, via, now: deps.clock.now() });
  });
  return getPage(deps, actor, pageId);
}

/**
 * escalatePage escalates a page by hand, with a reason, to the next step of its policy that is not
 * a reminder (the Page API's "next person"): the recipient, the pager, or anyone who may page the
 * rotation; only while it is unacknowledged and, with `fromStep`, still at the step the person
 * saw (decision 236). A next step that would reach nobody is refused.
 */
export async function escalatePage(
  deps: IncidentDeps,
  actor: User,
  pageId: number,
  reason: string,
  fromStep?: number,
): Promise<Page> {
  await inPage(deps, pageId, async (tx, locked) => {
    const { page, rotation } = locked;
    const status = page.status as PageStatus;
    const members = await listMemberRoles(tx, [rotation.id]);
    if (
      !canEscalatePage(actor, { ...page, status: 'triggered' }, managedFacts(rotation, members))
    ) {
      throw forbidden(PAGE_MESSAGES.cannotEscalate);
    }
    if (status === 'acknowledged') throw conflict(PAGE_MESSAGES.escalateAcknowledged);
    if (status === 'resolved') refuseClosed(status);
    if (rotation.suspended) {
      throw new AppError('ROTATION_SUSPENDED', ROTATION_MESSAGES.suspendedPaging);
    }
    const now = deps.clock.now();
    // Before looking for the next person: a page that moved on may have no one left after it.
    requireStillAt(page, fromStep, PAGE_MESSAGES.alreadyMoved);
    const toStep = await nextPersonStep(tx, deps, locked, now);
    if (toStep === null) throw conflict(PAGE_MESSAGES.noEscalationTarget);
    await escalateLocked(tx, deps, locked, actor, { reason, toStep, now });
  });
  return getPage(deps, actor, pageId);
}
