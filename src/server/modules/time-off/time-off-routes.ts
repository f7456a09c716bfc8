import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  TeamTimeOffSchema,
  TimeOffEntrySchema,
  TimeOffImpactSchema,
  TimeOffInputSchema,
  TimeOffListSchema,
  TimeOffWarningsQuerySchema,
  TimeOffWarningsSchema,
} from '../../../shared/contracts/time-off';
import type { AppDeps } from '../../core/deps';
import { answers, noContent } from '../../http/openapi';
import { IdParams, idParams } from '../../http/path-params';
import { permitted, requireUser, signedIn } from '../../http/request-context';
import {
  addTimeOff,
  listTeamTimeOff,
  listTimeOff,
  previewTimeOff,
  removeTimeOff,
  timeOffWarnings,
} from './time-off-service';

/**
 * timeOffRoutes: a person's time off (issue 18, decision 217) and the warnings it raises. HTTP
 * only; who may read and change whose time off is the service's rule (canManageTimeOff).
 */
export async function timeOffRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/users/:id/time-off',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        response: answers({ 200: TimeOffListSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => listTimeOff(deps, requireUser(req), req.params.id),
  );

  api.post(
    '/api/users/:id/time-off',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        body: TimeOffInputSchema,
        response: answers({ 201: TimeOffEntrySchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) =>
      reply.code(201).send(await addTimeOff(deps, requireUser(req), req.params.id, req.body)),
  );

  // What recording the entry would change, nothing written (decision 256): the dialog shows it.
  api.post(
    '/api/users/:id/time-off/preview',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        body: TimeOffInputSchema,
        response: answers({ 200: TimeOffImpactSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => previewTimeOff(deps, requireUser(req), req.params.id, req.body),
  );

  // The time off of the people whose time off the caller manages (decision 256).
  api.get(
    '/api/time-off',
    {
      preValidation: signedIn,
      schema: { response: answers({ 200: TeamTimeOffSchema }, 401) },
    },
    async (req) => listTeamTimeOff(deps, requireUser(req)),
  );

  api.delete(
    '/api/users/:id/time-off/:entryId',
    {
      preValidation: signedIn,
      schema: {
        params: idParams('id', 'entryId'),
        response: answers({ 204: noContent('The time off is deleted.') }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) => {
      await removeTimeOff(deps, requireUser(req), req.params.id, req.params.entryId);
      return reply.code(204).send();
    },
  );

  // The gaps ahead and the schedule entries that collide with time off: the dashboard and the
  // rotation page warn of them.
  api.get(
    '/api/time-off/warnings',
    {
      preValidation: permitted('rotation.view'),
      schema: {
        querystring: TimeOffWarningsQuerySchema,
        response: answers({ 200: TimeOffWarningsSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => timeOffWarnings(deps, req.query.rotationId),
  );
}
