import { eq, sql } from 'drizzle-orm';
import type { UpdateUserSettingsInput, UserSettings } from '../../../shared/contracts/settings';
import type { User } from '../../../shared/contracts/users';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';

const settingsColumns = {
  timezone: users.timezone,
  handoffReminderMinutes: users.handoffReminderMinutes,
  notificationPreference: users.notificationPreference,
};

type SettingsRow = {
  timezone: string;
  handoffReminderMinutes: number;
  notificationPreference: string;
};

function toSettings(row: SettingsRow): UserSettings {
  return {
    timezone: row.timezone,
    handoffReminderMinutes: row.handoffReminderMinutes,
    notificationPreference: row.notificationPreference as User['notificationPreference'],
  };
}

/** readSettings returns a user's settings; 404 when the user is gone. */
export async function readSettings(db: Db | Tx, userId: number): Promise<UserSettings> {
  const [row] = await db.select(settingsColumns).from(users).where(eq(users.id, userId));
  if (!row) throw notFound('User not found');
  return toSettings(row);
}

/** updateSettings changes a user's settings and returns them; 404 when the user is gone. */
export async function updateSettings(
  db: Db,
  userId: number,
  input: UpdateUserSettingsInput,
): Promise<UserSettings> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ ...input, updatedAt: sql`now()` })
      .where(eq(users.id, userId))
      .returning(settingsColumns);
    if (!row) throw notFound('User not found');
    return toSettings(row);
  });
}
