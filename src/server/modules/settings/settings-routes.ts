import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  UpdateUserSettingsInputSchema,
  UserSettingsSchema,
} from '../../../shared/contracts/settings';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { permitted, requireUser } from '../../http/request-context';
import { readSettings, updateSettings } from './settings-repository';

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
    async (req) => updateSettings(db, requireUser(req).id, req.body),
  );
}
