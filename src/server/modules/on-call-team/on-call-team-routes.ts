import type { FastifyInstance } from 'fastify';
import { OnCallTeamSchema } from '../../../shared/contracts/on-call-team';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { permitted } from '../../http/request-context';
import { listOnCallTeam } from './on-call-team-repository';

export async function onCallTeamRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    '/api/on-call-team',
    {
      preValidation: permitted('users.view'),
      schema: { response: answers({ 200: OnCallTeamSchema }, 401, 403) },
    },
    async () => listOnCallTeam(deps.database.db, deps.cipher),
  );
}
