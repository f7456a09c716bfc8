import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HandoffSchema } from '../../../shared/contracts/rotations';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { sendCachedRead } from '../../http/read-cache';
import { permitted, requireUser } from '../../http/request-context';
import { acknowledgeHandoff, recentHandoffs } from './handoff-service';

export const RECENT_HANDOFFS_DEFAULT = 5;
export const RECENT_HANDOFFS_MAX = 100;

const RecentQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d{1,6}$/, 'limit must be a whole number from 1')
    .transform(Number)
    .refine((n) => n >= 1, 'limit must be a whole number from 1')
    // More than the maximum is read as the maximum.
    .transform((n) => Math.min(n, RECENT_HANDOFFS_MAX))
    .optional(),
});

/** handoffRoutes: the handoff history reads. */
export async function handoffRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/handoffs/recent',
    {
      preValidation: permitted('handoff.viewHistory'),
      schema: {
        querystring: RecentQuerySchema,
        response: answers({ 200: z.array(HandoffSchema) }, 400, 401, 403),
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const count = req.query.limit ?? RECENT_HANDOFFS_DEFAULT;
      // Through the read cache (decisions 140 and 295): the history does not change with time
      // alone, and is the same for everyone who may read it.
      const route = `handoffs.recent?limit=${count}`;
      return sendCachedRead(req, reply, { route, for: 'everyone' }, async () => {
        const at = deps.clock.now();
        return { body: await recentHandoffs(deps, user, count), at, changesAt: null };
      });
    },
  );

  api.post(
    '/api/handoffs/:id/acknowledge',
    {
      preValidation: permitted('baton.hold'),
      schema: {
        params: IdParams,
        response: answers({ 200: HandoffSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => acknowledgeHandoff(deps, requireUser(req), req.params.id),
  );
}
