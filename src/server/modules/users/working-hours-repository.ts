import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { WorkingHoursSchema } from '../../../shared/contracts/working-hours';
import type { WorkingHours } from '../../../shared/domain/working-hours';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';

/**
 * A person's working hours (decision 254), stored as `users.working_hours` (jsonb; null: none
 * chosen). What is stored is read through the contract's schema, so a bad value reads as none
 * and never holds a page.
 */

/** workingHoursOf reads a stored value: the person's working hours, or null. */
export function workingHoursOf(value: unknown): WorkingHours | null {
  const parsed = WorkingHoursSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** setWorkingHours stores a person's working hours. */
export async function setWorkingHours(
  db: Db | Tx,
  id: number,
  hours: WorkingHours | null,
): Promise<void> {
  await db
    .update(users)
    .set({ workingHours: hours, updatedAt: sql`now()` })
    .where(eq(users.id, id));
}

/** One person's working hours with the zone they are read in. */
export interface ZonedWorkingHours {
  hours: WorkingHours;
  timeZone: string;
}

/** findWorkingHours reads the working hours of the people who chose them, by id (one query). */
export async function findWorkingHours(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, ZonedWorkingHours>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, workingHours: users.workingHours, timezone: users.timezone })
    .from(users)
    .where(and(inArray(users.id, [...new Set(ids)]), isNotNull(users.workingHours)));
  return new Map(
    rows.flatMap((row) => {
      const hours = workingHoursOf(row.workingHours);
      return hours ? [[row.id, { hours, timeZone: row.timezone }] as const] : [];
    }),
  );
}
