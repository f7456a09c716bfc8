import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type DestinationTestResult,
  DestinationTestResultSchema,
} from '../../../shared/contracts/destinations';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { requireUser } from '../../http/request-context';
import { managesDestinations } from '../destinations/destination-routes';
import { sendTestEvent } from './destination-test';

/** destinationTestRoutes: `POST /api/destinations/{id}/test`. HTTP only. */
export async function destinationTestRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // "Send test event": 202, queued in the outbox; the delivery log shows what became of it.
  api.post(
    '/api/destinations/:id/test',
    {
      preValidation: managesDestinations,
      schema: {
        params: IdParams,
        response: answers({ 202: DestinationTestResultSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) => {
      const result: DestinationTestResult = await sendTestEvent(
        deps,
        requireUser(req),
        req.params.id,
      );
      return reply.code(202).send(result);
    },
  );
}
