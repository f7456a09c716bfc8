import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ScheduleEntryInputSchema } from '../../../shared/contracts/rotations';
import type { AppDeps } from '../../deps';
import { IdParams, idParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import {
  addScheduleEntry,
  currentScheduleEntry,
  deleteScheduleEntry,
  listSchedule,
} from './schedule-service';

/** scheduleRoutes: a rotation's schedule entries. HTTP only; rules live in the service. */
export async function scheduleRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/rotations/:id/schedules',
    { preValidation: permitted('rotation.view'), schema: { params: IdParams } },
    async (req) => listSchedule(deps, requireUser(req), req.params.id),
  );

  api.get(
    '/api/rotations/:id/schedules/current',
    { preValidation: permitted('rotation.view'), schema: { params: IdParams } },
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
      schema: { params: IdParams, body: ScheduleEntryInputSchema },
    },
    async (req, reply) =>
      reply.code(201).send(await addScheduleEntry(deps, requireUser(req), req.params.id, req.body)),
  );

  api.delete(
    '/api/rotation-schedules/:scheduleId',
    { preValidation: permitted('schedule.manage'), schema: { params: idParams('scheduleId') } },
    async (req, reply) => {
      await deleteScheduleEntry(deps, requireUser(req), req.params.scheduleId);
      return reply.code(204).send();
    },
  );
}
