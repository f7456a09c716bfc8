import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { parseId, parseInput } from '../../http/errors';
import { sendCachedRead } from '../../http/read-cache';
import { requirePermission } from '../../http/request-context';
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
  app.get('/api/handoffs/recent', async (req, reply) => {
    const user = requirePermission(req, 'handoff.viewHistory');
    const { limit } = parseInput(RecentQuerySchema, req.query);
    const count = limit ?? RECENT_HANDOFFS_DEFAULT;
    // Through the read cache (decision 140): the history does not change with time alone.
    return sendCachedRead(req, reply, `handoffs.recent?limit=${count}`, async () => {
      const at = deps.clock.now();
      return { body: await recentHandoffs(deps, user, count), at, changesAt: null };
    });
  });

  app.post<{ Params: { id: string } }>('/api/handoffs/:id/acknowledge', async (req) => {
    const user = requirePermission(req, 'baton.hold');
    return acknowledgeHandoff(deps, user, parseId(req.params.id));
  });
}
