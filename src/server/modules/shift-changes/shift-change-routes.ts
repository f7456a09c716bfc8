import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ShiftNotice } from '../../../shared/contracts/shift-changes';
import { ShiftNoticeSchema } from '../../../shared/contracts/shift-changes';
import type { AppDeps } from '../../core/deps';
import { answers, noContent } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { requireUser, signedIn } from '../../http/request-context';
import { dismissShiftNotice, listMyShiftNotices } from './shift-changes';

/** shiftChangeRoutes: the signed-in person's "your shift moved" notices (decision 219). */
export async function shiftChangeRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/user/shift-notices',
    {
      preValidation: signedIn,
      schema: { response: answers({ 200: z.array(ShiftNoticeSchema) }, 401) },
    },
    async (req): Promise<ShiftNotice[]> => listMyShiftNotices(deps, requireUser(req)),
  );

  api.post(
    '/api/user/shift-notices/:id/dismiss',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        response: answers({ 204: noContent('The notice is dismissed.') }, 400, 401, 403, 404),
      },
    },
    async (req, reply) => {
      await dismissShiftNotice(deps, requireUser(req), req.params.id);
      return reply.code(204).send();
    },
  );
}
