import type { FastifyInstance } from 'fastify';
import {
  type HelpLinks,
  HelpLinksSchema,
  type HelpTimings,
  HelpTimingsSchema,
  handoffTimingsInMinutes,
} from '../../../shared/contracts/help';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';

/**
 * What the help pages show as this deployment has it (decision 134). Public, like the help pages:
 * the timings are no secret, and a reader need not sign in to learn how handoffs work.
 */
export async function helpRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get(
    '/api/help/timings',
    { schema: { security: [], response: answers({ 200: HelpTimingsSchema }) } },
    async (): Promise<HelpTimings> => ({
      handoff: handoffTimingsInMinutes(deps.config.handoffTimings),
    }),
  );

  // Where the Users Forum and Report a Bug links point (decision 184): public, since the help
  // pages and the sidebar show them, and the operator chose them to be seen.
  app.get(
    '/api/help/links',
    { schema: { security: [], response: answers({ 200: HelpLinksSchema }) } },
    async (): Promise<HelpLinks> => deps.config.helpLinks,
  );
}
