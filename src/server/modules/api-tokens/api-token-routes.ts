import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiTokenInputSchema,
  ApiTokenListSchema,
  CreatedApiTokenSchema,
} from '../../../shared/contracts/api-tokens';
import type { AppDeps } from '../../core/deps';
import { answers, noContent } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permittedInSession, requireUser, signedInSession } from '../../http/request-context';
import { createApiToken, listApiTokens, revokeApiToken } from './api-token-service';

/**
 * apiTokenRoutes: personal API tokens (issue 20, decision 223). HTTP only; managed from a
 * signed-in session alone (a token cannot list, make or revoke tokens). An administrator lists
 * everyone's and revokes anyone's through the same DELETE.
 */
export async function apiTokenRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/user/tokens',
    {
      preValidation: signedInSession,
      schema: { response: answers({ 200: ApiTokenListSchema }, 401, 403) },
    },
    async (req) => listApiTokens(deps, requireUser(req)),
  );

  api.post(
    '/api/user/tokens',
    {
      preValidation: signedInSession,
      schema: {
        body: ApiTokenInputSchema,
        response: answers({ 201: CreatedApiTokenSchema }, 400, 401, 403),
      },
    },
    async (req, reply) =>
      reply.code(201).send(await createApiToken(deps, requireUser(req), req.body)),
  );

  api.delete(
    '/api/user/tokens/:id',
    {
      preValidation: signedInSession,
      schema: {
        params: IdParams,
        response: answers({ 204: noContent('Revoked.') }, 400, 401, 403, 404),
      },
    },
    async (req, reply) => {
      await revokeApiToken(deps, requireUser(req), req.params.id);
      return reply.code(204).send();
    },
  );

  api.get(
    '/api/admin/api-tokens',
    {
      preValidation: permittedInSession('users.manage'),
      schema: { response: answers({ 200: ApiTokenListSchema }, 401, 403) },
    },
    async (req) => listApiTokens(deps, requireUser(req), true),
  );
}
