import type { AckLink } from '../../../shared/contracts/paging';
import {
  ackLinkExpiresAt,
  ackLinkState,
  PAGE_MESSAGES,
  type Urgency,
} from '../../../shared/domain/paging';
import type { Db, Tx } from '../../db/client';
import { conflict, notFound } from '../../http/errors';
import { findIntegrationNames } from '../integrations/integration-repository';
import { loadNames } from '../users/user-repository';
import { ackTokenMatches, hashMatches, parseAckToken } from './ack-token';
import { markAcknowledged } from './incident-actions';
import { type IncidentDeps, linkStartOf, pageFactsOf, refuseClosed } from './incident-facts';
import { findPageRow, lockIncidentRow, type PageWithRotation } from './incident-repository';
import { pageMessageOf } from './incident-text';

/** The acknowledgement link: no sign-in; the token is the credential. */

async function findByToken(
  db: Db | Tx,
  deps: IncidentDeps,
  token: string,
): Promise<PageWithRotation> {
  const parsed = parseAckToken(token);
  const found = parsed ? await findPageRow(db, parsed.pageId) : undefined;
  if (!found || linkHolder(deps, found.page, token) === undefined) {
    throw notFound(PAGE_MESSAGES.linkInvalid);
  }
  return found;
}

/**
 * linkHolder: whose link a token is. Each person a step notified has their own link, bound to
 * the page, them and when the current people were first notified (a reminder keeps the links; a
 * step to other people, a reassignment, gives new ones: an earlier recipient's link stops working).
 * A token of a page paged before decision 204 matches the stored hash: its target's. Undefined
 * when the token is not a current link; null: the stored link of a page with no recipient.
 */
function linkHolder(
  deps: IncidentDeps,
  page: PageWithRotation['page'],
  token: string,
): number | null | undefined {
  const stepStart = linkStartOf(page);
  for (const userId of page.assigneeIds) {
    const subject = { pageId: page.id, targetUserId: userId, stepStart };
    if (ackTokenMatches(deps.cipher, subject, token)) return userId;
  }
  if (hashMatches(token, page.ackTokenHash)) return page.targetUserId;
  return undefined;
}

async function toAckLink(deps: IncidentDeps, found: PageWithRotation): Promise<AckLink> {
  const { page, rotation } = found;
  const db = deps.database.db;
  const [names, integrations] = await Promise.all([
    loadNames(db, deps.cipher, [page.pagedById, page.targetUserId]),
    findIntegrationNames(db, page.integrationId === null ? [] : [page.integrationId]),
  ]);
  const name = (id: number | null) => (id === null ? null : (names.get(id)?.name ?? null));
  // An integration's incident is paged in its name ("Prometheus paged Ada"), as its messages are.
  const pagedBy =
    page.integrationId === null
      ? name(page.pagedById)
      : (integrations.get(page.integrationId) ?? null);
  return {
    state: ackLinkState(pageFactsOf(page), deps.clock.now()),
    expiresAt: ackLinkExpiresAt(page).toISOString(),
    page: {
      rotationName: rotation.name,
      message: pageMessageOf(page, deps.cipher),
      urgency: page.urgency as Urgency,
      pagedByName: pagedBy,
      recipientName: name(page.targetUserId),
      createdAt: page.createdAt.toISOString(),
      acknowledgedAt: page.acknowledgedAt?.toISOString() ?? null,
      resolvedAt: page.resolvedAt?.toISOString() ?? null,
    },
  };
}

/** readAckLink shows what a link is for, changing nothing (mail scanners may fetch links). */
export async function readAckLink(deps: IncidentDeps, token: string): Promise<AckLink> {
  return toAckLink(deps, await findByToken(deps.database.db, deps, token));
}

/** acknowledgeByLink acknowledges the page a link names: once, while open and not expired. */
export async function acknowledgeByLink(deps: IncidentDeps, token: string): Promise<AckLink> {
  const pageId = await deps.database.db.transaction(async (tx) => {
    const parsed = parseAckToken(token);
    const locked = parsed ? await lockIncidentRow(tx, parsed.pageId) : undefined;
    const holder = locked ? linkHolder(deps, locked.page, token) : undefined;
    if (!locked || locked.rotation === null || holder === undefined) {
      throw notFound(PAGE_MESSAGES.linkInvalid);
    }
    const now = deps.clock.now();
    const state = ackLinkState(pageFactsOf(locked.page), now);
    if (state === 'acknowledged' || state === 'resolved') refuseClosed(state);
    if (state === 'expired') throw conflict(PAGE_MESSAGES.linkExpired);
    await markAcknowledged(tx, deps, locked, { byUserId: holder, via: 'link', now });
    return locked.page.id;
  });
  const found = await findPageRow(deps.database.db, pageId);
  if (!found) throw notFound(PAGE_MESSAGES.notFound);
  return toAckLink(deps, found);
}
