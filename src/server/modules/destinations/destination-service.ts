import { isIP } from 'node:net';
import type { z } from 'zod';
import {
  DELIVERY_LOG_SIZE,
  DESTINATION_MESSAGES,
  type Destination,
  type DestinationChange,
  type DestinationCreated,
  type DestinationDeliveryList,
  DestinationDigestSchema,
  type DestinationEvent,
  type DestinationInput,
  type DestinationKind,
  type DestinationList,
  type DestinationListQuerySchema,
} from '../../../shared/contracts/destinations';
import { ErrorCodes } from '../../../shared/contracts/errors';
import type { User } from '../../../shared/contracts/users';
import {
  canViewDestination,
  type DestinationFacts,
  type IntegrationFacts,
  managesDestination,
} from '../../../shared/domain/integrations';
import type {
  ManagedRotationFacts,
  PolicyFacts,
} from '../../../shared/domain/permissions-rotation';
import type { Actor } from '../../../shared/domain/roles';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import { newBearerSecret } from '../../crypto/bearer-secrets';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database, Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { AppError, forbidden, notFound } from '../../http/errors';
import {
  bareHost,
  type HostLookup,
  OutboundRefusal,
  resolveOutbound,
} from '../../http/outbound-address';
import {
  listRotationMemberIds,
  listRotationsUsingPolicies,
  lockTargetPolicy,
  lockTargetRotation,
  type PolicyUser,
} from '../members/member-reads';
import { destinationRule, secretCtx, urlCtx } from './chat-channel';
import {
  type DestinationWithTarget,
  deleteDestinationRow,
  findDestinationRow,
  insertDestinationAuditEvent,
  insertDestinationRow,
  listDeliveryRows,
  listDestinationRows,
  lockDestinationRow,
  lockTargetIntegration,
  updateDestinationRow,
} from './destination-repository';

/**
 * Destinations (issue 19, decision 221): added, listed, changed, tested and deleted by the people
 * who manage their rotation, policy or integration; their URL and secret sealed at rest, the
 * secret shown once. Each change in one transaction with its audit event; each list in a fixed
 * number of statements.
 */

export interface DestinationDeps {
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'port' | 'isProduction' | 'destinationAllowedCidrs'>;
  /** how host names resolve for the address rule (absent: the system's resolver) */
  resolveHost?: HostLookup;
}

// ---------------------------------------------------------------------------------------------
// Who may

interface Deciders {
  members: Map<number, number[]>;
  policyUsers: readonly PolicyUser[];
}

type Target = Pick<DestinationWithTarget, 'rotation' | 'policy'> & {
  /** what the destination belongs to */
  owner: 'rotation' | 'policy' | 'integration';
};

async function loadDeciders(db: Db | Tx, targets: readonly Target[]): Promise<Deciders> {
  const rotationIds = targets.flatMap((t) => (t.rotation ? [t.rotation.id] : []));
  const policyIds = [
    ...new Set(targets.flatMap((t) => (t.policy && !t.rotation ? [t.policy.id] : []))),
  ];
  const members = await listRotationMemberIds(db, rotationIds);
  const policyUsers = await listRotationsUsingPolicies(db, policyIds);
  return { members, policyUsers };
}

function rotationFacts(target: Target, deciders: Deciders): ManagedRotationFacts {
  return {
    createdById: target.rotation?.createdById ?? null,
    memberUserIds: target.rotation ? (deciders.members.get(target.rotation.id) ?? []) : [],
  };
}

function policyFacts(target: Target, deciders: Deciders): PolicyFacts {
  const policyId = target.policy?.id;
  return {
    createdById: target.policy?.createdById ?? null,
    rotations: deciders.policyUsers.filter((r) => r.escalationPolicyId === policyId),
  };
}

function integrationFacts(target: Target, deciders: Deciders): IntegrationFacts {
  return target.rotation
    ? { rotation: rotationFacts(target, deciders) }
    : { policy: policyFacts(target, deciders) };
}

/** destinationFacts reads what the shared rule (managesDestination, canViewDestination) decides on. */
function destinationFacts(target: Target, deciders: Deciders): DestinationFacts {
  if (target.owner === 'rotation')
    return { owner: 'rotation', rotation: rotationFacts(target, deciders) };
  if (target.owner === 'policy') return { owner: 'policy', policy: policyFacts(target, deciders) };
  return { owner: 'integration', integration: integrationFacts(target, deciders) };
}

const mayManage = (actor: Actor, target: Target, deciders: Deciders) =>
  managesDestination(actor, destinationFacts(target, deciders));

const mayView = (actor: Actor, target: Target, deciders: Deciders) =>
  canViewDestination(actor, destinationFacts(target, deciders));

const targetOf = (row: DestinationWithTarget): Target => ({
  rotation: row.rotation,
  policy: row.policy,
  owner: row.destination.rotationId
    ? 'rotation'
    : row.destination.escalationPolicyId
      ? 'policy'
      : 'integration',
});

// ---------------------------------------------------------------------------------------------
// The answer

function toDestination(row: DestinationWithTarget, canManage: boolean): Destination {
  const d = row.destination;
  return {
    id: d.id,
    kind: d.kind as DestinationKind,
    urlHint: d.urlHint,
    rotationId: d.rotationId,
    escalationPolicyId: d.escalationPolicyId,
    integrationId: d.integrationId,
    targetName: d.rotationId
      ? (row.rotation?.name ?? null)
      : d.escalationPolicyId
        ? (row.policy?.name ?? null)
        : (row.integration?.name ?? null),
    events: d.events as DestinationEvent[],
    digestTime: d.digestTime,
    digestTimeZone: d.digestTimeZone,
    failingSince: d.failingSince?.toISOString() ?? null,
    lastDeliveredAt: d.lastDeliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    canManage,
  };
}

// ---------------------------------------------------------------------------------------------
// URLs and secrets

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function fieldError(field: string, message: string): AppError {
  return new AppError(ErrorCodes.VALIDATION_FAILED, `${field}: ${message}`, { [field]: message });
}

/**
 * checkUrl refuses a URL Baton should not post to: https only, but http to a loopback address
 * outside production (a receiver on the same machine, tests). Any host is allowed for Slack:
 * Mattermost and other Slack-compatible servers are self-hosted.
 */
export function checkUrl(deps: Pick<DestinationDeps, 'config'>, raw: string): URL {
  const url = new URL(raw);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && !deps.config.isProduction && LOOPBACK_HOSTS.has(url.hostname)) {
    return url;
  }
  throw fieldError('url', DESTINATION_MESSAGES.urlHttps);
}

/**
 * checkAddress refuses a URL whose host is inside the network (decision 234): an address literal
 * always; a name, in production, by what it resolves to now. The chat channel checks again at
 * each connection, since a name's answer may change after this check.
 */
async function checkAddress(deps: DestinationDeps, url: URL): Promise<void> {
  const host = bareHost(url.hostname);
  try {
    // A resolver that does not answer within seconds is a name not found, not a hung request.
    await withTimeout(
      resolveOutbound(host, destinationRule(deps.config), deps.resolveHost),
      LOOKUP_TIMEOUT_MS,
    );
  } catch (err) {
    if (err instanceof OutboundRefusal) {
      throw fieldError(
        'url',
        `The webhook URL points to ${err.range === 'unspecified' || err.range === 'invalid' ? 'an' : 'a'} ${err.range} address inside the network. ${DESTINATION_MESSAGES.urlInsideNetwork}`,
      );
    }
    throw fieldError('url', DESTINATION_MESSAGES.urlHostNotFound);
  }
}

const LOOKUP_TIMEOUT_MS = 5_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * needsAddressCheck: an address literal is always checked; a name only in production, where what
 * it resolves to decides.
 */
function needsAddressCheck(deps: DestinationDeps, url: URL): boolean {
  return isIP(bareHost(url.hostname)) !== 0 || deps.config.isProduction;
}

/** urlHintOf tells URLs apart without showing them: the host and the last four characters. */
export function urlHintOf(url: URL): string {
  const whole = url.toString();
  return `${url.host} …${whole.slice(-4)}`;
}

function checkDigest(value: z.input<typeof DestinationDigestSchema>): void {
  const parsed = DestinationDigestSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fieldError(String(issue.path[0] ?? 'events'), issue.message);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

type ParsedListQuery = z.output<typeof DestinationListQuerySchema>;

/** listDestinations answers the destinations the viewer may see: four statements. */
export async function listDestinations(
  deps: DestinationDeps,
  viewer: User,
  query: ParsedListQuery,
): Promise<DestinationList> {
  const db = deps.database.db;
  const rows = await listDestinationRows(db, query);
  const targets = rows.map(targetOf);
  const deciders = await loadDeciders(db, targets);
  const actor = viewer;
  return {
    destinations: rows.flatMap((row, i) =>
      mayView(actor, targets[i], deciders)
        ? [toDestination(row, mayManage(actor, targets[i], deciders))]
        : [],
    ),
  };
}

async function readable(deps: DestinationDeps, viewer: User, id: number) {
  const db = deps.database.db;
  const row = await findDestinationRow(db, id);
  if (!row) throw notFound(DESTINATION_MESSAGES.notFound);
  const target = targetOf(row);
  const deciders = await loadDeciders(db, [target]);
  if (!mayView(viewer, target, deciders)) throw forbidden(DESTINATION_MESSAGES.mayNotView);
  return { row, canManage: mayManage(viewer, target, deciders) };
}

export async function getDestination(
  deps: DestinationDeps,
  viewer: User,
  id: number,
): Promise<Destination> {
  const { row, canManage } = await readable(deps, viewer, id);
  return toDestination(row, canManage);
}

/** listDeliveries answers a destination's delivery log, newest first: one statement more. */
export async function listDeliveries(
  deps: DestinationDeps,
  viewer: User,
  id: number,
): Promise<DestinationDeliveryList> {
  await readable(deps, viewer, id);
  const rows = await listDeliveryRows(deps.database.db, id, DELIVERY_LOG_SIZE);
  return {
    deliveries: rows.map((r) => ({
      id: r.id,
      event: r.kind,
      status: r.status as DestinationDeliveryList['deliveries'][number]['status'],
      attempts: r.attempts,
      createdAt: r.createdAt.toISOString(),
      sentAt: r.sentAt?.toISOString() ?? null,
      nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt.toISOString() : null,
      lastError: r.lastError,
      response: r.providerResponse,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Changing

/**
 * managedTarget locks what a new destination would belong to and checks the actor manages it
 * (404 for a missing one, then 403).
 */
async function managedTarget(
  tx: Tx,
  actor: User,
  input: DestinationInput,
): Promise<{ target: Target; integration: { id: number } | null }> {
  let target: Target;
  let integration: { id: number } | null = null;
  if (input.rotationId !== undefined) {
    const rotation = await lockTargetRotation(tx, input.rotationId);
    if (!rotation) throw notFound(DESTINATION_MESSAGES.rotationNotFound);
    target = { rotation, policy: null, owner: 'rotation' };
  } else if (input.escalationPolicyId !== undefined) {
    const policy = await lockTargetPolicy(tx, input.escalationPolicyId);
    if (!policy) throw notFound(DESTINATION_MESSAGES.policyNotFound);
    target = { rotation: null, policy, owner: 'policy' };
  } else {
    const found = await lockTargetIntegration(tx, input.integrationId as number);
    if (!found) throw notFound(DESTINATION_MESSAGES.integrationNotFound);
    const rotation = found.rotationId ? await lockTargetRotation(tx, found.rotationId) : null;
    const policy =
      !rotation && found.escalationPolicyId
        ? await lockTargetPolicy(tx, found.escalationPolicyId)
        : null;
    target = { rotation: rotation ?? null, policy: policy ?? null, owner: 'integration' };
    integration = { id: found.id };
  }
  const deciders = await loadDeciders(tx, [target]);
  if (!mayManage(actor, target, deciders)) {
    throw forbidden(DESTINATION_MESSAGES.mayNotManage);
  }
  return { target, integration };
}

/**
 * createDestination adds a destination to a rotation, policy or integration the actor manages
 * (404 for a missing one, then 403); a webhook's signing secret is answered this once.
 */
export async function createDestination(
  deps: DestinationDeps,
  actor: User,
  input: DestinationInput,
): Promise<DestinationCreated> {
  const url = checkUrl(deps, input.url);
  if (needsAddressCheck(deps, url)) {
    // Who may comes first: a caller refused here learns nothing of what a name resolves to.
    await deps.database.db.transaction((tx) => managedTarget(tx, actor, input));
    await checkAddress(deps, url);
  }
  const digestTime = input.events.includes('digest') ? (input.digestTime ?? null) : null;
  const digestTimeZone = input.events.includes('digest') ? (input.digestTimeZone ?? null) : null;
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const { target, integration } = await managedTarget(tx, actor, input);
    const [id] = await allocateIds(tx, 'destinations');
    const secret = input.kind === 'webhook' ? newBearerSecret('webhook-secret') : undefined;
    await insertDestinationRow(tx, {
      id,
      kind: input.kind,
      urlEnc: deps.cipher.encrypt(url.toString(), urlCtx(id)),
      urlHint: urlHintOf(url),
      secretEnc: secret ? deps.cipher.encrypt(secret, secretCtx(id)) : null,
      rotationId: target.owner === 'rotation' ? (target.rotation?.id ?? null) : null,
      escalationPolicyId: target.owner === 'policy' ? (target.policy?.id ?? null) : null,
      integrationId: integration?.id ?? null,
      events: input.events,
      digestTime,
      digestTimeZone,
      createdById: actor.id,
      createdAt: now,
    });
    await insertDestinationAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'destination.created',
      destinationId: id,
      details: { kind: input.kind, urlHint: urlHintOf(url), events: input.events },
      at: now,
    });
    const row = await findDestinationRow(tx, id);
    const created = toDestination(row as DestinationWithTarget, true);
    return secret ? { ...created, secret } : created;
  });
}

/**
 * inManagedDestination runs `work` holding the destination's row lock, once the actor may manage
 * it; throws NOT_FOUND or FORBIDDEN otherwise.
 */
export async function inManagedDestination<T>(
  deps: DestinationDeps,
  actor: User,
  id: number,
  work: (tx: Tx, row: DestinationWithTarget, now: Date) => Promise<T>,
): Promise<T> {
  return deps.database.db.transaction(async (tx) => {
    if (!(await lockDestinationRow(tx, id))) throw notFound(DESTINATION_MESSAGES.notFound);
    const row = (await findDestinationRow(tx, id)) as DestinationWithTarget;
    const target = targetOf(row);
    const deciders = await loadDeciders(tx, [target]);
    if (!mayManage(actor, target, deciders)) {
      throw forbidden(DESTINATION_MESSAGES.mayNotManage);
    }
    return work(tx, row, deps.clock.now());
  });
}

/** updateDestination changes its URL, events or digest time (not its kind or owner). */
export async function updateDestination(
  deps: DestinationDeps,
  actor: User,
  id: number,
  change: DestinationChange,
): Promise<Destination> {
  const url = change.url === undefined ? undefined : checkUrl(deps, change.url);
  if (url && needsAddressCheck(deps, url)) {
    // Who may comes first, as at creation.
    await inManagedDestination(deps, actor, id, async () => undefined);
    await checkAddress(deps, url);
  }
  return inManagedDestination(deps, actor, id, async (tx, row, now) => {
    const before = row.destination;
    const events = change.events ?? (before.events as DestinationEvent[]);
    const wantsDigest = events.includes('digest');
    const digestTime = wantsDigest
      ? change.digestTime === undefined
        ? before.digestTime
        : change.digestTime
      : null;
    const digestTimeZone = wantsDigest
      ? change.digestTimeZone === undefined
        ? before.digestTimeZone
        : change.digestTimeZone
      : null;
    checkDigest({ kind: before.kind as DestinationKind, events, digestTime, digestTimeZone });
    const fields: string[] = [];
    const values: Parameters<typeof updateDestinationRow>[2] = {
      events,
      digestTime,
      digestTimeZone,
    };
    if (change.events) fields.push('events');
    if (digestTime !== before.digestTime || digestTimeZone !== before.digestTimeZone) {
      fields.push('digest');
    }
    if (url) {
      values.urlEnc = deps.cipher.encrypt(url.toString(), urlCtx(id));
      values.urlHint = urlHintOf(url);
      // A new URL starts afresh: the old one's failures say nothing of it.
      values.failingSince = null;
      values.failingToldAt = null;
      fields.push('url');
    }
    await updateDestinationRow(tx, id, values);
    await insertDestinationAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'destination.updated',
      destinationId: id,
      details: { kind: before.kind, urlHint: values.urlHint ?? before.urlHint, fields },
      at: now,
    });
    const updated = (await findDestinationRow(tx, id)) as DestinationWithTarget;
    return toDestination(updated, true);
  });
}

/** deleteDestination removes it with its delivery log (messages waiting are not sent). */
export async function deleteDestination(
  deps: DestinationDeps,
  actor: User,
  id: number,
): Promise<void> {
  await inManagedDestination(deps, actor, id, async (tx, row, now) => {
    await deleteDestinationRow(tx, id);
    await insertDestinationAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'destination.deleted',
      destinationId: id,
      details: { kind: row.destination.kind, urlHint: row.destination.urlHint },
      at: now,
    });
  });
}
