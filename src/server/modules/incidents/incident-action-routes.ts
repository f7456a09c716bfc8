import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EscalateIncidentInputSchema,
  type Incident,
  IncidentInputSchema,
  IncidentSchema,
  ReassignIncidentInputSchema,
  ReopenIncidentInputSchema,
  ResolveIncidentInputSchema,
} from '../../../shared/contracts/incidents';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { requireUser, signedIn } from '../../http/request-context';
import {
  acknowledgeIncident,
  escalateIncident,
  raiseIncidentFor,
  reassignIncident,
  resolveIncident,
} from './incident-actions';
import { reopenIncident } from './incident-reopen';

/**
 * incidentActionRoutes: raise an incident, and acknowledge, resolve, escalate, reassign or reopen one
 * (decision 204). HTTP only: who may is the services' rule (isIncidentResponder, canPageRotation),
 * decided under the incident's lock; each answers the incident as the reads show it.
 */
export async function incidentActionRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/incidents',
    {
      preValidation: signedIn,
      schema: {
        body: IncidentInputSchema,
        response: answers({ 201: IncidentSchema }, 400, 401, 403, 404, 409, 429),
      },
    },
    async (req, reply): Promise<Incident> => {
      const incident = await raiseIncidentFor(deps, requireUser(req), req.body);
      reply.code(201);
      return incident;
    },
  );

  api.post(
    '/api/incidents/:id/acknowledge',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        response: answers({ 200: IncidentSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req): Promise<Incident> => acknowledgeIncident(deps, requireUser(req), req.params.id),
  );

  api.post(
    '/api/incidents/:id/resolve',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        body: ResolveIncidentInputSchema,
        response: answers({ 200: IncidentSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req): Promise<Incident> =>
      resolveIncident(deps, requireUser(req), req.params.id, req.body),
  );

  // A resolved incident back to triggered, climbing its policy again from step 1 (decision 261).
  api.post(
    '/api/incidents/:id/reopen',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        body: ReopenIncidentInputSchema,
        response: answers({ 200: IncidentSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req): Promise<Incident> =>
      reopenIncident(deps, requireUser(req), req.params.id, req.body),
  );

  api.post(
    '/api/incidents/:id/escalate',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        body: EscalateIncidentInputSchema,
        response: answers({ 200: IncidentSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req): Promise<Incident> =>
      escalateIncident(deps, requireUser(req), req.params.id, req.body),
  );

  api.post(
    '/api/incidents/:id/reassign',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        body: ReassignIncidentInputSchema,
        response: answers({ 200: IncidentSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req): Promise<Incident> =>
      reassignIncident(deps, requireUser(req), req.params.id, req.body),
  );
}
