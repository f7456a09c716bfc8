import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CalendarFeedLinksSchema,
  CalendarFeedStatusSchema,
  CalendarQuerySchema,
  CalendarSchema,
} from '../../../shared/contracts/calendar';
import { idText } from '../../../shared/contracts/primitives';
import type { AppDeps } from '../../core/deps';
import { notFound } from '../../http/errors';
import { answers, content } from '../../http/openapi';
import { TokenParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import {
  FEED_NOT_FOUND,
  feedStatus,
  getCalendar,
  personalFeed,
  resetFeedSecret,
  rotationFeed,
} from './calendar-service';

/** A rotation's feed: `{id}.ics`, read by the route so that anything else answers the feeds' 404. */
const RotationFeedParams = TokenParams.extend({ file: z.string() });

/**
 * calendarRoutes: the calendar read, the user's feed secret, and the iCalendar feeds. The feeds
 * are read by calendar apps without a session: the secret in the URL is the only key, and a wrong
 * one answers 404.
 */
export async function calendarRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/calendar',
    {
      preValidation: permitted('rotation.view'),
      schema: {
        querystring: CalendarQuerySchema,
        response: answers({ 200: CalendarSchema }, 400, 401, 403),
      },
    },
    async (req) =>
      getCalendar(deps, requireUser(req), new Date(req.query.from), new Date(req.query.to)),
  );

  api.get(
    '/api/calendar/feed',
    {
      preValidation: permitted('rotation.view'),
      schema: { response: answers({ 200: CalendarFeedStatusSchema }, 401, 403) },
    },
    async (req) => feedStatus(deps, requireUser(req)),
  );

  api.post(
    '/api/calendar/feed/reset',
    {
      preValidation: permitted('rotation.view'),
      schema: { response: answers({ 200: CalendarFeedLinksSchema }, 401, 403) },
    },
    async (req) => {
      const baseUrl = deps.config.publicUrl ?? `${req.protocol}://${req.host}`;
      return resetFeedSecret(deps, requireUser(req), baseUrl);
    },
  );

  api.get(
    '/api/calendar/feeds/:token/me.ics',
    {
      schema: {
        security: [],
        params: TokenParams,
        response: answers(
          { 200: content('text/calendar', "The person's shifts, an iCalendar feed.") },
          404,
        ),
      },
    },
    async (req, reply) => {
      const body = await personalFeed(deps, req.params.token);
      return reply.type('text/calendar; charset=utf-8').send(body);
    },
  );

  api.get(
    '/api/calendar/feeds/:token/rotations/:file',
    {
      schema: {
        security: [],
        params: RotationFeedParams,
        response: answers(
          {
            200: content(
              'text/calendar',
              "The rotation's shifts, an iCalendar feed ({rotationId}.ics).",
            ),
          },
          404,
        ),
      },
    },
    async (req, reply) => {
      const rotationId = idText().safeParse(/^(\d{1,16})\.ics$/.exec(req.params.file)?.[1]);
      if (!rotationId.success) throw notFound(FEED_NOT_FOUND);
      const body = await rotationFeed(deps, req.params.token, rotationId.data);
      return reply.type('text/calendar; charset=utf-8').send(body);
    },
  );
}
