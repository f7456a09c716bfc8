import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ShiftNotice } from '../../../shared/contracts/shift-changes';
import type { AppDeps } from '../../deps';
import { IdParams } from '../../http/path-params';
import { requireUser, signedIn } from '../../http/request-context';
import { dismissShiftNotice, listMyShiftNotices } from './shift-changes';

/** shiftChangeRoutes: the signed-in person's "your shift moved" notices (decision 219). */
export async function shiftChangeRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/user/shift-notices',
    { preValidation: signedIn },
    async (req): Promise<ShiftNotice[]> => listMyShiftNotices(deps, requireUser(req)),
  );

  api.post(
    '/api/user/shift-notices/:id/dismiss',
    { preValidation: signedIn, schema: { params: IdParams } },
    async (req, reply) => {
      await dismissShiftNotice(deps, requireUser(req), req.params.id);
      return reply.code(204).send();
    },
  );
}
