import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../core/config';
import type { Database } from '../../db/client';
import { AppError } from '../../http/errors';
import type { Metrics } from './metrics';
import { openIncidentCounts, outboxQueueDepth } from './metrics-repository';

/** What a wrong or missing metrics token is told. */
export const METRICS_TOKEN_REQUIRED =
  'GET /metrics needs the metrics token: Authorization: Bearer <METRICS_TOKEN>.';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * bearerMatches tells whether an Authorization header carries `token` as a bearer token, in
 * constant time: both sides are hashed first, so neither the length nor a prefix leaks.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return timingSafeEqual(sha256(match?.[1] ?? ''), sha256(token)) && match !== null;
}

/**
 * recordRequests counts every answered request into the metrics by its route pattern (never the
 * URL, whose ids would make a series each); one no route matched is `unmatched`. A hook on the
 * root app, so it sees every plugin's routes.
 */
export function recordRequests(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    metrics.recordRequest(
      req.method,
      req.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/**
 * metricsRoutes: GET /metrics in Prometheus' text format (issue 20, decision 225), for the holder
 * of METRICS_TOKEN or, with METRICS_PUBLIC=1, anyone; with neither it is not registered and
 * answers 404 as every unknown reserved path does.
 */
export async function metricsRoutes(
  app: FastifyInstance,
  deps: {
    config: Pick<Config, 'metrics'>;
    database: Database;
    metrics: Metrics;
    openStreams: () => number;
  },
) {
  const { token, public: open } = deps.config.metrics;
  if (!token && !open) return;
  const { metrics, database } = deps;
  metrics.watch({
    queueDepth: () => outboxQueueDepth(database.db),
    openIncidents: () => openIncidentCounts(database.db),
    openStreams: deps.openStreams,
    poolStats: database.poolStats,
    onError: (err) => app.log.warn({ err }, 'metrics: a database read failed'),
  });
  app.get('/metrics', async (req, reply) => {
    if (token && !bearerMatches(req.headers.authorization, token)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError('UNAUTHENTICATED', METRICS_TOKEN_REQUIRED);
    }
    const text = await metrics.registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}
