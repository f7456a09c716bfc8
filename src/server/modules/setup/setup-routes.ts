import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SetupChecklistSchema, TestPageResultSchema } from '../../../shared/contracts/setup';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { permitted, requireUser } from '../../http/request-context';
import { testSendContextOf } from '../notifications/test-senders';
import { dismissChecklist, readChecklist, testPageSender } from './setup-service';

/**
 * The setup checklist (issue 35, decision 258), for administrators: the install's first steps,
 * each ticked from what the server holds; dismissed per administrator; and "Send a test page to
 * me".
 */
export async function setupRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const service = {
    db: deps.database.db,
    cipher: deps.cipher,
    clock: deps.clock,
    send: testSendContextOf(deps),
  };
  const sendTestPage = testPageSender(service);

  api.get(
    '/api/setup',
    {
      preValidation: permitted('system.configure'),
      schema: { response: answers({ 200: SetupChecklistSchema }, 401, 403) },
    },
    async (req) => readChecklist(service, requireUser(req)),
  );

  api.post(
    '/api/setup/dismiss',
    {
      preValidation: permitted('system.configure'),
      schema: { response: answers({ 200: SetupChecklistSchema }, 401, 403) },
    },
    async (req) => dismissChecklist(service, requireUser(req)),
  );

  api.post(
    '/api/setup/test-page',
    {
      preValidation: permitted('system.configure'),
      schema: { response: answers({ 200: TestPageResultSchema }, 401, 403, 404, 429) },
    },
    async (req) => sendTestPage(requireUser(req)),
  );
}
