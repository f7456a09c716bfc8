import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { parseId } from '../../http/errors';
import { requirePermission } from '../../http/request-context';
import { listMyCoverage, respondToCoverage } from './coverage-service';

type IdParams = { Params: { id: string } };

/** coverageRoutes: the signed-in user's coverage requests, and the answers to them. */
export async function coverageRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get('/api/coverage-requests', async (req) => {
    const user = requirePermission(req, 'rotation.view');
    return listMyCoverage(deps, user);
  });

  for (const action of ['accept', 'decline', 'cancel'] as const) {
    app.post<IdParams>(`/api/coverage-requests/:id/${action}`, async (req) => {
      const user = requirePermission(req, 'baton.hold');
      return respondToCoverage(deps, user, parseId(req.params.id), action);
    });
  }
}
