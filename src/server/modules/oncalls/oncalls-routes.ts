import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { OnCallsQuerySchema, OnCallsSchema } from '../../../shared/contracts/oncalls';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { permitted, requireUser } from '../../http/request-context';
import { listOnCalls } from './oncalls-service';

/**
 * oncallsRoutes: who holds each rotation's baton at an instant (issue 20, decision 226). HTTP
 * only: whoever may view rotations reads every rotation's holder, with phone, as the rotations
 * read shows them.
 */
export async function oncallsRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/oncalls',
    {
      preValidation: permitted('rotation.view'),
      schema: {
        querystring: OnCallsQuerySchema,
        response: answers({ 200: OnCallsSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => listOnCalls(deps, requireUser(req), req.query),
  );
}
