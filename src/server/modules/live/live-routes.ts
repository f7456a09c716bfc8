import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LiveStreamQuerySchema } from '../../../shared/contracts/live-events';
import type { AppDeps } from '../../core/deps';
import { AppError } from '../../http/errors';
import { answers, content } from '../../http/openapi';
import { requireUser, signedIn } from '../../http/request-context';
import type { LiveHub } from './live-hub';

/** What a stream's answer carries besides the app's security headers (lower case: they replace). */
export const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  // no-transform: a proxy may not compress or rewrite it (a gzip proxy buffers); no-store as
  // every API answer.
  'cache-control': 'no-store, no-transform',
  // nginx buffers a proxied answer unless told not to.
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
} as const;

/**
 * liveRoutes: `GET /api/events`, the signed-in browser's stream of changes (issue 19, decision
 * 220). The session is the one the request resolved, as for every read; the hub re-checks it.
 */
export async function liveRoutes(app: FastifyInstance, deps: AppDeps & { hub: LiveHub }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { hub } = deps;

  api.get(
    '/api/events',
    {
      preValidation: signedIn,
      schema: {
        querystring: LiveStreamQuerySchema,
        response: answers(
          {
            200: content(
              'text/event-stream',
              'Server-sent events: each `data:` line is a ChangeEvent (JSON); `retry:` and comment lines keep the stream alive.',
            ),
          },
          400,
          401,
        ),
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const principal = req.principal;
      if (!principal) throw new AppError('UNAUTHENTICATED', 'Not authenticated');
      try {
        await hub.start();
      } catch (err) {
        req.log.error({ err }, 'live updates: cannot listen for changes');
        reply.header('Retry-After', '5');
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'Live updates are unavailable. Try again shortly.',
        );
      }
      const lastEventId = req.query.lastEventId ?? lastEventIdHeader(req.headers['last-event-id']);

      reply.hijack();
      const res = reply.raw;
      const headers: Record<string, string | number | string[]> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) headers[name] = value as string | number | string[];
      }
      res.writeHead(200, { ...headers, ...STREAM_HEADERS });
      // A request made in process (app.inject) has no connection to stream on and waits for the
      // end: it gets the opening alone.
      const streaming = req.raw.socket instanceof Socket;
      req.raw.socket?.setNoDelay?.(true);
      let remove: (() => void) | null = null;
      let ended = false;
      const sink = {
        write: (chunk: string) => res.write(chunk),
        buffered: () => res.writableLength,
        end: () => {
          if (ended) return;
          ended = true;
          res.end();
        },
      };
      res.on('close', () => {
        ended = true;
        remove?.();
      });
      try {
        remove = await hub.open(
          sink,
          { tokenHash: principal.tokenHash, userId: user.id, roles: user.roles },
          lastEventId,
        );
      } catch (err) {
        req.log.error({ err }, 'live updates: opening a stream failed');
        sink.end();
        return;
      }
      if (ended) remove();
      else if (!streaming) {
        remove();
        sink.end();
      }
    },
  );
}

/**
 * lastEventIdHeader reads the `Last-Event-ID` an EventSource sends when it reconnects. It is
 * always an id this server sent; anything else reads as 0, an id never kept, so the browser is
 * told to re-read everything.
 */
function lastEventIdHeader(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value[0] : value;
  return /^\d{1,15}$/.test(text ?? '') ? Number(text) : 0;
}
