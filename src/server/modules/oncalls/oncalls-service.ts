import {
  ONCALLS_LOOKAHEAD_DAYS,
  ONCALLS_MAX_DAYS,
  type OnCall,
  type OnCalls,
} from '../../../shared/contracts/oncalls';
import type { User } from '../../../shared/contracts/users';
import { holderAt } from '../../../shared/domain/calendar';
import { AppError, notFound } from '../../http/errors';
import { type CalendarDeps, layOut } from '../calendar/calendar-service';
import { ROTATION_NOT_FOUND } from '../rotations/rotation-service';

const DAY = 86_400_000;
export const AT_OUT_OF_RANGE = `at must be within ${ONCALLS_MAX_DAYS} days of now`;

/**
 * listOnCalls answers who holds each rotation's baton at `at` (now when absent), or one
 * rotation's (404 when there is none), through the calendar's own layout (decision 226): the
 * past from the handoff history, now and later from the projection with cover and time off. One
 * `now` for the whole read; a fixed number of statements whatever the number of rotations.
 */
export async function listOnCalls(
  deps: CalendarDeps,
  viewer: User,
  query: { at?: string; rotationId?: number },
): Promise<OnCalls> {
  const now = deps.clock.now();
  const at = query.at === undefined ? now : new Date(query.at);
  if (Math.abs(at.getTime() - now.getTime()) > ONCALLS_MAX_DAYS * DAY) {
    throw new AppError('VALIDATION_FAILED', `at: ${AT_OUT_OF_RANGE}`, { at: AT_OUT_OF_RANGE });
  }
  // From the instant asked for, or from now for a later one: a projected shift begins no
  // earlier than the span, and its start is the holder's `since`.
  const from = at.getTime() < now.getTime() ? at : now;
  const to = new Date(at.getTime() + ONCALLS_LOOKAHEAD_DAYS * DAY);
  const { laid, people } = await layOut(
    { ...deps, clock: { now: () => now } },
    from,
    to,
    viewer,
    query.rotationId,
  );
  if (query.rotationId !== undefined && laid.length === 0) {
    throw notFound(ROTATION_NOT_FOUND);
  }
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const oncalls: OnCall[] = laid.map(({ row, shifts, gaps, heldAtFrom }) => {
    const found = holderAt(shifts, at, { from, to, heldAtFrom });
    const holder = found.shift ? (people.get(found.shift.userId) ?? null) : null;
    const nextHolder = found.next ? people.get(found.next.userId) : undefined;
    const gap = gaps.find(
      (g) => g.start.getTime() <= at.getTime() && at.getTime() < g.end.getTime(),
    );
    const covered = found.shift?.coveredUserId;
    return {
      rotation: { id: row.id, name: row.name, timeZone: row.timeZone, suspended: row.suspended },
      holder,
      source: holder ? (found.shift?.source ?? null) : null,
      ...(holder && covered !== undefined ? { coveredUserId: covered } : {}),
      since: iso(found.since),
      until: iso(found.until),
      next:
        nextHolder && found.next
          ? { holder: nextHolder, from: found.next.from.toISOString() }
          : null,
      gap: gap ? { start: gap.start.toISOString(), end: gap.end.toISOString() } : null,
    };
  });
  return { at: at.toISOString(), oncalls };
}
