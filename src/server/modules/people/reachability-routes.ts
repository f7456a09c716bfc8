import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { channelNotConfiguredReason } from '../../../shared/contracts/notifications';
import { type Reachability, ReachabilitySchema } from '../../../shared/contracts/reachability';
import { managesRotation } from '../../../shared/domain/permissions-rotation';
import { reachOf, type SetUpMethods } from '../../../shared/domain/reachability';
import { hasRole } from '../../../shared/domain/roles';
import type { AppDeps } from '../../core/deps';
import { users } from '../../db/schema';
import { answers } from '../../http/openapi';
import { permitted, requireUser } from '../../http/request-context';
import { channelsFromConfig } from '../notifications/channels';
import { listRotationFactsOf } from '../rotations/rotation-repository';
import { findUserRows, rulesOf, toUser } from '../users/user-repository';

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
    async (req): Promise<Reachability> => {
      const viewer = requireUser(req);
      const db = deps.database.db;
      let ids: number[] | null = [viewer.id];
      if (hasRole(viewer.roles, 'admin')) ids = null;
      else if (hasRole(viewer.roles, 'manager')) {
        const managed = (await listRotationFactsOf(db)).filter((r) => managesRotation(viewer, r));
        ids = [...new Set([viewer.id, ...managed.flatMap((r) => r.memberUserIds)])];
      }
      const rows = ids === null ? await db.select().from(users) : await findUserRows(db, ids);
      const people = rows
        .map((row) => {
          const user = toUser(row, deps.cipher);
          const reach = reachOf(
            {
              phone: user.phone,
              notificationPreference: user.notificationPreference,
              notificationRules: rulesOf(row),
            },
            notSetUp,
          );
          return { id: user.id, name: user.name, ...reach };
        })
        .sort((a, b) => a.name.localeCompare(b.name));
      return { people };
    },
  );
}
