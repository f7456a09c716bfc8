import type { User } from '../../../shared/contracts/users';
import type { Database } from '../../db/client';
import type { EngineTask } from '../../engine/engine-task';
import { announce } from '../notifications/announce';
import {
  type TimeOffCollisionEvent,
  type TimeOffGapEvent,
  type Told,
  toldAs,
} from '../notifications/person-events';
import { listRotationManagers } from '../rotations/rotation-repository';
import { findUsers, listUsersWithRoles } from '../users/user-repository';
import { findWarnings } from './time-off-service';

/**
 * The engine's time-off notices (issue 18, decision 217): a rotation's managers hear, by their
 * channels, of each gap that comes within GAP_WARNING_DAYS (nobody available: everyone away) and
 * of each upcoming schedule entry whose person has time off in it. Whatever made them (time off
 * recorded, a member removed, the clock), the next tick finds them; each is told once per
 * manager (the outbox's dedupe key). A rotation without managers tells the administrators.
 */

/**
 * A gap by its rotation and end: a gap under way starts at the tick's `now` (the rest of the turn
 * under way), so its start moves on every tick; its end does not, nor when a gap told ahead comes
 * to be under way.
 */
const gapKey = (rotationId: number, end: Date) => `time-off-gap:${rotationId}:${end.toISOString()}`;
const collisionKey = (entryId: number, timeOffId: number) =>
  `time-off-collision:${entryId}:${timeOffId}`;

/**
 * Notices this process has written, by database (key → until when to remember it): a gap stays
 * in view on every tick until it passes, and this spares a transaction per tick that would only
 * find it in the outbox already. The dedupe key is the guarantee, not this.
 */
const writtenByDatabase = new WeakMap<Database, Map<string, number>>();

function memoOf(database: Database): Map<string, number> {
  let memo = writtenByDatabase.get(database);
  if (!memo) {
    memo = new Map();
    writtenByDatabase.set(database, memo);
  }
  return memo;
}

/** One notice to write: its key, its rotation, and its event once the people are read. */
interface Planned {
  key: string;
  until: number;
  rotation: { id: number; name: string };
  /** the person the notice is about, named in it */
  personId?: number;
  event: (
    people: ReadonlyMap<number, User>,
    told: Told[],
  ) => TimeOffGapEvent | TimeOffCollisionEvent;
}

/** timeOffNoticesTask tells managers of the gaps ahead and of entries that collide with time off. */
export const timeOffNoticesTask: EngineTask = async (deps, now) => {
  const memo = memoOf(deps.database);
  for (const [key, until] of memo) if (until <= now.getTime()) memo.delete(key);
  const found = await findWarnings(deps, now);
  const planned: Planned[] = [
    ...found.gaps.map((g) => ({
      key: gapKey(g.rotation.id, g.end),
      until: g.end.getTime(),
      rotation: { id: g.rotation.id, name: g.rotation.name },
      event: (_people: ReadonlyMap<number, User>, told: Told[]): TimeOffGapEvent => ({
        type: 'time_off.gap',
        key: gapKey(g.rotation.id, g.end),
        at: now,
        told,
        rotation: { id: g.rotation.id, name: g.rotation.name },
        start: g.start,
        end: g.end,
      }),
    })),
    ...found.collisions.map((x) => ({
      key: collisionKey(x.entry.id, x.timeOff.id),
      until: x.entry.end.getTime(),
      rotation: x.rotation,
      personId: x.entry.userId,
      event: (people: ReadonlyMap<number, User>, told: Told[]): TimeOffCollisionEvent => ({
        type: 'time_off.collision',
        key: collisionKey(x.entry.id, x.timeOff.id),
        at: now,
        told,
        rotation: { id: x.rotation.id, name: x.rotation.name },
        personName: people.get(x.entry.userId)?.name ?? 'A member',
        entryStart: x.entry.start,
        entryEnd: x.entry.end,
        awayStart: x.timeOff.start,
        awayEnd: x.timeOff.end,
      }),
    })),
  ].filter((p) => !memo.has(p.key));
  if (planned.length === 0) return;

  await deps.database.db.transaction(async (tx) => {
    const managers = await listRotationManagers(tx, [
      ...new Set(planned.map((p) => p.rotation.id)),
    ]);
    const unmanaged = planned.some((p) => (managers.get(p.rotation.id) ?? []).length === 0);
    const admins = unmanaged
      ? (await listUsersWithRoles(tx, deps.cipher, ['admin'])).map((u) => u.id)
      : [];
    const recipientsOf = (rotationId: number) => {
      const own = managers.get(rotationId) ?? [];
      return own.length > 0 ? own : admins;
    };
    const people = await findUsers(tx, deps.cipher, [
      ...planned.flatMap((p) => recipientsOf(p.rotation.id)),
      ...planned.flatMap((p) => (p.personId === undefined ? [] : [p.personId])),
    ]);
    for (const p of planned) {
      const told = toldAs(
        'to',
        recipientsOf(p.rotation.id).map((id) => people.get(id)),
      );
      await announce(tx, deps, now, p.event(people, told));
    }
  });
  for (const p of planned) memo.set(p.key, p.until);
};
