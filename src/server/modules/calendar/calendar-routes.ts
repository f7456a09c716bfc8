import type { FastifyInstance } from 'fastify';
import { CalendarQuerySchema } from '../../../shared/contracts/calendar';
import { idText } from '../../../shared/contracts/primitives';
import type { AppDeps } from '../../deps';
import { notFound, parseInput } from '../../http/errors';
import { requirePermission } from '../../http/request-context';
import {
  FEED_NOT_FOUND,
  feedStatus,
  getCalendar,
  personalFeed,
  resetFeedSecret,
  rotationFeed,
} from './calendar-service';

type FeedParams = { Params: { token: string } };

/**
 * calendarRoutes: the calendar read, the user's feed secret, and the iCalendar feeds. The feeds
 * are read by calendar apps without a session: the secret in the URL is the only key, and a wrong
 * one answers 404.
 */
export async function calendarRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get('/api/calendar', async (req) => {
    const user = requirePermission(req, 'rotation.view');
    const query = parseInput(CalendarQuerySchema, req.query);
    return getCalendar(deps, user, new Date(query.from), new Date(query.to));
  });

  app.get('/api/calendar/feed', async (req) => {
    const user = requirePermission(req, 'rotation.view');
    return feedStatus(deps, user);
  });

  app.post('/api/calendar/feed/reset', async (req) => {
    const user = requirePermission(req, 'rotation.view');
    const baseUrl = deps.config.publicUrl ?? `${req.protocol}://${req.host}`;
    return resetFeedSecret(deps, user, baseUrl);
  });

  app.get<FeedParams>('/api/calendar/feeds/:token/me.ics', async (req, reply) => {
    const body = await personalFeed(deps, req.params.token);
    return reply.type('text/calendar; charset=utf-8').send(body);
  });

  app.get<FeedParams & { Params: { file: string } }>(
    '/api/calendar/feeds/:token/rotations/:file',
    async (req, reply) => {
      const rotationId = idText().safeParse(/^(\d{1,16})\.ics$/.exec(req.params.file)?.[1]);
      if (!rotationId.success) throw notFound(FEED_NOT_FOUND);
      const body = await rotationFeed(deps, req.params.token, rotationId.data);
      return reply.type('text/calendar; charset=utf-8').send(body);
    },
  );
}
