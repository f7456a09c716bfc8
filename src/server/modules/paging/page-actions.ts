import type { Page } from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import {
  canAcknowledgePage,
  canEscalatePage,
  canResolvePage,
  escalationTarget,
  isPageOpen,
  PAGE_MESSAGES,
  type PageStatus,
} from '../../../shared/domain/paging';
import { ROTATION_MESSAGES } from '../../../shared/domain/rotation';
import { AppError, conflict, forbidden, notFound } from '../../http/errors';
import { pageResolvedNotice, publicBaseUrl } from '../notifications/messages';
import { loadRecipients, toInput } from '../notifications/notify';
import { enqueueNotifications } from '../notifications/outbox';
import { closeReplyCodes } from '../sms-replies/reply-codes';
import {
  emailOnly,
  escalationMembers,
  managedFacts,
  type PagingDeps,
  refuseClosed,
} from './page-facts';
import { pageMessageOf } from './page-message';
import { getPage } from './page-reads';
import { escalate, markAcknowledged } from './page-steps';
import { insertPageEvent, listMemberRoles, lockPageRow, updatePageRow } from './paging-repository';
/** What people do to a page in the app: acknowledge, resolve and escalate it. */

/** Where a person acted on a page from: the app, or a reply to its SMS (decision 201). */
export type ActedVia = 'app' | 'sms';

/**
 * acknowledgePage acknowledges a page in the app (or by SMS reply): only its current recipient,
 * while it is open. Locks the page row, so an automatic step racing it either commits first or
 * sends nothing.
 */
export async function acknowledgePage(
  deps: PagingDeps,
  actor: User,
  pageId: number,
  via: ActedVia = 'app',
): Promise<Page> {
  await deps.database.db.transaction(async (tx) => {
    const locked = await lockPageRow(tx, pageId);
    if (!locked) throw notFound(PAGE_MESSAGES.notFound);
    const status = locked.page.status as PageStatus;
    if (locked.page.targetUserId !== actor.id) throw forbidden(PAGE_MESSAGES.notRecipient);
    if (!canAcknowledgePage(actor, { ...locked.page, status })) refuseClosed(status);
    await markAcknowledged(tx, deps, locked, { via, now: deps.clock.now() });
  });
  return getPage(deps, actor, pageId);
}

/**
 * resolvePage closes a page: the pager, the current recipient, administrators and the rotation's
 * managers may, in the app or by SMS reply. The recipient of a page still open is told it needs
 * nothing more; its SMS reply codes close.
 */
export async function resolvePage(
  deps: PagingDeps,
  actor: User,
  pageId: number,
  via: ActedVia = 'app',
): Promise<Page> {
  await deps.database.db.transaction(async (tx) => {
    const locked = await lockPageRow(tx, pageId);
    if (!locked) throw notFound(PAGE_MESSAGES.notFound);
    const { page, rotation } = locked;
    const status = page.status as PageStatus;
    const members = await listMemberRoles(tx, [rotation.id]);
    // Permission first (as if the page were open), then the state: a stranger learns nothing.
    if (!canResolvePage(actor, { ...page, status: 'triggered' }, managedFacts(rotation, members))) {
      throw forbidden(PAGE_MESSAGES.cannotResolve);
    }
    if (status === 'resolved') refuseClosed(status);
    const now = deps.clock.now();
    await updatePageRow(tx, page.id, { status: 'resolved', resolvedAt: now });
    await closeReplyCodes(tx, page.id, now);
    await insertPageEvent(tx, {
      actorUserId: actor.id,
      action: 'page.resolved',
      pageId: page.id,
      details: { rotationName: rotation.name, from: status, ...(via === 'sms' ? { via } : {}) },
      at: now,
    });
    if (!isPageOpen(status) || page.targetUserId === null || page.targetUserId === actor.id) return;
    const people = await loadRecipients(tx, deps.cipher, [page.targetUserId]);
    const target = people.get(page.targetUserId);
    if (!target) return;
    const content = pageResolvedNotice({
      baseUrl: publicBaseUrl(deps.config),
      rotation,
      byName: actor.name,
      message: pageMessageOf(page, deps.cipher),
    });
    await enqueueNotifications(tx, deps.cipher, now, [
      toInput(`page:${page.id}:resolved`, 'page.resolved', target, content, {
        emailOnly: emailOnly(page.urgency),
        pageId: page.id,
      }),
    ]);
  });
  return getPage(deps, actor, pageId);
}

/**
 * escalatePage escalates a page by hand, with a reason, to the next person in the rotation: the
 * recipient, the pager, or anyone who may page the rotation; only while it is unacknowledged.
 */
export async function escalatePage(
  deps: PagingDeps,
  actor: User,
  pageId: number,
  reason: string,
): Promise<Page> {
  await deps.database.db.transaction(async (tx) => {
    const locked = await lockPageRow(tx, pageId);
    if (!locked) throw notFound(PAGE_MESSAGES.notFound);
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
    const toUserId = escalationTarget(escalationMembers(members, rotation.id), page.targetUserId);
    if (toUserId === null) throw conflict(PAGE_MESSAGES.noEscalationTarget);
    await escalate(tx, deps, locked, {
      toUserId,
      reason,
      actorId: actor.id,
      automatic: false,
      now: deps.clock.now(),
    });
  });
  return getPage(deps, actor, pageId);
}
