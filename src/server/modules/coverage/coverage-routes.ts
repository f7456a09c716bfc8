import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CoverCandidatesQuerySchema,
  CoverPlanInputSchema,
} from '../../../shared/contracts/cover-plans';
import type { AppDeps } from '../../deps';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { coverCandidates, planCover } from './cover-plan-service';
import { listMyCoverage, respondToCoverage } from './coverage-service';

/**
 * coverageRoutes: the signed-in user's coverage requests, and the answers to them; planned cover
 * for a rotation and who could cover it (decision 218).
 */
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

  api.post(
    '/api/rotations/:id/cover-plans',
    {
      preValidation: permitted('baton.hold'),
      schema: { params: IdParams, body: CoverPlanInputSchema },
    },
    async (req, reply) =>
      reply.code(201).send(await planCover(deps, requireUser(req), req.params.id, req.body)),
  );

  api.get(
    '/api/rotations/:id/cover-candidates',
    {
      preValidation: permitted('baton.hold'),
      schema: { params: IdParams, querystring: CoverCandidatesQuerySchema },
    },
    async (req) => coverCandidates(deps, requireUser(req), req.params.id, req.query),
  );
}
