import {
  type CreateRotationInputSchema,
  LAYERS_NEED_FIXED,
  type Rotation,
  type RotationLayer,
  type UpdateRotationInputSchema,
} from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { DEFAULT_HANDOFF_TIMINGS } from '../../../shared/domain/handoff-flow';
import { can } from '../../../shared/domain/permissions';
import {
  canManageRotation,
  type ManagedRotationFacts,
  managesRotation,
  NOT_MANAGED_MESSAGE,
} from '../../../shared/domain/permissions-rotation';
import { effectiveRoles } from '../../../shared/domain/roles';
import {
  changeTypeRefusal,
  type Refusal,
  ROTATION_MESSAGES,
  type RotationState,
} from '../../../shared/domain/rotation';
import {
  followsWindows,
  isLayered,
  rowFieldsOfLayers,
  storedLayersOf,
} from '../../../shared/domain/rotation-layers';
import { nextHandoffAt, type ShiftPattern } from '../../../shared/domain/shifts';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { AppError, forbidden, notFound } from '../../http/errors';
import {
  listMembersWithPeople,
  listMembersWithUsers,
  type MemberWithRoles,
  type MemberWithUser,
} from '../members/member-reads';
import { announce } from '../notifications/announce';
import { managerIdsOf } from '../notifications/notify';
import { nameOf, type RotationChangedEvent, toldAs } from '../notifications/person-events';
import { countScheduleEntries, listNextScheduleEntries } from '../schedules/schedule-repository';
import { noteShiftChange } from '../shift-changes/shift-changes';
import { personReader } from '../users/person-reader';
import { findUsers } from '../users/user-repository';
import { requireBatonHolders, startMembers } from './rotation-first-members';
import { LAYERED_SHIFT_MESSAGE, requireLayerMembers, startLayers } from './rotation-layer-writes';
import {
  deleteRotationRow,
  findPolicyRow,
  findRotationRow,
  insertAuditEvent,
  insertDefaultPolicies,
  insertRotationRow,
  listRotationsWithLatest,
  lockPolicyRow,
  lockRotationRow,
  type RotationRow,
  type RotationWithLatest,
  updateRotationRow,
} from './rotation-repository';
import { rotationsChangeAt, type TurnFacts, toRotations } from './rotation-view';

/** What the rotation services need from the app. */
export interface RotationDeps {
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
  /** the handoff flow's timings, and PUBLIC_URL/PORT for links in notifications (absent: defaults) */
  config?: Pick<Config, 'handoffTimings' | 'publicUrl' | 'port'>;
}

export const timingsOf = (deps: RotationDeps) =>
  deps.config?.handoffTimings ?? DEFAULT_HANDOFF_TIMINGS;

/**
 * firstHandoffAt returns where a rotation's clock starts from `now`: a fixed rotation's next shift
 * boundary; for a scheduled one `now`, so the engine gives the baton to whoever the schedule names
 * at its next tick (decision 054).
 */
function firstHandoffAt(
  row: Pick<
    RotationRow,
    'type' | 'layers' | 'cadence' | 'timeZone' | 'handoffTime' | 'handoffWeekday'
  >,
  now: Date,
): Date {
  return followsWindows(row) ? now : nextHandoffAt(patternOf(row), now);
}

export const ROTATION_NOT_FOUND = 'Rotation not found';
const POLICY_MISSING = 'That escalation policy does not exist';

type CreateInput = ReturnType<typeof CreateRotationInputSchema.parse>;
type UpdateInput = ReturnType<typeof UpdateRotationInputSchema.parse>;

/** refusalError turns a domain refusal into the coded error the API answers with. */
export function refusalError(refusal: Refusal): AppError {
  return new AppError(
    refusal.code,
    refusal.message,
    refusal.field ? { [refusal.field]: refusal.message } : undefined,
  );
}

export const rolesOf = (m: MemberWithRoles) => effectiveRoles(m.roles, m.role);

export function stateOf(row: RotationRow, members: MemberWithRoles[]): RotationState {
  return {
    type: row.type as RotationState['type'],
    suspended: row.suspended,
    currentOnCallUserId: row.holderUserId,
    members: members.map((m) => ({ userId: m.member.userId, order: m.member.order })),
  };
}

/** patternOf returns the shift pattern of a rotation row. */
export function patternOf(
  row: Pick<RotationRow, 'cadence' | 'timeZone' | 'handoffTime' | 'handoffWeekday'>,
): ShiftPattern {
  return {
    cadence: row.cadence as ShiftPattern['cadence'],
    timeZone: row.timeZone,
    handoffTime: row.handoffTime,
    handoffWeekday: row.handoffWeekday,
  };
}

// ---------------------------------------------------------------------------------------------
// Reads: a fixed number of queries whatever the number of rotations; each user decrypted once.

/** Rotations as read at `at`, and when the passing of time alone could change them. */
export interface RotationsRead {
  rotations: Rotation[];
  at: Date;
  changesAt: Date | null;
}

/** turnFactsOf is what the rotation read found of each rotation's turns (decision 217). */
function turnFactsOf(found: readonly RotationWithLatest[]): TurnFacts {
  return {
    boundary: new Map(found.map((f) => [f.row.id, f.boundary])),
    timeOff: new Map(found.map((f) => [f.row.id, f.away])),
  };
}

async function assemble(
  deps: RotationDeps,
  found: RotationWithLatest[],
  viewer?: User,
): Promise<RotationsRead> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const rows = found.map((f) => f.row);
  const ids = rows.map((r) => r.id);
  const scheduledIds = rows.filter((r) => r.type === 'scheduled').map((r) => r.id);
  const members = await listMembersWithPeople(db, ids);
  const next = await listNextScheduleEntries(db, scheduledIds, now);
  const latest = new Map(found.map((f) => [f.row.id, f.latest]));
  const turns = turnFactsOf(found);
  const timings = timingsOf(deps);
  const readPerson = personReader(deps.cipher, viewer ? [viewer] : []);
  return {
    rotations: toRotations(rows, members, next, readPerson, now, { latest, timings, turns }),
    at: now,
    changesAt: rotationsChangeAt(rows, next, latest, now, timings),
  };
}

/**
 * listRotations returns every rotation, or those `memberUserId` belongs to, by name, with the
 * instant they were read for and the next instant time alone could change them (for the read
 * cache). The viewer (the signed-in user) is already decrypted and is not decrypted again.
 */
export async function listRotations(
  deps: RotationDeps,
  viewer: User,
  filter: { memberUserId?: number } = {},
): Promise<RotationsRead> {
  return assemble(deps, await listRotationsWithLatest(deps.database.db, filter), viewer);
}

/**
 * readRotations returns the rotations with the given ids that exist, as the rotation API answers
 * them now (holder, next on call, backup, members): a fixed number of queries.
 */
export async function readRotations(
  deps: RotationDeps,
  ids: readonly number[],
  viewer?: User,
): Promise<RotationsRead> {
  return assemble(deps, await listRotationsWithLatest(deps.database.db, { ids }), viewer);
}

/** getRotation returns one rotation with its members, or throws 404. */
export async function getRotation(
  deps: RotationDeps,
  id: number,
  viewer?: User,
): Promise<Rotation> {
  const found = await listRotationsWithLatest(deps.database.db, { id });
  if (found.length === 0) throw notFound(ROTATION_NOT_FOUND);
  const { rotations } = await assemble(deps, found, viewer);
  return rotations[0];
}

// ---------------------------------------------------------------------------------------------
// State changes: one transaction each, with the rotation row locked and the rule re-checked.

/** A member read under the rotation's lock: roles for the rules, the user row for the answer. */
export type LockedMember = MemberWithRoles & MemberWithUser;

export interface Locked {
  tx: Tx;
  row: RotationRow;
  members: LockedMember[];
  now: Date;
}

/** inLockedRotation runs `work` in one transaction holding the rotation row's lock (404 if none). */
export async function inLockedRotation<T>(
  deps: RotationDeps,
  id: number,
  work: (locked: Locked) => Promise<T>,
): Promise<T> {
  return deps.database.db.transaction(async (tx) => {
    const row = await lockRotationRow(tx, id);
    if (!row) throw notFound(ROTATION_NOT_FOUND);
    const members = (await listMembersWithUsers(tx, [id])).map((m) => ({
      ...m,
      roles: m.user.roles,
      role: m.user.role,
    }));
    return work({ tx, row, members, now: deps.clock.now() });
  });
}

/**
 * inBatonChange is inLockedRotation for a change of holder. The holder is read once before
 * waiting for the lock: if another request changed hands while this one waited, it answers
 * BATON_HOLDER_CHANGED instead of acting on a state its sender never saw. (Twenty simultaneous
 * passes: one wins, nineteen get 409.)
 */
export async function inBatonChange<T>(
  deps: RotationDeps,
  id: number,
  work: (locked: Locked) => Promise<T>,
): Promise<T> {
  const seen = await findRotationRow(deps.database.db, id);
  if (!seen) throw notFound(ROTATION_NOT_FOUND);
  return inLockedRotation(deps, id, async (locked) => {
    if (locked.row.holderUserId !== seen.holderUserId) {
      throw new AppError('BATON_HOLDER_CHANGED', ROTATION_MESSAGES.holderChanged);
    }
    return work(locked);
  });
}

/** audit records an action on the locked rotation and returns the audit event's id. */
export async function audit(
  locked: Locked,
  actor: User,
  action: string,
  details: Record<string, unknown> = {},
): Promise<number> {
  return insertAuditEvent(locked.tx, {
    actorUserId: actor.id,
    action,
    rotationId: locked.row.id,
    details,
    at: locked.now,
  });
}

const managedFactsOf = (locked: Locked): ManagedRotationFacts => ({
  createdById: locked.row.createdById,
  memberUserIds: locked.members.map((m) => m.member.userId),
});

/**
 * requireManaged throws 403 unless the actor may change the locked rotation: administrators any,
 * managers the rotations they manage (decision 233). Checked under the lock, before any change,
 * so a membership removed meanwhile counts.
 */
export function requireManaged(locked: Locked, actor: User): void {
  if (!canManageRotation(actor, managedFactsOf(locked))) {
    throw forbidden(NOT_MANAGED_MESSAGE);
  }
}

/**
 * tellManagers tells the rotation's managers of a change to its policy or members made by someone
 * who does not manage it (an administrator; decision 233), in the change's transaction. The
 * managers are those before the change.
 */
export async function tellManagers(
  deps: RotationDeps,
  locked: Locked,
  actor: User,
  changeId: number,
  change: (people: ReadonlyMap<number, User>) => RotationChangedEvent['change'],
  namedIds: readonly (number | null)[] = [],
): Promise<void> {
  if (managesRotation(actor, managedFactsOf(locked))) return;
  // The managers as they were before the change; the actor is never told of their own change.
  const managers = managerIdsOf({ ...locked.row, members: locked.members }).filter(
    (id) => id !== actor.id,
  );
  if (managers.length === 0) return;
  const known = locked.members.map((m) => m.user);
  const people = await findUsers(
    locked.tx,
    deps.cipher,
    [actor.id, ...managers, ...namedIds],
    known,
  );
  await announce(locked.tx, deps, locked.now, {
    type: 'rotation.changed',
    key: `rotation-change:${changeId}`,
    at: locked.now,
    told: toldAs(
      'to',
      managers.map((id) => people.get(id)),
    ),
    rotation: { id: locked.row.id, name: locked.row.name },
    actorName: nameOf(people, actor.id) ?? 'An administrator',
    change: change(people),
  });
}

export const personName = (people: ReadonlyMap<number, User>, id: number) =>
  people.get(id)?.name ?? 'A member';

/** createRotation creates a rotation; the time zone defaults to the creator's profile zone. */
export async function createRotation(
  deps: RotationDeps,
  actor: User,
  input: CreateInput,
): Promise<Rotation> {
  const now = deps.clock.now();
  const pattern: ShiftPattern = {
    cadence: input.cadence,
    timeZone: input.timeZone ?? zoneOrUtc(actor.timezone),
    handoffTime: input.handoffTime ?? '09:00',
    handoffWeekday: input.handoffWeekday ?? 1,
  };
  const layers = input.layers ? storedLayersOf(input.layers, null, now) : null;
  const memberIds = input.memberIds ?? [];
  // A fixed rotation made with members has someone on call at once: the first of them unless
  // another is named (decision 255).
  const firstOnCallId =
    input.type === 'fixed' ? (input.firstOnCallId ?? memberIds[0] ?? null) : null;
  const row = await deps.database.db.transaction(async (tx) => {
    if (layers) await requireLayerMembers(tx, layers);
    await requireBatonHolders(
      tx,
      memberIds.map((id, i) => ({ id, field: `memberIds.${i}` })),
      'Members name',
    );
    // Every rotation has a policy: its own default one, made with it (decision 202). The policy
    // names the rotation, so the rotation's id comes first.
    const [id] = await allocateIds(tx, 'rotations');
    const policies = await insertDefaultPolicies(tx, [{ id, name: input.name }], actor.id, now);
    const created = await insertRotationRow(tx, {
      id,
      escalationPolicyId: policies.get(id) as number,
      name: input.name,
      description: input.description,
      type: input.type,
      ...pattern,
      ...(layers ? { ...rowFieldsOfLayers(layers), layers } : {}),
      // A scheduled rotation has no entries yet: nothing to hand off until one is added. A
      // layered one's layers name its first holder now.
      nextHandoffAt: input.type === 'scheduled' ? null : layers ? now : nextHandoffAt(pattern, now),
      createdById: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    await insertAuditEvent(tx, {
      actorUserId: actor.id,
      action: 'rotation.created',
      rotationId: created.id,
      details: {
        name: created.name,
        type: created.type,
        cadence: created.cadence,
        ...(layers ? { layers: layers.length } : {}),
        ...(memberIds.length > 0 ? { memberIds, firstOnCallId } : {}),
      },
      at: now,
    });
    if (layers) await startLayers(tx, deps, created, layers, now);
    if (memberIds.length > 0) {
      await startMembers(tx, deps, created, memberIds, firstOnCallId, actor.id, now);
    }
    return created;
  });
  return getRotation(deps, row.id, actor);
}

/**
 * updateRotation changes any of name, description, type, cadence, time zone, handoff time and
 * escalation policy (which must exist: 400 otherwise).
 * A change of type needs the change-type permission and, to scheduled, a schedule entry.
 */
export async function updateRotation(
  deps: RotationDeps,
  actor: User,
  id: number,
  input: UpdateInput,
): Promise<Rotation> {
  await inLockedRotation(deps, id, async (locked) => {
    requireManaged(locked, actor);
    const { row } = locked;
    const changes: Partial<RotationRow> = {};
    let newPolicyName: string | null = null;
    if (input.name !== undefined && input.name !== row.name) changes.name = input.name;
    if (input.description !== undefined && input.description !== row.description) {
      changes.description = input.description;
    }
    const shiftKeys = ['cadence', 'handoffTime', 'handoffWeekday'] as const;
    const layersGiven = input.layers !== undefined;
    if (isLayered(row) && !layersGiven && shiftKeys.some((k) => input[k] !== undefined)) {
      throw new AppError('VALIDATION_FAILED', LAYERED_SHIFT_MESSAGE, {
        layers: LAYERED_SHIFT_MESSAGE,
      });
    }
    for (const key of ['cadence', 'timeZone', 'handoffTime', 'handoffWeekday'] as const) {
      const value = input[key];
      if (value !== undefined && value !== row[key]) Object.assign(changes, { [key]: value });
    }
    let newLayers: RotationLayer[] | null = null;
    if (input.layers) {
      if ((input.type ?? row.type) === 'scheduled') {
        throw new AppError('VALIDATION_FAILED', LAYERS_NEED_FIXED, { layers: LAYERS_NEED_FIXED });
      }
      newLayers = storedLayersOf(input.layers, row.layers, locked.now);
      await requireLayerMembers(locked.tx, newLayers);
      if (JSON.stringify(newLayers) !== JSON.stringify(row.layers)) {
        Object.assign(changes, { layers: newLayers, ...rowFieldsOfLayers(newLayers) });
      }
    } else if (input.layers === null && row.layers !== null) {
      Object.assign(changes, { layers: null, cadenceEvery: 1 });
      if (row.cadence === 'hourly' && input.cadence === undefined) changes.cadence = 'daily';
    }
    if (
      input.escalationPolicyId !== undefined &&
      input.escalationPolicyId !== row.escalationPolicyId
    ) {
      // Shared with a deletion of the policy: one of the two waits and sees the other.
      const policy = await lockPolicyRow(locked.tx, input.escalationPolicyId, 'share');
      if (!policy) {
        throw new AppError('VALIDATION_FAILED', POLICY_MISSING, {
          escalationPolicyId: POLICY_MISSING,
        });
      }
      changes.escalationPolicyId = input.escalationPolicyId;
      newPolicyName = policy.name;
    }
    if (input.type !== undefined && input.type !== row.type) {
      if (!can(actor.roles, 'rotation.changeType')) {
        throw forbidden('Only administrators can change the rotation type.');
      }
      const refusal = changeTypeRefusal(input.type, await countScheduleEntries(locked.tx, id));
      if (refusal) throw refusalError(refusal);
      changes.type = input.type;
      await audit(locked, actor, 'rotation.type_changed', { from: row.type, to: input.type });
    }
    const patternChanged = ['cadence', 'timeZone', 'handoffTime', 'handoffWeekday', 'layers'].some(
      (k) => k in changes,
    );
    const type = changes.type ?? row.type;
    if (!row.suspended && ('type' in changes || (patternChanged && type === 'fixed'))) {
      changes.nextHandoffAt = firstHandoffAt({ ...row, ...changes }, locked.now);
    }
    if (Object.keys(changes).length === 0) return;
    if ('type' in changes || patternChanged) await noteShiftChange(locked.tx, deps, id, locked.now);
    await updateRotationRow(locked.tx, id, changes, locked.now);
    if (newLayers && 'layers' in changes) {
      await startLayers(locked.tx, deps, { ...row, ...changes }, newLayers, locked.now);
    }
    const changeId = await audit(locked, actor, 'rotation.updated', {
      fields: Object.keys(changes).filter((k) => k !== 'nextHandoffAt'),
    });
    if (newPolicyName !== null) {
      const toName = newPolicyName;
      const before = await findPolicyRow(locked.tx, row.escalationPolicyId);
      await tellManagers(deps, locked, actor, changeId, () => ({
        kind: 'policy',
        fromName: before?.name ?? null,
        toName,
      }));
    }
  });
  return getRotation(deps, id, actor);
}

/** deleteRotation deletes a rotation and everything that belongs to it; the audit trail keeps it. */
export async function deleteRotation(deps: RotationDeps, actor: User, id: number): Promise<void> {
  await inLockedRotation(deps, id, async (locked) => {
    await audit(locked, actor, 'rotation.deleted', { name: locked.row.name });
    await deleteRotationRow(locked.tx, id);
  });
}

/**
 * setSuspended suspends (no next handoff time) or activates a rotation (next handoff recomputed
 * from now). Asking for the state it is already in changes nothing.
 */
export async function setSuspended(
  deps: RotationDeps,
  actor: User,
  id: number,
  suspended: boolean,
): Promise<Rotation> {
  await inLockedRotation(deps, id, async (locked) => {
    if (locked.row.suspended === suspended) return;
    await noteShiftChange(locked.tx, deps, id, locked.now);
    await updateRotationRow(
      locked.tx,
      id,
      {
        suspended,
        nextHandoffAt: suspended ? null : firstHandoffAt(locked.row, locked.now),
      },
      locked.now,
    );
    await audit(locked, actor, suspended ? 'rotation.suspended' : 'rotation.activated');
  });
  return getRotation(deps, id, actor);
}

/** changeType switches between fixed and scheduled; scheduled needs at least one schedule entry. */
export async function changeType(
  deps: RotationDeps,
  actor: User,
  id: number,
  type: RotationState['type'],
): Promise<Rotation> {
  await inLockedRotation(deps, id, async (locked) => {
    if (locked.row.type === type) return;
    const refusal = changeTypeRefusal(type, await countScheduleEntries(locked.tx, id));
    if (refusal) throw refusalError(refusal);
    await noteShiftChange(locked.tx, deps, id, locked.now);
    await updateRotationRow(
      locked.tx,
      id,
      {
        type,
        nextHandoffAt: locked.row.suspended
          ? null
          : firstHandoffAt({ ...locked.row, type }, locked.now),
      },
      locked.now,
    );
    await audit(locked, actor, 'rotation.type_changed', { from: locked.row.type, to: type });
  });
  return getRotation(deps, id, actor);
}
