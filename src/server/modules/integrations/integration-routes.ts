import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  INTEGRATION_MESSAGES,
  type Integration,
  IntegrationChangeSchema,
  IntegrationInputSchema,
  type IntegrationList,
  IntegrationListQuerySchema,
  IntegrationListSchema,
  IntegrationSchema,
  type IntegrationWithKey,
  IntegrationWithKeySchema,
} from '../../../shared/contracts/integrations';
import { mayManageSomeIntegration } from '../../../shared/domain/integrations';
import type { AppDeps } from '../../core/deps';
import { forbidden } from '../../http/errors';
import { answers, noContent } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { requireUser, signedIn } from '../../http/request-context';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  listIntegrations,
  regenerateIntegrationKey,
  updateIntegration,
} from './integration-service';

/**
 * managesIntegrations is the guard of the routes that change integrations: administrators and
 * managers pass (which integrations a manager may change, the service decides: 404, then 403);
 * everyone else is refused before their input is read (decision 210).
 */
export async function managesIntegrations(req: FastifyRequest): Promise<void> {
  const user = requireUser(req);
  if (!mayManageSomeIntegration(user)) throw forbidden(INTEGRATION_MESSAGES.mayNotManage);
}

/**
 * integrationRoutes: issue 17's integrations (decision 210). HTTP only; who may see or change
 * which integration lives in the service.
 */
export async function integrationRoutes(app: FastifyInstance, deps: AppDeps) {
  integrationEditRoutes(app, deps);
  integrationKeyRoutes(app, deps);
}

/** integrationEditRoutes: list, create, read, change and delete integrations. */
function integrationEditRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/integrations',
    {
      preValidation: signedIn,
      schema: {
        querystring: IntegrationListQuerySchema,
        response: answers({ 200: IntegrationListSchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<IntegrationList> => listIntegrations(deps, requireUser(req), req.query),
  );

  api.post(
    '/api/integrations',
    {
      preValidation: managesIntegrations,
      schema: {
        body: IntegrationInputSchema,
        response: answers({ 201: IntegrationWithKeySchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) => {
      const created: IntegrationWithKey = await createIntegration(deps, requireUser(req), req.body);
      return reply.code(201).send(created);
    },
  );

  api.get(
    '/api/integrations/:id',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        response: answers({ 200: IntegrationSchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<Integration> => getIntegration(deps, requireUser(req), req.params.id),
  );

  api.patch(
    '/api/integrations/:id',
    {
      preValidation: managesIntegrations,
      schema: {
        params: IdParams,
        body: IntegrationChangeSchema,
        response: answers({ 200: IntegrationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req): Promise<Integration> =>
      updateIntegration(deps, requireUser(req), req.params.id, req.body),
  );

  api.delete(
    '/api/integrations/:id',
    {
      preValidation: managesIntegrations,
      schema: {
        params: IdParams,
        response: answers({ 204: noContent('The integration is deleted.') }, 400, 401, 403, 404),
      },
    },
    async (req, reply) => {
      await deleteIntegration(deps, requireUser(req), req.params.id);
      return reply.code(204).send();
    },
  );
}

/** integrationKeyRoutes: an integration's new key (its test alert and alert lists: alerts/integration-alert-routes.ts). */
function integrationKeyRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // A new key answers 200: the integration is the same one, only its key changed.
  api.post(
    '/api/integrations/:id/key',
    {
      preValidation: managesIntegrations,
      schema: {
        params: IdParams,
        response: answers({ 200: IntegrationWithKeySchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<IntegrationWithKey> =>
      regenerateIntegrationKey(deps, requireUser(req), req.params.id),
  );
}
