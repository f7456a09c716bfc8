import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { instant } from '../../../shared/contracts/primitives';
import {
  OccurrenceChangeSchema,
  ScheduleEntryChangeSchema,
  ScheduleEntryInputSchema,
  ScheduleEntrySchema,
} from '../../../shared/contracts/rotations';
import type { AppDeps } from '../../core/deps';
import { answers, noContent, ok } from '../../http/openapi';
import { IdParams, idParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { changeOccurrence, changeScheduleEntry, deleteOccurrence } from './schedule-changes';
import {
  addScheduleEntry,
  currentScheduleEntry,
  deleteScheduleEntry,
  listSchedule,
} from './schedule-service';

/** An occurrence of a series, named by its entry and its start (decision 250). */
const OccurrenceParams = idParams('scheduleId').extend({
  start: instant({ label: 'start', message: 'start must be a valid date and time' }),
});

/** scheduleRoutes: a rotation's schedule entries. HTTP only; rules live in the service. */
export async function scheduleRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/rotations/:id/schedules',
    {
      preValidation: permitted('rotation.view'),
      schema: {
        params: IdParams,
        response: answers({ 200: z.array(ScheduleEntrySchema) }, 400, 401, 403, 404),
      },
    },
    async (req) => listSchedule(deps, requireUser(req), req.params.id),
  );

  api.get(
    '/api/rotations/:id/schedules/current',
    {
      preValidation: permitted('rotation.view'),
      schema: {
        params: IdParams,
        response: answers(
          { 200: ok(ScheduleEntrySchema.nullable(), 'The entry that covers now, or null.') },
          400,
          401,
          403,
          404,
        ),
      },
    },
    async (req, reply) => {
      const entry = await currentScheduleEntry(deps, requireUser(req), req.params.id);
      // JSON null when no entry covers now.
      return reply.type('application/json').send(JSON.stringify(entry));
    },
  );

  api.post(
    '/api/rotations/:id/schedules',
    {
      preValidation: permitted('schedule.manage'),
      schema: {
        params: IdParams,
        body: ScheduleEntryInputSchema,
        response: answers({ 201: ScheduleEntrySchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) =>
      reply.code(201).send(await addScheduleEntry(deps, requireUser(req), req.params.id, req.body)),
  );

  api.delete(
    '/api/rotation-schedules/:scheduleId',
    {
      preValidation: permitted('schedule.manage'),
      schema: {
        params: idParams('scheduleId'),
        response: answers({ 204: noContent('The entry is deleted.') }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) => {
      await deleteScheduleEntry(deps, requireUser(req), req.params.scheduleId);
      return reply.code(204).send();
    },
  );

  changeRoutes(app, deps);
}

/** changeRoutes: a whole entry changed, and one occurrence of a series changed or deleted. */
function changeRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.patch(
    '/api/rotation-schedules/:scheduleId',
    {
      preValidation: permitted('schedule.manage'),
      schema: {
        params: idParams('scheduleId'),
        body: ScheduleEntryChangeSchema,
        response: answers({ 200: ScheduleEntrySchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => changeScheduleEntry(deps, requireUser(req), req.params.scheduleId, req.body),
  );

  api.patch(
    '/api/rotation-schedules/:scheduleId/occurrences/:start',
    {
      preValidation: permitted('schedule.manage'),
      schema: {
        params: OccurrenceParams,
        body: OccurrenceChangeSchema,
        response: answers({ 200: ScheduleEntrySchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) =>
      changeOccurrence(
        deps,
        requireUser(req),
        req.params.scheduleId,
        new Date(req.params.start),
        req.body,
      ),
  );

  api.delete(
    '/api/rotation-schedules/:scheduleId/occurrences/:start',
    {
      preValidation: permitted('schedule.manage'),
      schema: {
        params: OccurrenceParams,
        response: answers(
          { 204: noContent('The occurrence is taken out of its series.') },
          400,
          401,
          403,
          404,
          409,
        ),
      },
    },
    async (req, reply) => {
      await deleteOccurrence(
        deps,
        requireUser(req),
        req.params.scheduleId,
        new Date(req.params.start),
      );
      return reply.code(204).send();
    },
  );
}
