import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NOTIFICATION_TEST_INTERVAL_MS,
  NotificationTestInputSchema,
  type NotificationTestResult,
  NotificationTestResultSchema,
} from '../../../shared/contracts/notification-test';
import type { NotificationMethod } from '../../../shared/domain/notification-rules';
import { can } from '../../../shared/domain/permissions';
import type { AppDeps } from '../../core/deps';
import { AppError, forbidden, notFound } from '../../http/errors';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { findUsers } from '../users/user-repository';
import { sendTest, type TestCaller, testSendContextOf } from './test-senders';

/**
 * `POST /api/users/{id}/notification-test` (issue 33, decision 254): "Send a test" for one of the
 * ways a person is reached, one's own or (administrators) anyone's. The test goes through the
 * configured channel at once and the answer says what became of it. One test per method per
 * person a minute (for push, per device), counted on this instance (a test is one message to
 * oneself, so a second instance allowing one more is harmless); more is a 429. Calls are placed
 * by `placeTestCall`, which app.ts gives from voice-calls (absent without Twilio).
 */
/** How the refusal names each method inside a sentence. */
const TEST_WORDS: Record<NotificationMethod, string> = {
  email: 'email',
  sms: 'SMS',
  voice: 'call',
  push: 'push to this device',
};

export async function notificationTestRoutes(
  app: FastifyInstance,
  deps: AppDeps & { placeTestCall?: TestCaller },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const context = testSendContextOf(deps);
  const lastSent = new Map<string, number>();

  api.post(
    '/api/users/:id/notification-test',
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        body: NotificationTestInputSchema,
        response: answers({ 200: NotificationTestResultSchema }, 400, 401, 403, 404, 429),
      },
    },
    async (req): Promise<NotificationTestResult> => {
      const actor = requireUser(req);
      const { id } = req.params;
      if (id !== actor.id && !can(actor.roles, 'profile.editAny')) {
        throw forbidden('You can only send tests to yourself.');
      }
      const person = (await findUsers(deps.database.db, deps.cipher, [id])).get(id);
      if (!person) throw notFound('User not found');
      const { method, deviceId } = req.body;
      const key = method === 'push' ? `${id}:push:${deviceId}` : `${id}:${method}`;
      const now = deps.clock.now().getTime();
      const last = lastSent.get(key);
      if (last !== undefined && now - last < NOTIFICATION_TEST_INTERVAL_MS) {
        const seconds = Math.ceil((last + NOTIFICATION_TEST_INTERVAL_MS - now) / 1000);
        throw new AppError(
          'RATE_LIMITED',
          `One test by ${TEST_WORDS[method]} a minute: try again in ${seconds} seconds.`,
        );
      }
      lastSent.set(key, now);
      try {
        const result = await sendTest({ ...context, person }, req.body);
        // Nothing was sent: the next try may come at once.
        if (result.outcome === 'not-set-up') lastSent.delete(key);
        return result;
      } catch (err) {
        // Refused (another person's device): nothing was sent either.
        lastSent.delete(key);
        throw err;
      }
    },
  );
}
