import type {
  EscalationPolicy,
  EscalationPolicyChangeSchema,
  EscalationPolicyInputSchema,
  EscalationPolicyValue,
  EscalationPreview,
} from '../../../shared/contracts/escalation-policies';
import type { Rotation } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import {
  type EscalationWorld,
  type PersonState,
  type RotationState,
  resolveStep,
} from '../../../shared/domain/escalation';
import { DEFAULT_HANDOFF_TIMINGS } from '../../../shared/domain/handoff-flow';
import { notificationRoute } from '../../../shared/domain/notification-routing';
import {
  canReadPolicy,
  managesPolicy,
  type PolicyFacts,
} from '../../../shared/domain/permissions-rotation';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database, Db, Tx } from '../../db/client';
import { AppError, forbidden, notFound } from '../../http/errors';
import {
  listMembersWithUsers,
  listRotationsUsingPolicies,
  type PolicyUser,
} from '../members/member-reads';
import {
  findPolicyRow,
  findRotationNames,
  listRotationsWithLatest,
  lockPolicyRow,
} from '../rotations/rotation-repository';
import { toRotations } from '../rotations/rotation-view';
import { listNextScheduleEntries } from '../schedules/schedule-repository';
import { personReader } from '../users/person-reader';
import { findUserRows, toUser } from '../users/user-repository';
import {
  deletePolicyRow,
  type EscalationPolicyRow,
  insertPolicyAuditEvent,
  insertPolicyRow,
  listPolicyRows,
  policyValueOf,
  updatePolicyRow,
} from './escalation-policy-repository';

/** What the escalation policy services need from the app. */
export interface EscalationPolicyDeps {
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
}

type PolicyInput = ReturnType<typeof EscalationPolicyInputSchema.parse>;
type PolicyChange = ReturnType<typeof EscalationPolicyChangeSchema.parse>;

export const POLICY_MESSAGES = {
  notFound: 'Escalation policy not found',
  mayNotRead: 'You can only view the escalation policies of your rotations.',
  mayNotEdit:
    'You can only change the escalation policies of rotations you manage (a policy another team follows too is theirs as well).',
  inUse: (names: readonly string[]) =>
    `This policy is used by ${names.join(', ')}; give ${names.length === 1 ? 'that rotation' : 'those rotations'} another policy first.`,
  noRotation: (id: number) => `Rotation ${id} does not exist`,
  noPerson: (id: number) => `Person ${id} does not exist`,
} as const;

function factsOf(row: EscalationPolicyRow, users: readonly PolicyUser[]): PolicyFacts {
  return {
    createdById: row.createdById,
    rotations: users.filter((r) => r.escalationPolicyId === row.id),
  };
}

function toPolicy(row: EscalationPolicyRow, users: readonly PolicyUser[]): EscalationPolicy {
  return {
    id: row.id,
    ...policyValueOf(row),
    rotations: users
      .filter((r) => r.escalationPolicyId === row.id)
      .map((r) => ({ id: r.id, name: r.name })),
  };
}

/** readablePolicy reads one policy the viewer may read (404, then 403). */
async function readablePolicy(
  deps: EscalationPolicyDeps,
  viewer: User,
  id: number,
): Promise<{ row: EscalationPolicyRow; users: PolicyUser[] }> {
  const db = deps.database.db;
  const row = await findPolicyRow(db, id);
  if (!row) throw notFound(POLICY_MESSAGES.notFound);
  const users = await listRotationsUsingPolicies(db, [id]);
  if (!canReadPolicy(viewer, factsOf(row, users))) {
    throw forbidden(POLICY_MESSAGES.mayNotRead);
  }
  return { row, users };
}

/**
 * listPolicies returns the policies the viewer may read, by name, each with the rotations that
 * follow it: three statements whatever their number.
 */
export async function listPolicies(
  deps: EscalationPolicyDeps,
  viewer: User,
): Promise<EscalationPolicy[]> {
  const db = deps.database.db;
  const [rows, users] = await Promise.all([listPolicyRows(db), listRotationsUsingPolicies(db)]);
  return rows
    .filter((row) => canReadPolicy(viewer, factsOf(row, users)))
    .map((row) => toPolicy(row, users));
}

/** getPolicy returns one policy the viewer may read. */
export async function getPolicy(
  deps: EscalationPolicyDeps,
  viewer: User,
  id: number,
): Promise<EscalationPolicy> {
  const { row, users } = await readablePolicy(deps, viewer, id);
  return toPolicy(row, users);
}

/**
 * checkTargets refuses a policy naming a rotation or a person Baton does not have (400 naming the
 * first such target, as a schema refusal names its field), before anything is written.
 */
async function checkTargets(tx: Tx, policy: Pick<EscalationPolicyValue, 'steps'>): Promise<void> {
  const targets = policy.steps.flatMap((step, s) =>
    step.targets.map((target, t) => ({ target, path: `steps.${s}.targets.${t}.id` })),
  );
  const rotationIds = [
    ...new Set(targets.filter((x) => x.target.type !== 'user').map((x) => x.target.id)),
  ];
  const userIds = [
    ...new Set(targets.filter((x) => x.target.type === 'user').map((x) => x.target.id)),
  ];
  const [rotations, people] = await Promise.all([
    findRotationNames(tx, rotationIds),
    userIds.length > 0 ? findUserRows(tx, userIds) : [],
  ]);
  const knownRotations = new Set(rotations.map((r) => r.id));
  const knownPeople = new Set(people.map((p) => p.id));
  const fields: Record<string, string> = {};
  for (const { target, path } of targets) {
    if (target.type === 'user' && !knownPeople.has(target.id)) {
      fields[path] = POLICY_MESSAGES.noPerson(target.id);
    } else if (target.type !== 'user' && !knownRotations.has(target.id)) {
      fields[path] = POLICY_MESSAGES.noRotation(target.id);
    }
  }
  const [first] = Object.entries(fields);
  if (first) throw new AppError('VALIDATION_FAILED', `${first[0]}: ${first[1]}`, fields);
}

/** createPolicy stores a new policy (every target must exist) with its audit event. */
export async function createPolicy(
  deps: EscalationPolicyDeps,
  actor: User,
  input: PolicyInput,
): Promise<EscalationPolicy> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    await checkTargets(tx, input);
    const row = await insertPolicyRow(tx, input, actor.id, now);
    await insertPolicyAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'escalation_policy.created',
      policyId: row.id,
      details: { name: row.name, steps: row.steps.length, repeat: row.repeat },
      at: now,
    });
    return toPolicy(row, []);
  });
}

/**
 * inManagedPolicy runs `work` in one transaction holding the policy row's lock, after checking
 * that the actor manages it (404, then 403).
 */
async function inManagedPolicy<T>(
  deps: EscalationPolicyDeps,
  actor: User,
  id: number,
  work: (tx: Tx, row: EscalationPolicyRow, users: PolicyUser[], now: Date) => Promise<T>,
): Promise<T> {
  return deps.database.db.transaction(async (tx) => {
    const row = await lockPolicyRow(tx, id, 'update');
    if (!row) throw notFound(POLICY_MESSAGES.notFound);
    const users = await listRotationsUsingPolicies(tx, [id]);
    if (!managesPolicy(actor, factsOf(row, users))) {
      throw forbidden(POLICY_MESSAGES.mayNotEdit);
    }
    return work(tx, row, users, deps.clock.now());
  });
}

/** canonical writes a value as JSON with its keys sorted: jsonb keeps keys in its own order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** updatePolicy changes any of name, repeat and steps (every target must exist). */
export async function updatePolicy(
  deps: EscalationPolicyDeps,
  actor: User,
  id: number,
  change: PolicyChange,
): Promise<EscalationPolicy> {
  return inManagedPolicy(deps, actor, id, async (tx, row, users, now) => {
    const before = policyValueOf(row);
    const after: EscalationPolicyValue = {
      name: change.name ?? before.name,
      repeat: change.repeat ?? before.repeat,
      steps: change.steps ?? before.steps,
    };
    const fields = (['name', 'repeat', 'steps'] as const).filter(
      (key) => canonical(after[key]) !== canonical(before[key]),
    );
    if (fields.length === 0) return toPolicy(row, users);
    if (fields.includes('steps')) await checkTargets(tx, after);
    const updated = await updatePolicyRow(tx, id, after, now);
    await insertPolicyAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'escalation_policy.updated',
      policyId: id,
      details: { name: updated.name, fields },
      at: now,
    });
    return toPolicy(updated, users);
  });
}

/** deletePolicy deletes a policy no rotation follows; one in use is refused with their names. */
export async function deletePolicy(
  deps: EscalationPolicyDeps,
  actor: User,
  id: number,
): Promise<void> {
  await inManagedPolicy(deps, actor, id, async (tx, row, users, now) => {
    if (users.length > 0) {
      throw new AppError(
        'ESCALATION_POLICY_IN_USE',
        POLICY_MESSAGES.inUse(users.map((r) => r.name)),
      );
    }
    await insertPolicyAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'escalation_policy.deleted',
      policyId: id,
      details: { name: row.name },
      at: now,
    });
    await deletePolicyRow(tx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// The preview

function rotationStateOf(rotation: Rotation): RotationState {
  return {
    id: rotation.id,
    suspended: rotation.suspended,
    timeZone: rotation.timeZone,
    holderId: rotation.currentOnCallUserId,
    nextId: rotation.nextOnCall?.id ?? null,
    backupId: rotation.backupUserId ?? null,
    memberIds: rotation.members.map((m) => m.userId),
  };
}

/** What the engine and the preview read of the world: the rotations and the people, now. */
export interface LoadedWorld {
  /** the world resolveStep reads (turn 0: the caller sets a round robin's counter) */
  world: EscalationWorld;
  /** the rotations read, as the rotation API answers them */
  rotations: ReadonlyMap<number, Rotation>;
  /** the people who exist among those the policy can reach, decrypted */
  people: ReadonlyMap<number, User>;
}

/**
 * loadEscalationWorld reads, in `db` (a transaction or not), what resolveStep needs for a policy:
 * every rotation it targets and the `ownRotationIds` (whose first is the zone's, else the first
 * rotation it targets) as the rotation API answers them now (holder, next on call, backup,
 * members, suspension, zone), and the people they and its `user` targets name, a person missing
 * being deleted. One world loader for the policy editor's preview and the engine (decision 204):
 * they answer the same thing. A fixed number of queries whatever the policy's size.
 */
export async function loadEscalationWorld(
  db: Db | Tx,
  deps: Pick<EscalationPolicyDeps, 'cipher'> & { config?: Partial<Pick<Config, 'handoffTimings'>> },
  input: {
    policy: Pick<EscalationPolicyValue, 'steps'>;
    ownRotationIds: readonly number[];
    now: Date;
    viewer?: User;
  },
): Promise<LoadedWorld> {
  const { now } = input;
  const targets = input.policy.steps.flatMap((step) => step.targets);
  const rotationIds = [
    ...new Set([
      ...input.ownRotationIds,
      ...targets.filter((t) => t.type !== 'user').map((t) => t.id),
    ]),
  ];
  const found =
    rotationIds.length > 0 ? await listRotationsWithLatest(db, { ids: rotationIds }) : [];
  const rows = found.map((f) => f.row);
  const members = await listMembersWithUsers(
    db,
    rows.map((r) => r.id),
  );
  const next = await listNextScheduleEntries(
    db,
    rows.filter((r) => r.type === 'scheduled').map((r) => r.id),
    now,
  );
  const readPerson = personReader(deps.cipher, input.viewer ? [input.viewer] : []);
  const rotations = toRotations(rows, members, next, readPerson, now, {
    latest: new Map(found.map((f) => [f.row.id, f.latest])),
    timings: deps.config?.handoffTimings ?? DEFAULT_HANDOFF_TIMINGS,
  });
  const byId = new Map(rotations.map((r) => [r.id, r]));
  const personIds = [
    ...new Set([
      ...targets.filter((t) => t.type === 'user').map((t) => t.id),
      ...rotations.flatMap((r) => [
        ...r.members.map((m) => m.userId),
        ...(r.currentOnCallUserId === null ? [] : [r.currentOnCallUserId]),
        ...(r.backupUserId ? [r.backupUserId] : []),
      ]),
    ]),
  ];
  const known = new Map(members.map((m) => [m.user.id, m.user]));
  const missing = personIds.filter((pid) => !known.has(pid));
  const userRows = [
    ...personIds.flatMap((pid) => known.get(pid) ?? []),
    ...(missing.length > 0 ? await findUserRows(db, missing) : []),
  ];
  const people = new Map(userRows.map((userRow) => [userRow.id, toUser(userRow, deps.cipher)]));
  // The zone of the policy's own rotation, else the first rotation it targets.
  const zoneRotation =
    input.ownRotationIds.map((rid) => byId.get(rid)).find(Boolean) ??
    targets.map((t) => (t.type === 'user' ? undefined : byId.get(t.id))).find(Boolean);
  const world: EscalationWorld = {
    rotations: new Map(rotations.map((r) => [r.id, rotationStateOf(r)])),
    people: new Map(
      [...people.values()].map((user): [number, PersonState] => [
        user.id,
        { id: user.id, deleted: false, hasChannel: Boolean(user.email || user.phone) },
      ]),
    ),
    timeZone: zoneRotation?.timeZone ?? 'UTC',
    turn: 0,
  };
  return { world, rotations: byId, people };
}

/**
 * previewPolicy answers, for each step, whom it would notify now: resolveStep (the engine's own
 * rule) over the rotations' current state as the rotation API reads it and the people as stored,
 * each person with the channels their preference picks. Round robin shows the turn a first
 * incident would take (the per-step counter is the engine's, decision 202). A fixed number of
 * queries whatever the policy's size.
 */
export async function previewPolicy(
  deps: EscalationPolicyDeps,
  viewer: User,
  id: number,
): Promise<EscalationPreview> {
  const { row, users } = await readablePolicy(deps, viewer, id);
  const policy = policyValueOf(row);
  const now = deps.clock.now();
  const loaded = await loadEscalationWorld(deps.database.db, deps, {
    policy,
    ownRotationIds: users.map((r) => r.id),
    now,
    viewer,
  });
  const { world } = loaded;
  const people = new Map(
    [...loaded.people.values()].map((user) => {
      const route = notificationRoute(user.notificationPreference, user.phone);
      return [user.id, { user, channels: route.channels }] as const;
    }),
  );
  return {
    policyId: row.id,
    at: now.toISOString(),
    timeZone: world.timeZone,
    steps: policy.steps.map((step, stepIndex) => {
      const resolution = resolveStep(step, world, now);
      return {
        stepIndex,
        delayMinutes: step.delayMinutes,
        assignment: step.assignment,
        status: resolution.kind,
        skipReason: resolution.kind === 'skip' ? resolution.reason : null,
        recipients:
          resolution.kind === 'notify'
            ? resolution.recipients.map((r) => ({
                userId: r.userId,
                name: people.get(r.userId)?.user.name ?? '',
                reasons: r.reasons,
                channels: people.get(r.userId)?.channels ?? [],
              }))
            : [],
        skipped: resolution.skipped.map((s) => ({
          target: s.target,
          reason: s.reason,
          userId: s.userId ?? null,
        })),
      };
    }),
  };
}
