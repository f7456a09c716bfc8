import { inArray } from 'drizzle-orm';
import type {
  AckLink,
  Page,
  PageDeliveryFailure,
  PageEvent,
  PagePerson,
} from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import type { HandoffFlowTimings } from '../../../shared/domain/handoff-flow';
import {
  ackLinkExpiresAt,
  ackLinkState,
  canAcknowledgePage,
  canEscalatePage,
  canResolvePage,
  escalatesAt,
  escalationTarget,
  isPageOpen,
  nextPageStep,
  PAGE_MESSAGES,
  PAGE_TIMINGS,
  type PageFacts,
  type PageStatus,
  pageBackupOf,
  reminderAt,
  stepStartOf,
  URGENCY_POLICY,
  type Urgency,
} from '../../../shared/domain/paging';
import type { ManagedRotationFacts } from '../../../shared/domain/permissions-rotation';
import { effectiveRoles } from '../../../shared/domain/roles';
import { ROTATION_MESSAGES } from '../../../shared/domain/rotation';
import type { Clock } from '../../clock';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database, Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { users } from '../../db/schema';
import { AppError, conflict, forbidden, notFound } from '../../http/errors';
import {
  pageAcknowledgedNotice,
  pageBackupMessage,
  pageEscalatedNotice,
  pageEscalatedToYouMessage,
  pageMessage,
  pageReminderMessage,
  pageResolvedNotice,
  pageWarningMessage,
  publicBaseUrl,
} from '../notifications/messages';
import { loadRecipients, type NotifyDeps, toInput } from '../notifications/notify';
import {
  enqueueNotifications,
  fallbackKeyOf,
  type NotificationInput,
} from '../notifications/outbox';
import { failureReason } from '../notifications/provider-answers';
import { toUser, type UserRow } from '../users/user-repository';
import {
  type AckSubject,
  ackToken,
  ackUrl,
  hashAckToken,
  hashMatches,
  parseAckToken,
  storedAckToken,
} from './ack-token';
import { pageMessageOf, reasonOf, sealReason } from './page-message';
import {
  type DeliveryFailureRow,
  existingDedupeKeys,
  findLatestHandoff,
  findPageRow,
  findRotationFacts,
  insertPageEvent,
  insertPageRow,
  listDeliveryFailures,
  listMemberRoles,
  listPageEvents,
  listPagerDeliveryFailures,
  listRotationPageRows,
  listTargetPageRows,
  listTimerCandidates,
  lockPageRow,
  type MemberRoles,
  type PageEventRow,
  type PageRow,
  type PageWithRotation,
  updatePageRow,
} from './paging-repository';

/** What the paging services need from the app. */
export interface PagingDeps extends NotifyDeps {
  database: Database;
  clock: Clock;
}

const facts = (page: PageRow): PageFacts => ({
  status: page.status as PageStatus,
  urgency: page.urgency as Urgency,
  createdAt: page.createdAt,
  escalatedAt: page.escalatedAt,
});

const subjectOf = (page: PageRow): AckSubject | null =>
  page.targetUserId === null
    ? null
    : { pageId: page.id, targetUserId: page.targetUserId, stepStart: stepStartOf(page) };

const escalationMembers = (members: readonly MemberRoles[], rotationId: number) =>
  members
    .filter((m) => m.rotationId === rotationId)
    .map((m) => ({ userId: m.userId, order: m.order, roles: effectiveRoles(m.roles, m.role) }));

const managedFacts = (
  rotation: PageWithRotation['rotation'],
  members: readonly MemberRoles[],
): ManagedRotationFacts => ({
  createdById: rotation.createdById,
  memberUserIds: members.filter((m) => m.rotationId === rotation.id).map((m) => m.userId),
});

const emailOnly = (urgency: string) => URGENCY_POLICY[urgency as Urgency]?.emailOnly ?? false;

// ---------------------------------------------------------------------------------------------
// Sending a page: called by the rotation service inside its transaction, with the rotation locked.

/**
 * triggerPage records a page to the holder and puts the page in the outbox for them, with an
 * acknowledgement link, in the caller's transaction; while the previous holder is backup after a
 * handoff, they get a copy (decision 130). Who may page, and whether anyone holds the baton, the
 * caller has already decided.
 */
export async function triggerPage(
  tx: Tx,
  deps: NotifyDeps,
  input: {
    rotation: { id: number; name: string };
    pager: User;
    target: UserRow;
    /** the user rows of the rotation's members, read by the caller under the rotation's lock */
    members: readonly UserRow[];
    message: string;
    urgency: Urgency;
    now: Date;
    /** the deployment's handoff timings: how long the previous holder stays backup */
    handoffTimings: HandoffFlowTimings;
  },
): Promise<PageRow> {
  const inserted = await insertPageRow(tx, deps.cipher, {
    rotationId: input.rotation.id,
    pagedById: input.pager.id,
    targetUserId: input.target.id,
    message: input.message,
    urgency: input.urgency,
    createdAt: input.now,
  });
  const token = ackToken(deps.cipher, {
    pageId: inserted.id,
    targetUserId: input.target.id,
    stepStart: input.now,
  });
  const page = await updatePageRow(tx, inserted.id, { ackTokenHash: hashAckToken(token) });
  const target = toUser(input.target, deps.cipher);
  const baseUrl = publicBaseUrl(deps.config);
  const content = pageMessage({
    baseUrl,
    rotation: input.rotation,
    pagerName: input.pager.name,
    message: input.message,
    urgency: input.urgency,
    ackUrl: ackUrl(baseUrl, token),
    createdAt: input.now,
    timeZone: target.timezone,
  });
  const inputs = [
    toInput(`page:${page.id}:sent`, 'page', target, content, {
      emailOnly: emailOnly(page.urgency),
      pageId: page.id,
    }),
  ];
  const backup = pageBackupOf(
    {
      urgency: input.urgency,
      pagerId: input.pager.id,
      holderId: input.target.id,
      latest: await findLatestHandoff(tx, input.rotation.id),
      memberIds: input.members.map((m) => m.id),
    },
    input.now,
    input.handoffTimings,
  );
  const backupUser = backup
    ? (await loadRecipients(tx, deps.cipher, [backup.userId], input.members)).get(backup.userId)
    : undefined;
  if (backup && backupUser) {
    const copy = pageBackupMessage({
      baseUrl,
      rotation: input.rotation,
      pagerName: input.pager.name,
      holderName: target.name,
      message: input.message,
      urgency: input.urgency,
      createdAt: input.now,
      timeZone: backupUser.timezone,
      backupUntil: backup.until,
    });
    inputs.push(
      toInput(`page:${page.id}:backup`, 'page.backup', backupUser, copy, {
        emailOnly: emailOnly(page.urgency),
        pageId: page.id,
      }),
    );
    await insertPageEvent(tx, {
      actorUserId: null,
      action: 'page.backup_notified',
      pageId: page.id,
      details: {
        rotationName: input.rotation.name,
        toUserId: backup.userId,
        until: backup.until?.toISOString() ?? null,
      },
      at: input.now,
    });
  }
  await enqueueNotifications(tx, deps.cipher, input.now, inputs);
  return page;
}

// ---------------------------------------------------------------------------------------------
// Acknowledge, resolve, escalate

/** markAcknowledged acknowledges a locked open page and tells the pager. */
async function markAcknowledged(
  tx: Tx,
  deps: NotifyDeps,
  locked: PageWithRotation,
  how: { via: 'app' | 'link'; now: Date },
): Promise<void> {
  const { page, rotation } = locked;
  await updatePageRow(tx, page.id, { status: 'acknowledged', acknowledgedAt: how.now });
  await insertPageEvent(tx, {
    actorUserId: page.targetUserId,
    action: 'page.acknowledged',
    pageId: page.id,
    details: { via: how.via, rotationName: rotation.name },
    at: how.now,
  });
  if (page.pagedById === null || page.pagedById === page.targetUserId) return;
  const people = await loadRecipients(tx, deps.cipher, [page.pagedById, page.targetUserId]);
  const pager = people.get(page.pagedById);
  if (!pager) return;
  const byName =
    page.targetUserId === null
      ? 'The recipient'
      : (people.get(page.targetUserId)?.name ?? 'The recipient');
  const content = pageAcknowledgedNotice({
    baseUrl: publicBaseUrl(deps.config),
    rotation,
    byName,
    at: how.now,
    timeZone: pager.timezone,
  });
  await enqueueNotifications(tx, deps.cipher, how.now, [
    toInput(`page:${page.id}:acknowledged`, 'page.acknowledged', pager, content, {
      emailOnly: emailOnly(page.urgency),
      pageId: page.id,
    }),
  ]);
}

function refuseClosed(status: PageStatus): never {
  throw conflict(
    status === 'resolved' ? PAGE_MESSAGES.alreadyResolved : PAGE_MESSAGES.alreadyAcknowledged,
  );
}

/**
 * acknowledgePage acknowledges a page in the app: only its current recipient, while it is open.
 * Locks the page row, so an automatic step racing it either commits first or sends nothing.
 */
export async function acknowledgePage(
  deps: PagingDeps,
  actor: User,
  pageId: number,
): Promise<Page> {
  await deps.database.db.transaction(async (tx) => {
    const locked = await lockPageRow(tx, pageId);
    if (!locked) throw notFound(PAGE_MESSAGES.notFound);
    const status = locked.page.status as PageStatus;
    if (locked.page.targetUserId !== actor.id) throw forbidden(PAGE_MESSAGES.notRecipient);
    if (!canAcknowledgePage(actor, { ...locked.page, status })) refuseClosed(status);
    await markAcknowledged(tx, deps, locked, { via: 'app', now: deps.clock.now() });
  });
  return getPage(deps, actor, pageId);
}

/**
 * resolvePage closes a page: the pager, the current recipient, administrators and the rotation's
 * managers may. The recipient of a page still open is told it needs nothing more.
 */
export async function resolvePage(deps: PagingDeps, actor: User, pageId: number): Promise<Page> {
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
    await insertPageEvent(tx, {
      actorUserId: actor.id,
      action: 'page.resolved',
      pageId: page.id,
      details: { rotationName: rotation.name, from: status },
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
 * escalate moves a locked open page to the next person: a new recipient with a new link, the
 * history kept as an event, the new recipient paged and the pager told.
 */
async function escalate(
  tx: Tx,
  deps: NotifyDeps,
  locked: PageWithRotation,
  step: { toUserId: number; reason: string; actorId: number | null; automatic: boolean; now: Date },
): Promise<void> {
  const { page, rotation } = locked;
  const { now } = step;
  const token = ackToken(deps.cipher, {
    pageId: page.id,
    targetUserId: step.toUserId,
    stepStart: now,
  });
  await updatePageRow(tx, page.id, {
    status: 'escalated',
    escalatedAt: now,
    targetUserId: step.toUserId,
    ackTokenHash: hashAckToken(token),
  });
  // The reason is what people type about the page: sealed like its text (decision 163).
  const [eventId] = await allocateIds(tx, 'audit_events');
  await insertPageEvent(tx, {
    id: eventId,
    actorUserId: step.actorId,
    action: 'page.escalated',
    pageId: page.id,
    details: {
      rotationName: rotation.name,
      fromUserId: page.targetUserId,
      toUserId: step.toUserId,
      ...sealReason(deps.cipher, eventId, step.reason),
      automatic: step.automatic,
    },
    at: now,
  });
  const people = await loadRecipients(tx, deps.cipher, [
    page.pagedById,
    page.targetUserId,
    step.toUserId,
  ]);
  const baseUrl = publicBaseUrl(deps.config);
  const eventKey = `page:${page.id}:escalation:${now.getTime()}`;
  const options = { emailOnly: emailOnly(page.urgency), pageId: page.id };
  const inputs: NotificationInput[] = [];
  const next = people.get(step.toUserId);
  const pagerName = page.pagedById === null ? null : (people.get(page.pagedById)?.name ?? null);
  const fromName =
    page.targetUserId === null ? null : (people.get(page.targetUserId)?.name ?? null);
  if (next) {
    inputs.push(
      toInput(
        eventKey,
        'page.escalated',
        next,
        pageEscalatedToYouMessage({
          baseUrl,
          rotation,
          pagerName,
          message: pageMessageOf(page, deps.cipher),
          urgency: page.urgency as Urgency,
          ackUrl: ackUrl(baseUrl, token),
          createdAt: page.createdAt,
          timeZone: next.timezone,
          fromName,
          reason: step.reason,
          escalatedAt: now,
        }),
        options,
      ),
    );
  }
  const pager = page.pagedById === null ? undefined : people.get(page.pagedById);
  if (pager && pager.id !== step.toUserId && pager.id !== step.actorId) {
    inputs.push(
      toInput(
        eventKey,
        'page.escalation_notice',
        pager,
        pageEscalatedNotice({
          baseUrl,
          rotation,
          fromName,
          toName: next?.name ?? 'the next person',
          reason: step.reason,
          automatic: step.automatic,
        }),
        options,
      ),
    );
  }
  await enqueueNotifications(tx, deps.cipher, now, inputs);
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

// ---------------------------------------------------------------------------------------------
// The acknowledgement link: no sign-in; the token is the credential.

async function findByToken(db: Db | Tx, token: string): Promise<PageWithRotation> {
  const parsed = parseAckToken(token);
  const found = parsed ? await findPageRow(db, parsed.pageId) : undefined;
  if (!found || !hashMatches(token, found.page.ackTokenHash)) {
    throw notFound(PAGE_MESSAGES.linkInvalid);
  }
  return found;
}

async function toAckLink(deps: PagingDeps, found: PageWithRotation): Promise<AckLink> {
  const { page, rotation } = found;
  const names = await loadNames(deps.database.db, deps.cipher, [page.pagedById, page.targetUserId]);
  const name = (id: number | null) => (id === null ? null : (names.get(id)?.name ?? null));
  return {
    state: ackLinkState(facts(page), deps.clock.now()),
    expiresAt: ackLinkExpiresAt(page).toISOString(),
    page: {
      rotationName: rotation.name,
      message: pageMessageOf(page, deps.cipher),
      urgency: page.urgency as Urgency,
      pagedByName: name(page.pagedById),
      recipientName: name(page.targetUserId),
      createdAt: page.createdAt.toISOString(),
      acknowledgedAt: page.acknowledgedAt?.toISOString() ?? null,
      resolvedAt: page.resolvedAt?.toISOString() ?? null,
    },
  };
}

/** readAckLink shows what a link is for, changing nothing (mail scanners may fetch links). */
export async function readAckLink(deps: PagingDeps, token: string): Promise<AckLink> {
  return toAckLink(deps, await findByToken(deps.database.db, token));
}

/** acknowledgeByLink acknowledges the page a link names: once, while open and not expired. */
export async function acknowledgeByLink(deps: PagingDeps, token: string): Promise<AckLink> {
  const pageId = await deps.database.db.transaction(async (tx) => {
    const parsed = parseAckToken(token);
    const locked = parsed ? await lockPageRow(tx, parsed.pageId) : undefined;
    if (!locked || !hashMatches(token, locked.page.ackTokenHash)) {
      throw notFound(PAGE_MESSAGES.linkInvalid);
    }
    const now = deps.clock.now();
    const state = ackLinkState(facts(locked.page), now);
    if (state === 'acknowledged' || state === 'resolved') refuseClosed(state);
    if (state === 'expired') throw conflict(PAGE_MESSAGES.linkExpired);
    await markAcknowledged(tx, deps, locked, { via: 'link', now });
    return locked.page.id;
  });
  const found = await findPageRow(deps.database.db, pageId);
  if (!found) throw notFound(PAGE_MESSAGES.notFound);
  return toAckLink(deps, found);
}

// ---------------------------------------------------------------------------------------------
// Reads: a fixed number of queries whatever the number of pages; names decrypted once each.

/** loadNames reads and decrypts only the names of the users (one query). */
async function loadNames(
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
  if (e.action === 'page.acknowledged') {
    return { kind: 'acknowledged', at, actor, via: e.details?.via === 'link' ? 'link' : 'app' };
  }
  return { kind: 'resolved', at, actor };
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

// ---------------------------------------------------------------------------------------------
// The clock: reminders, warnings and automatic escalations (an engine task).

const reminderKeys = (page: PageRow) => {
  const base = `page:${page.id}:reminder:${stepStartOf(page).getTime()}:${page.targetUserId}`;
  return [`${base}:email`, `${base}:sms`];
};

export interface PageTimerReport {
  reminded: number;
  escalated: number;
}

/**
 * runPageTimers takes every automatic paging step due at `now`. Idempotent: a step runs in its own
 * transaction holding the page row's lock and re-checks the page there, so an acknowledgement
 * that commits first means nothing is sent, and a repeated or concurrent run sends nothing twice
 * (the escalation is conditional on the status; reminders carry a dedupe key).
 */
export async function runPageTimers(deps: PagingDeps, now: Date): Promise<PageTimerReport> {
  const db = deps.database.db;
  const report: PageTimerReport = { reminded: 0, escalated: 0 };
  const candidates = await listTimerCandidates(db, {
    oldest: new Date(now.getTime() - PAGE_TIMINGS.automaticStepsWithinMs),
    latest: new Date(now.getTime() - PAGE_TIMINGS.reminderAfterMs),
  });
  if (candidates.length === 0) return report;
  const members = await listMemberRoles(
    db,
    candidates.map((c) => c.rotation.id),
  );
  const sent = await existingDedupeKeys(
    db,
    candidates.flatMap((c) => reminderKeys(c.page)),
  );
  for (const { page, rotation } of candidates) {
    const step = nextPageStep(
      {
        ...facts(page),
        reminderSent: reminderKeys(page).some((k) => sent.has(k)),
        hasEscalationTarget:
          escalationTarget(escalationMembers(members, rotation.id), page.targetUserId) !== null,
      },
      now,
    );
    if (!step) continue;
    const done = await runStep(deps, page.id, now);
    if (done === 'escalate') report.escalated += 1;
    if (done === 'remind') report.reminded += 1;
  }
  return report;
}

/** runStep takes the step due for one page, deciding again under the page row's lock. */
async function runStep(
  deps: PagingDeps,
  pageId: number,
  now: Date,
): Promise<'remind' | 'escalate' | null> {
  return deps.database.db.transaction(async (tx) => {
    const locked = await lockPageRow(tx, pageId);
    // Acknowledged, resolved or gone while we were looking: nothing to send.
    if (!locked || locked.rotation.suspended || !isPageOpen(locked.page.status as PageStatus)) {
      return null;
    }
    const { page, rotation } = locked;
    const members = escalationMembers(await listMemberRoles(tx, [rotation.id]), rotation.id);
    const next = escalationTarget(members, page.targetUserId);
    const step = nextPageStep(
      { ...facts(page), reminderSent: false, hasEscalationTarget: next !== null },
      now,
    );
    if (!step) return null;
    if (step.kind === 'escalate' && next !== null) {
      await escalate(tx, deps, locked, {
        toUserId: next,
        reason: 'Not acknowledged within 30 minutes',
        actorId: null,
        automatic: true,
        now,
      });
      return 'escalate';
    }
    return (await remind(tx, deps, locked, next, now)) ? 'remind' : null;
  });
}

/** remind sends the reminder to the recipient and the warning to the pager, once per recipient. */
async function remind(
  tx: Tx,
  deps: PagingDeps,
  locked: PageWithRotation,
  nextUserId: number | null,
  now: Date,
): Promise<boolean> {
  const { page, rotation } = locked;
  const subject = subjectOf(page);
  if (!subject) return false;
  const people = await loadRecipients(tx, deps.cipher, [
    page.pagedById,
    page.targetUserId,
    nextUserId,
  ]);
  const target = people.get(subject.targetUserId);
  if (!target) return false;
  // The same link as the page itself; a new one only if the key it was made with is gone.
  let token = storedAckToken(deps.cipher, subject, page.ackTokenHash);
  if (!token) {
    token = ackToken(deps.cipher, subject);
    await updatePageRow(tx, page.id, { ackTokenHash: hashAckToken(token) });
  }
  const baseUrl = publicBaseUrl(deps.config);
  const pageFacts = facts(page);
  const escalation = nextUserId === null ? null : escalatesAt(pageFacts);
  const pager = page.pagedById === null ? undefined : people.get(page.pagedById);
  const eventKey = `page:${page.id}:reminder:${subject.stepStart.getTime()}`;
  const options = { emailOnly: emailOnly(page.urgency), pageId: page.id };
  const inputs: NotificationInput[] = [
    toInput(
      eventKey,
      'page.reminder',
      target,
      pageReminderMessage({
        baseUrl,
        rotation,
        pagerName: pager?.name ?? null,
        message: pageMessageOf(page, deps.cipher),
        urgency: pageFacts.urgency,
        ackUrl: ackUrl(baseUrl, token),
        createdAt: subject.stepStart,
        timeZone: target.timezone,
        escalatesAt: escalation,
      }),
      options,
    ),
  ];
  if (pager && pager.id !== target.id) {
    const nextName = nextUserId === null ? null : (people.get(nextUserId)?.name ?? null);
    inputs.push(
      toInput(
        eventKey,
        'page.warning',
        pager,
        pageWarningMessage({
          baseUrl,
          rotation,
          targetName: target.name,
          message: pageMessageOf(page, deps.cipher),
          sentAt: subject.stepStart,
          escalation: escalation && nextName ? { at: escalation, toName: nextName } : null,
          timeZone: pager.timezone,
        }),
        options,
      ),
    );
  }
  return (await enqueueNotifications(tx, deps.cipher, now, inputs)) > 0;
}
