import type { FastifyInstance } from 'fastify';
import { ScheduleEntryInputSchema } from '../../../shared/contracts/rotations';
import type { AppDeps } from '../../deps';
import { parseId, parseInput } from '../../http/errors';
import { requirePermission } from '../../http/request-context';
import {
  addScheduleEntry,
  currentScheduleEntry,
  deleteScheduleEntry,
  listSchedule,
} from './schedule-service';

type IdParams = { Params: { id: string } };

/** scheduleRoutes: a rotation's schedule entries. HTTP only; rules live in the service. */
export async function scheduleRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get<IdParams>('/api/rotations/:id/schedules', async (req) => {
    const user = requirePermission(req, 'rotation.view');
    return listSchedule(deps, user, parseId(req.params.id));
  });

  app.get<IdParams>('/api/rotations/:id/schedules/current', async (req, reply) => {
    const user = requirePermission(req, 'rotation.view');
    const entry = await currentScheduleEntry(deps, user, parseId(req.params.id));
    // JSON null when no entry covers now.
    return reply.type('application/json').send(JSON.stringify(entry));
  });

  app.post<IdParams>('/api/rotations/:id/schedules', async (req, reply) => {
    const user = requirePermission(req, 'schedule.manage');
    const rotationId = parseId(req.params.id);
    const input = parseInput(ScheduleEntryInputSchema, req.body);
    return reply.code(201).send(await addScheduleEntry(deps, user, rotationId, input));
  });

  app.delete<{ Params: { scheduleId: string } }>(
    '/api/rotation-schedules/:scheduleId',
    async (req, reply) => {
      const user = requirePermission(req, 'schedule.manage');
      await deleteScheduleEntry(deps, user, parseId(req.params.scheduleId, 'scheduleId'));
      return reply.code(204).send();
    },
  );
}
