import type { FastifyInstance } from 'fastify';
import { type HelpTimings, handoffTimingsInMinutes } from '../../../shared/contracts/help';
import type { AppDeps } from '../../app';

/**
 * What the help pages show as this deployment has it (decision 134). Public, like the help pages:
 * the timings are no secret, and a reader need not sign in to learn how handoffs work.
 */
export async function helpRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    '/api/help/timings',
    async (): Promise<HelpTimings> => ({
      handoff: handoffTimingsInMinutes(deps.config.handoffTimings),
    }),
  );
}
