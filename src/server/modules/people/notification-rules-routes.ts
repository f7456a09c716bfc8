import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type NotificationRulesAnswer,
  NotificationRulesAnswerSchema,
  NotificationRulesSchema,
} from '../../../shared/contracts/notification-rules';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { readyMethods } from '../notifications/channels';
import {
  clearNotificationRules,
  putNotificationRules,
  readNotificationRules,
} from './notification-rules-service';

/**
 * A person's notification rules (issue 33, decision 251): one's own, or (administrators)
 * anyone's. `DELETE` returns the person to their Notification Preference.
 */
export async function notificationRulesRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const service = { db: deps.database.db, cipher: deps.cipher, clock: deps.clock };
  const path = '/api/users/:id/notification-rules';
  // Whether a call rule will ring (decision 252): the editor says so rather than warn.
  const ready = (answer: Omit<NotificationRulesAnswer, 'voiceReady'>): NotificationRulesAnswer => ({
    ...answer,
    voiceReady: readyMethods(deps.config).voice === true,
  });

  api.get(
    path,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        response: answers({ 200: NotificationRulesAnswerSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => ready(await readNotificationRules(service, requireUser(req), req.params.id)),
  );

  api.put(
    path,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        body: NotificationRulesSchema,
        response: answers({ 200: NotificationRulesAnswerSchema }, 400, 401, 403, 404),
      },
    },
    async (req) =>
      ready(await putNotificationRules(service, requireUser(req), req.params.id, req.body)),
  );

  api.delete(
    path,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        response: answers({ 200: NotificationRulesAnswerSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => ready(await clearNotificationRules(service, requireUser(req), req.params.id)),
  );
}
