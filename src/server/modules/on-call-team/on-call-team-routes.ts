import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { requirePermission } from '../../http/request-context';
import { listOnCallTeam } from './on-call-team-repository';

export async function onCallTeamRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get('/api/on-call-team', async (req) => {
    requirePermission(req, 'users.view');
    return listOnCallTeam(deps.database.db, deps.cipher);
  });
}
