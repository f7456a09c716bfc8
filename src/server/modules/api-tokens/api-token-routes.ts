import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiTokenInputSchema } from '../../../shared/contracts/api-tokens';
import type { AppDeps } from '../../deps';
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

  api.get('/api/user/tokens', { preValidation: signedInSession }, async (req) =>
    listApiTokens(deps, requireUser(req)),
  );

  api.post(
    '/api/user/tokens',
    { preValidation: signedInSession, schema: { body: ApiTokenInputSchema } },
    async (req, reply) =>
      reply.code(201).send(await createApiToken(deps, requireUser(req), req.body)),
  );

  api.delete(
    '/api/user/tokens/:id',
    { preValidation: signedInSession, schema: { params: IdParams } },
    async (req, reply) => {
      await revokeApiToken(deps, requireUser(req), req.params.id);
      return reply.code(204).send();
    },
  );

  api.get(
    '/api/admin/api-tokens',
    { preValidation: permittedInSession('users.manage') },
    async (req) => listApiTokens(deps, requireUser(req), true),
  );
}
