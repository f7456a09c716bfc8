import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database } from '../../db/client';
import { digestRotationIds, listDigestDestinations } from '../destinations/destination-repository';
import { announce } from '../notifications/announce';
import { tellFailingOwners } from '../notifications/destination-failures';
import { layOut } from './calendar-service';

/**
 * The daily digest (decision 221): at a destination's local digest time, "On call today and this
 * week" for its rotation: who holds the baton now and the next seven days' shifts from the
 * calendar's projection. Once per local day (the dedupe key carries the local date); a digest
 * more than an hour late (the server was down) is skipped rather than posted at an odd hour.
 */

/**
 * What the task works with: the engine's deps (an EngineTask's), written out here because the
 * calendar module imports nothing from the engine (decision 185).
 */
export interface DestinationTaskDeps {
  config: Config;
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
}

const DIGEST_LATE_MS = 60 * 60 * 1000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** localClock reads the date (YYYY-MM-DD) and the minutes since midnight at `now` in `zone`. */
export function localClock(now: Date, zone: string): { date: string; minutes: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/**
 * digestDueOn answers the local date whose digest is due at `now`, or null: due from the digest
 * time until an hour after it. (On a day a DST change skips the digest's hour, it goes at the
 * first minute after it, within the hour.)
 */
export function digestDueOn(now: Date, zone: string, time: string): string | null {
  const [h, m] = time.split(':').map(Number);
  const wanted = h * 60 + m;
  const { date, minutes } = localClock(now, zone);
  const late = (minutes - wanted) * 60_000;
  return late >= 0 && late < DIGEST_LATE_MS ? date : null;
}

/**
 * postDigests posts each due digest; returns how many messages were new. A rotation's destination
 * gets its rotation's digest; a policy's or an integration's, one for each rotation that follows
 * it (keyed by rotation as well, so each goes once a day).
 */
export async function postDigests(deps: DestinationTaskDeps, now: Date): Promise<number> {
  const db = deps.database.db;
  const due = (await listDigestDestinations(db)).flatMap((destination) => {
    const zone = zoneOrUtc(destination.digestTimeZone);
    const localDate = digestDueOn(now, zone, destination.digestTime ?? '09:00');
    return localDate ? [{ destination, localDate }] : [];
  });
  if (due.length === 0) return 0;
  const rotationsOf = await digestRotationIds(
    db,
    due.map((d) => d.destination),
  );
  // Each rotation is laid out once per run, however many destinations want its digest.
  const layouts = new Map<number, Promise<Awaited<ReturnType<typeof layOut>>>>();
  const layoutOf = (rotationId: number) => {
    let laid = layouts.get(rotationId);
    if (!laid) {
      laid = layOut(deps, now, new Date(now.getTime() + WEEK_MS), null, rotationId);
      layouts.set(rotationId, laid);
    }
    return laid;
  };
  let posted = 0;
  for (const { destination, localDate } of due) {
    const own = destination.rotationId !== null;
    for (const rotationId of rotationsOf.get(destination.id) ?? []) {
      const { laid, people } = await layoutOf(rotationId);
      const rotation = laid[0];
      if (!rotation) continue;
      const nameOf = (id: number | null) =>
        id === null ? null : (people.get(id)?.name ?? 'A former member');
      const ids = await db.transaction((tx) =>
        announce(tx, deps, now, {
          type: 'digest',
          key: own ? `digest:${localDate}` : `digest:${localDate}:rotation:${rotationId}`,
          at: now,
          destination: {
            id: destination.id,
            rotationId: destination.rotationId,
            escalationPolicyId: destination.escalationPolicyId,
            integrationId: destination.integrationId,
          },
          localDate,
          rotation: { id: rotation.row.id, name: rotation.row.name },
          holderName: nameOf(rotation.row.holderUserId),
          shifts: rotation.shifts.map((s) => ({
            name: nameOf(s.userId) ?? 'A former member',
            startAt: s.start,
            endAt: s.end,
          })),
        }),
      );
      posted += ids.length;
    }
  }
  return posted;
}

/**
 * destinationsTask is the engine's task of destinations: the daily digests, and telling the
 * owners of destinations failing for an hour (also when no message is being retried any more).
 */
export async function destinationsTask(deps: DestinationTaskDeps, now: Date): Promise<void> {
  await postDigests(deps, now);
  await tellFailingOwners(deps.database.db, deps, now);
}
