import type {
  Page,
  PageDeliveryFailure,
  PageEvent,
  PagePerson,
} from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import { isReminderStep, nextEscalation, reachStep } from '../../../shared/domain/escalation';
import {
  canAcknowledgePage,
  canEscalatePage,
  canResolvePage,
  PAGE_MESSAGES,
} from '../../../shared/domain/paging';
import type { FieldCipher } from '../../crypto/field-crypto';
import { notFound } from '../../http/errors';
import { reasonOf } from '../audit/audit-sealed';
import { type IncidentDeps, managedFacts, pageFactsOf } from '../incidents/incident-facts';
import { raisedByOf } from '../incidents/incident-reads';
import {
  type DeliveryFailureRow,
  existingDedupeKeys,
  findPageRow,
  findRotationFacts,
  type IncidentEventRow,
  listDeliveryFailures,
  listIncidentEvents,
  listPagerDeliveryFailures,
  listRotationPageRows,
  listTargetPageRows,
  type PageWithRotation,
} from '../incidents/incident-repository';
import { pageMessageOf } from '../incidents/incident-text';
import { findIntegrationNames } from '../integrations/integration-repository';
import { listMemberRoles, type MemberRoles } from '../members/member-reads';
import { fallbackKeyOf } from '../notifications/outbox';
import { failureReason } from '../notifications/provider-answers';
import { loadNames } from '../users/user-repository';

/**
 * Reading pages as a viewer sees them: the Page API's shape of the incidents' rows, events and
 * failed notifications, which the incidents module reads (decision 239), a fixed number of
 * queries whatever the number of pages.
 */

const numberOr = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function peopleIn(
  rows: PageWithRotation[],
  events: IncidentEventRow[],
  failures: readonly DeliveryFailureRow[],
): (number | null)[] {
  return [
    ...failures.map((f) => f.userId),
    ...rows.flatMap((r) => [r.page.pagedById, r.page.targetUserId]),
    ...events.flatMap((e) => [
      e.actorUserId,
      numberOr(e.details?.fromUserId),
      numberOr(e.details?.toUserId),
      ...notifiedOf(e),
    ]),
  ];
}

/** integrationOf: the integration a page came from, by its name now; null when none or deleted. */
function integrationOf(id: number | null, names: ReadonlyMap<number, string>) {
  const name = id === null ? undefined : names.get(id);
  return id === null || name === undefined ? null : { id, name };
}

function toPages(
  rows: PageWithRotation[],
  events: IncidentEventRow[],
  members: MemberRoles[],
  { names, integrations }: { names: Map<number, PagePerson>; integrations: Map<number, string> },
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
  const eventsByPage = new Map<string, IncidentEventRow[]>();
  for (const e of events) {
    const list = eventsByPage.get(e.targetId ?? '') ?? [];
    list.push(e);
    eventsByPage.set(e.targetId ?? '', list);
  }
  return rows.map(({ page, rotation }) => {
    const own = legacyEvents(eventsByPage.get(String(page.id)) ?? []);
    const firstEscalation = own.find((e) => e.action === 'page.escalated');
    const firstTargetId = firstEscalation
      ? numberOr(firstEscalation.details?.fromUserId)
      : page.targetUserId;
    const timers = legacyTimers(page, rotation.suspended);
    const pageFacts = pageFactsOf(page);
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
      raisedBy: raisedByOf(
        page,
        (eventsByPage.get(String(page.id)) ?? []).find((e) => e.action === 'incident.raised'),
        person,
        integrationOf(page.integrationId, integrations),
      ),
      firstTarget: person(firstTargetId),
      target: person(page.targetUserId),
      message: pageMessageOf(page, cipher),
      urgency: pageFacts.urgency,
      status: pageFacts.status,
      createdAt: page.createdAt.toISOString(),
      acknowledgedAt: page.acknowledgedAt?.toISOString() ?? null,
      escalatedAt: page.escalatedAt?.toISOString() ?? null,
      resolvedAt: page.resolvedAt?.toISOString() ?? null,
      reminderAt: timers.reminderAt,
      escalatesAt: timers.escalatesAt,
      step: page.stepIndex + 1,
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

/** The people an 'incident.step_reached' event notified, in order. */
const notifiedOf = (e: IncidentEventRow): number[] =>
  e.action === 'incident.step_reached' && Array.isArray(e.details?.notified)
    ? (e.details.notified as { userId?: unknown }[]).flatMap((n) =>
        typeof n.userId === 'number' ? [n.userId] : [],
      )
    : [];

/**
 * legacyEvents reads an incident's timeline as the Page API's history (decision 204): a step that
 * reached other people than the step before, or a reassignment, is an escalation line (from the
 * first person the step before notified, to the first this one did, with the hand's reason); the
 * other incident events have no line there.
 */
function legacyEvents(events: readonly IncidentEventRow[]): IncidentEventRow[] {
  const out: IncidentEventRow[] = [];
  let current: number | null = null;
  let byHand: IncidentEventRow | null = null;
  for (const e of events) {
    if (e.action === 'incident.escalated') {
      byHand = e;
      continue;
    }
    if (e.action === 'incident.step_reached' || e.action === 'incident.reassigned') {
      const to =
        e.action === 'incident.reassigned' ? numberOr(e.details?.toUserId) : notifiedOf(e)[0];
      if (current !== null && to !== undefined && to !== null && to !== current) {
        const hand = e.action === 'incident.reassigned' ? e : byHand;
        out.push({
          ...(hand ?? e),
          action: 'page.escalated',
          createdAt: e.createdAt,
          details: {
            ...(hand?.details ?? {}),
            fromUserId: current,
            toUserId: to,
            automatic: hand === null,
          },
        });
      }
      if (to !== undefined && to !== null) current = to;
      byHand = null;
      continue;
    }
    if (e.action.startsWith('incident.') && e.action !== 'incident.reopened') continue;
    out.push(e);
  }
  return out;
}

/** legacyTimers: when the next reminder and escalation of an open page fall, on its policy. */
function legacyTimers(page: PageWithRotation['page'], suspended: boolean) {
  const none = { reminderAt: null, escalatesAt: null };
  const open = page.status === 'triggered' || page.status === 'escalated';
  if (suspended || !open || page.exhaustedAt !== null) return none;
  const progress = {
    stepIndex: page.stepIndex,
    loop: page.loop,
    stepStartedAt: page.stepStartedAt,
    stepSkipped: page.stepSkipped,
  };
  const next = nextEscalation(page.policy, progress, page.stepStartedAt);
  if (next.kind !== 'step') return none;
  if (!isReminderStep(page.policy, next.stepIndex) || next.stepIndex === 0) {
    return { reminderAt: null, escalatesAt: next.at.toISOString() };
  }
  const after = nextEscalation(page.policy, reachStep(next, next.at), next.at);
  return {
    reminderAt: next.at.toISOString(),
    escalatesAt: after.kind === 'step' ? after.at.toISOString() : null,
  };
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
    channel: f.channel === 'sms' || f.channel === 'voice' ? f.channel : 'email',
    reason: failureReason(f.lastError, f.providerResponse),
    fallbackChannel: fallbackOf(f, fallbacks),
  };
}

function toEvent(
  e: IncidentEventRow,
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
  if (e.action === 'incident.reopened') {
    return { kind: 'reopened', at, actor, reason: reasonOf(e, cipher) };
  }
  const via = e.details?.via;
  // An integration acknowledges or resolves when its alert clears: it is named, not a person.
  const source =
    via === 'integration' && typeof e.details?.integrationName === 'string'
      ? { source: e.details.integrationName }
      : {};
  if (e.action === 'page.acknowledged') {
    return {
      kind: 'acknowledged',
      at,
      actor,
      via: via === 'link' || via === 'sms' ? via : 'app',
      ...source,
    };
  }
  return { kind: 'resolved', at, actor, ...(via === 'sms' ? { via } : {}), ...source };
}

async function assemble(deps: IncidentDeps, rows: PageWithRotation[], viewer: User) {
  const db = deps.database.db;
  if (rows.length === 0) return [];
  const events = await listIncidentEvents(
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
  const integrations = await findIntegrationNames(
    db,
    rows.flatMap((r) => (r.page.integrationId === null ? [] : [r.page.integrationId])),
  );
  return toPages(rows, events, members, { names, integrations }, viewer, deps.cipher, {
    rows: failed,
    fallbacks,
  });
}

/** how long the pager is shown a failed delivery of a page still open */
const PAGER_NOTICE_MS = 24 * 3_600_000;

/**
 * listDeliveryFailuresFor returns, newest first, the notifications about the open pages the viewer
 * sent that failed for good in the last 24 hours (decision 163): the pager's notice in the app.
 */
export async function listDeliveryFailuresFor(
  deps: IncidentDeps,
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
    channel: f.channel === 'sms' || f.channel === 'voice' ? f.channel : 'email',
    reason: failureReason(f.lastError, f.providerResponse),
    at: f.at.toISOString(),
    fallbackChannel: fallbackOf(f, fallbacks),
  }));
}

/** listRotationPages returns a rotation's page history, newest first, or throws 404. */
export async function listRotationPages(
  deps: IncidentDeps,
  viewer: User,
  rotationId: number,
  page: { limit: number; before?: number },
): Promise<Page[]> {
  const rotation = await findRotationFacts(deps.database.db, rotationId);
  if (!rotation) throw notFound('Rotation not found');
  return assemble(deps, await listRotationPageRows(deps.database.db, rotation, page), viewer);
}

/** listPagesFor returns the unresolved pages whose current recipient is the viewer, newest first. */
export async function listPagesFor(deps: IncidentDeps, viewer: User): Promise<Page[]> {
  return assemble(deps, await listTargetPageRows(deps.database.db, viewer.id, 50), viewer);
}

/** getPage returns one page as the viewer sees it, or throws 404. */
export async function getPage(deps: IncidentDeps, viewer: User, pageId: number): Promise<Page> {
  const found = await findPageRow(deps.database.db, pageId);
  if (!found) throw notFound(PAGE_MESSAGES.notFound);
  const [page] = await assemble(deps, [found], viewer);
  return page;
}
