import { inArray } from 'drizzle-orm';
import type {
  Page,
  PageDeliveryFailure,
  PageEvent,
  PagePerson,
} from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import {
  canAcknowledgePage,
  canEscalatePage,
  canResolvePage,
  escalatesAt,
  PAGE_MESSAGES,
  reminderAt,
} from '../../../shared/domain/paging';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { fallbackKeyOf } from '../notifications/outbox';
import { failureReason } from '../notifications/provider-answers';
import { facts, managedFacts, type PagingDeps } from './page-facts';
import { pageMessageOf, reasonOf } from './page-message';
import {
  type DeliveryFailureRow,
  existingDedupeKeys,
  findPageRow,
  findRotationFacts,
  listDeliveryFailures,
  listMemberRoles,
  listPageEvents,
  listPagerDeliveryFailures,
  listRotationPageRows,
  listTargetPageRows,
  type MemberRoles,
  type PageEventRow,
  type PageWithRotation,
} from './paging-repository';
/** Reading pages as a viewer sees them: a fixed number of queries whatever the number of pages. */

/** loadNames reads and decrypts only the names of the users (one query). */
export async function loadNames(
  db: Db | Tx,
  cipher: FieldCipher,
  ids: readonly (number | null | undefined)[],
): Promise<Map<number, PagePerson>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, nameEnc: users.nameEnc })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        name: cipher.decrypt(r.nameEnc, { table: 'users', column: 'name', rowId: r.id }),
      },
    ]),
  );
}

const numberOr = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function peopleIn(
  rows: PageWithRotation[],
  events: PageEventRow[],
  failures: readonly DeliveryFailureRow[],
): (number | null)[] {
  return [
    ...failures.map((f) => f.userId),
    ...rows.flatMap((r) => [r.page.pagedById, r.page.targetUserId]),
    ...events.flatMap((e) => [
      e.actorUserId,
      numberOr(e.details?.fromUserId),
      numberOr(e.details?.toUserId),
    ]),
  ];
}

function toPages(
  rows: PageWithRotation[],
  events: PageEventRow[],
  members: MemberRoles[],
  names: Map<number, PagePerson>,
  viewer: User,
  cipher: FieldCipher,
  failures: { rows: readonly DeliveryFailureRow[]; fallbacks: ReadonlySet<string> },
): Page[] {
  const person = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
  const failuresByPage = new Map<number, PageEvent[]>();
  for (const f of failures.rows) {
    const list = failuresByPage.get(f.pageId) ?? [];
    list.push(toFailureEvent(f, failures.fallbacks, person));
    failuresByPage.set(f.pageId, list);
  }
  const eventsByPage = new Map<string, PageEventRow[]>();
  for (const e of events) {
    const list = eventsByPage.get(e.targetId ?? '') ?? [];
    list.push(e);
    eventsByPage.set(e.targetId ?? '', list);
  }
  return rows.map(({ page, rotation }) => {
    const own = eventsByPage.get(String(page.id)) ?? [];
    const firstEscalation = own.find((e) => e.action === 'page.escalated');
    const firstTargetId = firstEscalation
      ? numberOr(firstEscalation.details?.fromUserId)
      : page.targetUserId;
    const pageFacts = facts(page);
    const parties = {
      status: pageFacts.status,
      pagedById: page.pagedById,
      targetUserId: page.targetUserId,
    };
    const rotationFacts = managedFacts(rotation, members);
    return {
      id: page.id,
      rotation: { id: rotation.id, name: rotation.name },
      pagedBy: person(page.pagedById),
      firstTarget: person(firstTargetId),
      target: person(page.targetUserId),
      message: pageMessageOf(page, cipher),
      urgency: pageFacts.urgency,
      status: pageFacts.status,
      createdAt: page.createdAt.toISOString(),
      acknowledgedAt: page.acknowledgedAt?.toISOString() ?? null,
      escalatedAt: page.escalatedAt?.toISOString() ?? null,
      resolvedAt: page.resolvedAt?.toISOString() ?? null,
      reminderAt: rotation.suspended ? null : (reminderAt(pageFacts)?.toISOString() ?? null),
      escalatesAt: rotation.suspended ? null : (escalatesAt(pageFacts)?.toISOString() ?? null),
      events: [
        ...own.map((e) => toEvent(e, person, cipher)),
        ...(failuresByPage.get(page.id) ?? []),
      ].sort((a, b) => a.at.localeCompare(b.at)),
      actions: {
        acknowledge: canAcknowledgePage(viewer, parties),
        resolve: canResolvePage(viewer, parties, rotationFacts),
        escalate: !rotation.suspended && canEscalatePage(viewer, parties, rotationFacts),
      },
    };
  });
}

const otherChannel = (channel: string) => (channel === 'email' ? 'sms' : 'email');

/** the channel a failed notification was sent by instead, if it was (decision 163) */
function fallbackOf(f: DeliveryFailureRow, fallbacks: ReadonlySet<string>) {
  if (f.userId === null) return null;
  const other = otherChannel(f.channel);
  return fallbacks.has(fallbackKeyOf(f.id, f.userId, other)) ? other : null;
}

const fallbackKeysOf = (rows: readonly DeliveryFailureRow[]) =>
  rows.flatMap((f) =>
    f.userId === null ? [] : [fallbackKeyOf(f.id, f.userId, otherChannel(f.channel))],
  );

/** toFailureEvent is the page history's line for a notification that failed for good. */
function toFailureEvent(
  f: DeliveryFailureRow,
  fallbacks: ReadonlySet<string>,
  person: (id: number | null) => PagePerson | null,
): PageEvent {
  return {
    kind: 'not_delivered',
    at: f.at.toISOString(),
    actor: null,
    to: person(f.userId),
    channel: f.channel === 'sms' ? 'sms' : 'email',
    reason: failureReason(f.lastError, f.providerResponse),
    fallbackChannel: fallbackOf(f, fallbacks),
  };
}

function toEvent(
  e: PageEventRow,
  person: (id: number | null) => PagePerson | null,
  cipher: FieldCipher,
): PageEvent {
  const at = e.createdAt.toISOString();
  const actor = person(e.actorUserId);
  if (e.action === 'page.escalated') {
    return {
      kind: 'escalated',
      at,
      actor,
      from: person(numberOr(e.details?.fromUserId)),
      to: person(numberOr(e.details?.toUserId)),
      reason: reasonOf(e, cipher),
      automatic: e.details?.automatic === true,
    };
  }
  if (e.action === 'page.backup_notified') {
    return {
      kind: 'backup_notified',
      at,
      actor,
      to: person(numberOr(e.details?.toUserId)),
      until: typeof e.details?.until === 'string' ? e.details.until : null,
    };
  }
  const via = e.details?.via;
  if (e.action === 'page.acknowledged') {
    return { kind: 'acknowledged', at, actor, via: via === 'link' || via === 'sms' ? via : 'app' };
  }
  return { kind: 'resolved', at, actor, ...(via === 'sms' ? { via } : {}) };
}

async function assemble(deps: PagingDeps, rows: PageWithRotation[], viewer: User) {
  const db = deps.database.db;
  if (rows.length === 0) return [];
  const events = await listPageEvents(
    db,
    rows.map((r) => r.page.id),
  );
  const members = await listMemberRoles(
    db,
    rows.map((r) => r.rotation.id),
  );
  const failed = await listDeliveryFailures(
    db,
    rows.map((r) => r.page.id),
  );
  const fallbacks = await existingDedupeKeys(db, fallbackKeysOf(failed));
  const names = await loadNames(db, deps.cipher, peopleIn(rows, events, failed));
  return toPages(rows, events, members, names, viewer, deps.cipher, { rows: failed, fallbacks });
}

/** how long the pager is shown a failed delivery of a page still open */
const PAGER_NOTICE_MS = 24 * 3_600_000;

/**
 * listDeliveryFailuresFor returns, newest first, the notifications about the open pages the viewer
 * sent that failed for good in the last 24 hours (decision 163): the pager's notice in the app.
 */
export async function listDeliveryFailuresFor(
  deps: PagingDeps,
  viewer: User,
): Promise<PageDeliveryFailure[]> {
  const db = deps.database.db;
  const since = new Date(deps.clock.now().getTime() - PAGER_NOTICE_MS);
  const rows = await listPagerDeliveryFailures(db, viewer.id, since, 20);
  if (rows.length === 0) return [];
  const fallbacks = await existingDedupeKeys(db, fallbackKeysOf(rows));
  const names = await loadNames(
    db,
    deps.cipher,
    rows.map((r) => r.userId),
  );
  return rows.map((f) => ({
    id: f.id,
    pageId: f.pageId,
    rotation: f.rotation,
    to: f.userId === null ? null : (names.get(f.userId) ?? null),
    channel: f.channel === 'sms' ? 'sms' : 'email',
    reason: failureReason(f.lastError, f.providerResponse),
    at: f.at.toISOString(),
    fallbackChannel: fallbackOf(f, fallbacks),
  }));
}

/** listRotationPages returns a rotation's page history, newest first, or throws 404. */
export async function listRotationPages(
  deps: PagingDeps,
  viewer: User,
  rotationId: number,
  page: { limit: number; before?: number },
): Promise<Page[]> {
  const rotation = await findRotationFacts(deps.database.db, rotationId);
  if (!rotation) throw notFound('Rotation not found');
  return assemble(deps, await listRotationPageRows(deps.database.db, rotation, page), viewer);
}

/** listPagesFor returns the unresolved pages whose current recipient is the viewer, newest first. */
export async function listPagesFor(deps: PagingDeps, viewer: User): Promise<Page[]> {
  return assemble(deps, await listTargetPageRows(deps.database.db, viewer.id, 50), viewer);
}

/** getPage returns one page as the viewer sees it, or throws 404. */
export async function getPage(deps: PagingDeps, viewer: User, pageId: number): Promise<Page> {
  const found = await findPageRow(deps.database.db, pageId);
  if (!found) throw notFound(PAGE_MESSAGES.notFound);
  const [page] = await assemble(deps, [found], viewer);
  return page;
}
