import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  UpdateUserSettingsInputSchema,
  type UserSettings,
} from '../../../shared/contracts/settings';
import type { User } from '../../../shared/contracts/users';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { notFound, parseInput } from '../../http/errors';
import { requirePermission } from '../../http/request-context';

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

async function readSettings(db: Db | Tx, userId: number): Promise<UserSettings> {
  const [row] = await db.select(settingsColumns).from(users).where(eq(users.id, userId));
  if (!row) throw notFound('User not found');
  return toSettings(row);
}

/** The signed-in user's own settings: time zone, handoff reminder and notification preference. */
export async function settingsRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  app.get('/api/user/settings', async (req) => {
    const user = requirePermission(req, 'profile.editOwn');
    return readSettings(db, user.id);
  });

  app.patch('/api/user/settings', async (req) => {
    const user = requirePermission(req, 'profile.editOwn');
    const input = parseInput(UpdateUserSettingsInputSchema, req.body ?? {});
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ ...input, updatedAt: sql`now()` })
        .where(eq(users.id, user.id))
        .returning(settingsColumns);
      if (!row) throw notFound('User not found');
      return toSettings(row);
    });
  });
}
