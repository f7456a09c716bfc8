import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  UpdateUserSettingsInputSchema,
  type UserSettings,
  UserSettingsSchema,
} from '../../../shared/contracts/settings';
import type { User } from '../../../shared/contracts/users';
import type { AppDeps } from '../../core/deps';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { answers } from '../../http/openapi';
import { permitted, requireUser } from '../../http/request-context';

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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;

  api.get(
    '/api/user/settings',
    {
      preValidation: permitted('profile.editOwn'),
      schema: { response: answers({ 200: UserSettingsSchema }, 401, 403, 404) },
    },
    async (req) => readSettings(db, requireUser(req).id),
  );

  api.patch(
    '/api/user/settings',
    {
      preValidation: permitted('profile.editOwn'),
      // A PATCH without a body is an empty change, refused as 'Nothing to save'.
      schema: {
        body: z.preprocess((body) => body ?? {}, UpdateUserSettingsInputSchema),
        response: answers({ 200: UserSettingsSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => {
      const user = requireUser(req);
      const input = req.body;
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ ...input, updatedAt: sql`now()` })
          .where(eq(users.id, user.id))
          .returning(settingsColumns);
        if (!row) throw notFound('User not found');
        return toSettings(row);
      });
    },
  );
}
