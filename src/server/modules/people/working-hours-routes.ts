import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  WorkingHoursAnswerSchema,
  WorkingHoursSchema,
} from '../../../shared/contracts/working-hours';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { putWorkingHours, readWorkingHours } from './working-hours-service';

/**
 * A person's working hours (issue 33, decision 254): one's own, or (administrators) anyone's.
 * Low-urgency pages outside them wait for their next start when the person holds low urgency.
 */
export async function workingHoursRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const service = { db: deps.database.db, cipher: deps.cipher, clock: deps.clock };
  const path = '/api/users/:id/working-hours';

  api.get(
    path,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        response: answers({ 200: WorkingHoursAnswerSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => readWorkingHours(service, requireUser(req), req.params.id),
  );

  api.put(
    path,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        body: WorkingHoursSchema,
        response: answers({ 200: WorkingHoursAnswerSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => putWorkingHours(service, requireUser(req), req.params.id, req.body),
  );
}
