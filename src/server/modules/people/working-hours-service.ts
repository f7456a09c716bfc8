import type { User } from '../../../shared/contracts/users';
import type {
  WorkingHoursAnswer,
  WorkingHoursInput,
} from '../../../shared/contracts/working-hours';
import { can } from '../../../shared/domain/permissions';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import { DEFAULT_WORKING_HOURS } from '../../../shared/domain/working-hours';
import { forbidden, notFound } from '../../http/errors';
import { lockUserRow, toUser } from '../users/user-repository';
import { setWorkingHours, workingHoursOf } from '../users/working-hours-repository';
import type { UserServiceDeps } from './people-service';

/**
 * A person's working hours (issue 33, decision 254): read and set by the person themselves or an
 * administrator, in one transaction holding the person's row.
 */

function allowed(actor: User, id: number): void {
  if (id !== actor.id && !can(actor.roles, 'profile.editAny')) {
    throw forbidden('You can only see and change your own working hours.');
  }
}

/** readWorkingHours answers a person's working hours, or the default when they chose none. */
export async function readWorkingHours(
  deps: UserServiceDeps,
  actor: User,
  id: number,
): Promise<WorkingHoursAnswer> {
  allowed(actor, id);
  return deps.db.transaction(async (tx) => {
    const row = await lockUserRow(tx, id);
    if (!row) throw notFound('User not found');
    const user = toUser(row, deps.cipher);
    const own = workingHoursOf(row.workingHours);
    return {
      ...(own ?? DEFAULT_WORKING_HOURS),
      own: own !== null,
      timeZone: zoneOrUtc(user.timezone),
    };
  });
}

/** putWorkingHours sets a person's working hours (days sorted, each once). */
export async function putWorkingHours(
  deps: UserServiceDeps,
  actor: User,
  id: number,
  input: WorkingHoursInput,
): Promise<WorkingHoursAnswer> {
  allowed(actor, id);
  return deps.db.transaction(async (tx) => {
    const row = await lockUserRow(tx, id);
    if (!row) throw notFound('User not found');
    const user = toUser(row, deps.cipher);
    const hours = {
      days: [...input.days].sort((a, b) => a - b),
      start: input.start,
      end: input.end,
      holdLowUrgency: input.holdLowUrgency,
    };
    await setWorkingHours(tx, id, hours);
    return { ...hours, own: true, timeZone: zoneOrUtc(user.timezone) };
  });
}
