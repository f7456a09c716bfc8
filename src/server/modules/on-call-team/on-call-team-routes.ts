import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { permitted } from '../../http/request-context';
import { listOnCallTeam } from './on-call-team-repository';

export async function onCallTeamRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get('/api/on-call-team', { preValidation: permitted('users.view') }, async () =>
    listOnCallTeam(deps.database.db, deps.cipher),
  );
}
