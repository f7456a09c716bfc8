import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { channelNotConfiguredReason } from '../../../shared/contracts/notifications';
import { type Reachability, ReachabilitySchema } from '../../../shared/contracts/reachability';
import type { SetUpMethods } from '../../../shared/domain/reachability';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { permitted, requireUser } from '../../http/request-context';
import { channelsFromConfig } from '../notifications/channels';
import { listReachability } from './reachability-service';

/**
 * `GET /api/users/reachability` (issue 33, decision 254): how each person the viewer looks after
 * can be reached. Administrators see everyone (the users screen's column), managers the people
 * of the rotations they manage (the dashboard warns them of whoever cannot be reached, as it
 * warns of gaps), anyone else themselves.
 */
export async function reachabilityRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const channels = channelsFromConfig(deps.config);
  const notSetUp: SetUpMethods = {
    email: channels.email ? null : channelNotConfiguredReason('email'),
    sms: channels.sms ? null : channelNotConfiguredReason('sms'),
  };

  api.get(
    '/api/users/reachability',
    {
      preValidation: permitted('profile.editOwn'),
      schema: { response: answers({ 200: ReachabilitySchema }, 401, 403) },
    },
    async (req): Promise<Reachability> => listReachability(deps, requireUser(req), notSetUp),
  );
}
