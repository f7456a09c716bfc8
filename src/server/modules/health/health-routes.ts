import type { FastifyInstance } from 'fastify';
import { LivenessSchema, ReadinessSchema } from '../../../shared/contracts/health';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { EngineStatus } from '../../core/deps';
import type { Lifecycle } from '../../core/lifecycle';
import { BATON_VERSION } from '../../core/version';
import type { Database } from '../../db/client';
import { engineIsStale } from '../../engine/engine-loop';
import { answers } from '../../http/openapi';
import { channelSetup, NO_CHANNEL_MESSAGE } from '../notifications/channels';

/** What /readyz says once a graceful shutdown has begun (decision 225). */
export const SHUTDOWN_NOT_READY = 'Baton is shutting down';

/**
 * Liveness (process up; `/healthz`, and `/api/health` for clients of the API) and readiness: not
 * shutting down, the database is reachable, when the engine runs in this process it has ticked
 * within the last few intervals, and in production some notification channel is configured
 * (decision 163: a server that cannot deliver a page is not ready). Each answer names the
 * version (decision 225).
 */
export async function healthRoutes(
  app: FastifyInstance,
  opts: {
    config: Pick<Config, 'nodeEnv' | 'mail' | 'sms'>;
    database: Database;
    clock: Clock;
    engineStatus?: () => EngineStatus;
    lifecycle?: Lifecycle;
  },
) {
  const alive = async () => ({ status: 'ok' as const, version: BATON_VERSION });
  const liveness = { schema: { security: [], response: answers({ 200: LivenessSchema }) } };
  app.get('/healthz', liveness, alive);
  app.get('/api/health', liveness, alive);
  app.get(
    '/readyz',
    { schema: { security: [], response: answers({ 200: ReadinessSchema }) } },
    async (_req, reply) => {
      if (opts.lifecycle?.draining) {
        return reply.code(503).send({ message: SHUTDOWN_NOT_READY, code: 'SERVICE_UNAVAILABLE' });
      }
      try {
        await opts.database.ping();
      } catch {
        return reply
          .code(503)
          .send({ message: 'Database is not reachable', code: 'SERVICE_UNAVAILABLE' });
      }
      const engine = opts.engineStatus?.();
      if (engine && engineIsStale(engine, opts.clock.now())) {
        return reply.code(503).send({
          message: engine.lastTickAt
            ? `The engine has not ticked since ${engine.lastTickAt.toISOString()}`
            : 'The engine has not ticked yet',
          code: 'SERVICE_UNAVAILABLE',
        });
      }
      const channels = channelSetup(opts.config);
      if (opts.config.nodeEnv === 'production' && channels.noChannel) {
        return reply.code(503).send({
          message: NO_CHANNEL_MESSAGE,
          code: 'SERVICE_UNAVAILABLE',
          missing: channels.missing,
        });
      }
      return {
        status: 'ready' as const,
        version: BATON_VERSION,
        database: opts.database.engine,
        ...(engine ? { engine: { lastTickAt: engine.lastTickAt?.toISOString() ?? null } } : {}),
      };
    },
  );
}
