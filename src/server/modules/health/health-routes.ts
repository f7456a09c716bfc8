import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock';
import type { Database } from '../../db/client';
import { type EngineStatus, engineIsStale } from '../../engine/engine-loop';

/**
 * Liveness (process up) and readiness: the database is reachable and, when the engine runs in
 * this process, it has ticked within the last few intervals.
 */
export async function healthRoutes(
  app: FastifyInstance,
  opts: { database: Database; clock: Clock; engineStatus?: () => EngineStatus },
) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
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
    return {
      status: 'ready',
      database: opts.database.engine,
      ...(engine ? { engine: { lastTickAt: engine.lastTickAt?.toISOString() ?? null } } : {}),
    };
  });
}
