import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EscalationPolicyChangeSchema,
  EscalationPolicyInputSchema,
  EscalationPolicySchema,
  EscalationPreviewSchema,
} from '../../../shared/contracts/escalation-policies';
import type { AppDeps } from '../../core/deps';
import { answers, noContent } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import {
  createPolicy,
  deletePolicy,
  getPolicy,
  listPolicies,
  previewPolicy,
  updatePolicy,
} from './escalation-policy-service';

/**
 * escalationPolicyRoutes: issue 16's escalation policies (decision 202). HTTP only; who may read
 * or change which policy, and the checks of its targets, live in the service.
 */
export async function escalationPolicyRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/escalation-policies',
    {
      preValidation: permitted('escalationPolicy.view'),
      schema: { response: answers({ 200: z.array(EscalationPolicySchema) }, 401, 403) },
    },
    async (req) => listPolicies(deps, requireUser(req)),
  );

  api.post(
    '/api/escalation-policies',
    {
      preValidation: permitted('escalationPolicy.edit'),
      schema: {
        body: EscalationPolicyInputSchema,
        response: answers({ 201: EscalationPolicySchema }, 400, 401, 403, 409),
      },
    },
    async (req, reply) =>
      reply.code(201).send(await createPolicy(deps, requireUser(req), req.body)),
  );

  api.get(
    '/api/escalation-policies/:id',
    {
      preValidation: permitted('escalationPolicy.view'),
      schema: {
        params: IdParams,
        response: answers({ 200: EscalationPolicySchema }, 400, 401, 403, 404),
      },
    },
    async (req) => getPolicy(deps, requireUser(req), req.params.id),
  );

  api.patch(
    '/api/escalation-policies/:id',
    {
      preValidation: permitted('escalationPolicy.edit'),
      schema: {
        params: IdParams,
        body: EscalationPolicyChangeSchema,
        response: answers({ 200: EscalationPolicySchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => updatePolicy(deps, requireUser(req), req.params.id, req.body),
  );

  api.delete(
    '/api/escalation-policies/:id',
    {
      preValidation: permitted('escalationPolicy.edit'),
      schema: {
        params: IdParams,
        response: answers({ 204: noContent('The policy is deleted.') }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) => {
      await deletePolicy(deps, requireUser(req), req.params.id);
      return reply.code(204).send();
    },
  );

  api.get(
    '/api/escalation-policies/:id/preview',
    {
      preValidation: permitted('escalationPolicy.view'),
      schema: {
        params: IdParams,
        response: answers({ 200: EscalationPreviewSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => previewPolicy(deps, requireUser(req), req.params.id),
  );
}
