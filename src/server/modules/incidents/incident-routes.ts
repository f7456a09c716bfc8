import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type Incident,
  type IncidentList,
  IncidentListQuerySchema,
  IncidentListSchema,
  IncidentNoteInputSchema,
  IncidentSchema,
} from '../../../shared/contracts/incidents';
import { PageInputSchema, PageResponseSchema } from '../../../shared/contracts/rotations';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser, signedIn } from '../../http/request-context';
import { addIncidentNote } from './incident-notes';
import { getIncident, listIncidents } from './incident-reads';
import { pageRotation } from './rotation-page';

/**
 * incidentRoutes: reading incidents (every role sees every incident, as the rotation page history)
 * and adding a note (a responder: incidentActions.addNote). Decision 205.
 */
export async function incidentRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/incidents',
    {
      preValidation: permitted('page.viewHistory'),
      schema: {
        querystring: IncidentListQuerySchema,
        response: answers({ 200: IncidentListSchema }, 400, 401, 403),
      },
    },
    async (req): Promise<IncidentList> => listIncidents(deps, requireUser(req), req.query),
  );

  api.get(
    '/api/incidents/:id',
    {
      preValidation: permitted('page.viewHistory'),
      schema: { params: IdParams, response: answers({ 200: IncidentSchema }, 400, 401, 403, 404) },
    },
    async (req): Promise<Incident> => getIncident(deps, requireUser(req), req.params.id),
  );

  // A note answers the incident with its new line: 201, something was created.
  api.post(
    '/api/incidents/:id/notes',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        body: IncidentNoteInputSchema,
        response: answers({ 201: IncidentSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply): Promise<Incident> => {
      const incident = await addIncidentNote(deps, requireUser(req), req.params.id, req.body.text);
      return reply.code(201).send(incident);
    },
  );
}

/**
 * rotationPageRoutes: paging a rotation (specification section 7; registered beside the rotation
 * calls): an incident on its policy (decision 204).
 */
export async function rotationPageRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/rotations/:id/page',
    {
      preValidation: permitted('page.send'),
      schema: {
        params: IdParams,
        body: PageInputSchema,
        response: answers({ 201: PageResponseSchema }, 400, 401, 403, 404, 409, 429),
      },
    },
    async (req, reply) =>
      reply.code(201).send(await pageRotation(deps, requireUser(req), req.params.id, req.body)),
  );
}
