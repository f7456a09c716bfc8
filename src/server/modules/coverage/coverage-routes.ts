import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CoverCandidatesQuerySchema,
  CoverCandidatesSchema,
  CoverPlanInputSchema,
} from '../../../shared/contracts/cover-plans';
import {
  CoverageRequestListSchema,
  CoverageRequestViewSchema,
} from '../../../shared/contracts/coverage';
import {
  CoverageRequestInputSchema,
  CoverageRequestSchema,
} from '../../../shared/contracts/rotations';
import type { AppDeps } from '../../core/deps';
import { badRequest } from '../../http/errors';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { coverCandidates, planCover } from './cover-plan-service';
import { listMyCoverage, requestCoverage, respondToCoverage } from './coverage-service';

/**
 * coverageRoutes: the signed-in user's coverage requests, and the answers to them; planned cover
 * for a rotation and who could cover it (decision 218).
 */
export async function coverageRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/coverage-requests',
    {
      preValidation: permitted('rotation.view'),
      schema: { response: answers({ 200: CoverageRequestListSchema }, 401, 403) },
    },
    async (req) => listMyCoverage(deps, requireUser(req)),
  );

  for (const action of ['accept', 'decline', 'cancel'] as const) {
    api.post(
      `/api/coverage-requests/:id/${action}`,
      {
        preValidation: permitted('baton.hold'),
        schema: {
          params: IdParams,
          response: answers({ 200: CoverageRequestViewSchema }, 400, 401, 403, 404, 409),
        },
      },
      async (req) => respondToCoverage(deps, requireUser(req), req.params.id, action),
    );
  }

  api.post(
    '/api/rotations/:id/cover-plans',
    {
      preValidation: permitted('baton.hold'),
      schema: {
        params: IdParams,
        body: CoverPlanInputSchema,
        response: answers({ 201: CoverageRequestViewSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) =>
      reply.code(201).send(await planCover(deps, requireUser(req), req.params.id, req.body)),
  );

  api.get(
    '/api/rotations/:id/cover-candidates',
    {
      preValidation: permitted('baton.hold'),
      schema: {
        params: IdParams,
        querystring: CoverCandidatesQuerySchema,
        response: answers({ 200: CoverCandidatesSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => coverCandidates(deps, requireUser(req), req.params.id, req.query),
  );
}

/**
 * requestCoverageRoutes: a rotation's holder asks another member to cover a window (specification
 * section 7; registered beside the rotation calls).
 */
export async function requestCoverageRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/rotations/:id/cover',
    {
      preValidation: permitted('baton.hold'),
      schema: {
        params: IdParams,
        body: CoverageRequestInputSchema,
        response: answers({ 201: CoverageRequestSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) => {
      const rotationId = req.params.id;
      if (req.body.rotationId !== undefined && req.body.rotationId !== rotationId) {
        throw badRequest('rotationId does not match the rotation in the address.');
      }
      return reply
        .code(201)
        .send(await requestCoverage(deps, requireUser(req), rotationId, req.body));
    },
  );
}
