import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { listMyCoverage, respondToCoverage } from './coverage-service';

/** coverageRoutes: the signed-in user's coverage requests, and the answers to them. */
export async function coverageRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/coverage-requests', { preValidation: permitted('rotation.view') }, async (req) =>
    listMyCoverage(deps, requireUser(req)),
  );

  for (const action of ['accept', 'decline', 'cancel'] as const) {
    api.post(
      `/api/coverage-requests/:id/${action}`,
      { preValidation: permitted('baton.hold'), schema: { params: IdParams } },
      async (req) => respondToCoverage(deps, requireUser(req), req.params.id, action),
    );
  }
}
