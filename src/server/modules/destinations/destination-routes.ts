import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DESTINATION_MESSAGES,
  type Destination,
  DestinationChangeSchema,
  DestinationCreatedSchema,
  type DestinationDeliveryList,
  DestinationDeliveryListSchema,
  DestinationInputSchema,
  type DestinationList,
  DestinationListQuerySchema,
  DestinationListSchema,
  DestinationSchema,
} from '../../../shared/contracts/destinations';
import { mayManageSomeDestination } from '../../../shared/domain/integrations';
import type { AppDeps } from '../../core/deps';
import { forbidden } from '../../http/errors';
import { answers, noContent } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { requireUser, signedIn } from '../../http/request-context';
import {
  createDestination,
  deleteDestination,
  getDestination,
  listDeliveries,
  listDestinations,
  updateDestination,
} from './destination-service';

/**
 * managesDestinations guards the routes that change destinations: managers and administrators
 * pass (which destinations, the service decides: 404, then 403); everyone else is refused before
 * their input is read.
 */
export async function managesDestinations(req: FastifyRequest): Promise<void> {
  const user = requireUser(req);
  if (!mayManageSomeDestination(user)) throw forbidden(DESTINATION_MESSAGES.mayNotManage);
}

/** destinationRoutes: issue 19's chat and webhook destinations (decision 221). HTTP only. */
export async function destinationRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/destinations',
    {
      preValidation: signedIn,
      schema: {
        querystring: DestinationListQuerySchema,
        response: answers({ 200: DestinationListSchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<DestinationList> => listDestinations(deps, requireUser(req), req.query),
  );

  api.post(
    '/api/destinations',
    {
      preValidation: managesDestinations,
      schema: {
        body: DestinationInputSchema,
        response: answers({ 201: DestinationCreatedSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req, reply) => {
      const created = await createDestination(deps, requireUser(req), req.body);
      return reply.code(201).send(created);
    },
  );

  api.get(
    '/api/destinations/:id',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        response: answers({ 200: DestinationSchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<Destination> => getDestination(deps, requireUser(req), req.params.id),
  );

  api.patch(
    '/api/destinations/:id',
    {
      preValidation: managesDestinations,
      schema: {
        params: IdParams,
        body: DestinationChangeSchema,
        response: answers({ 200: DestinationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req): Promise<Destination> =>
      updateDestination(deps, requireUser(req), req.params.id, req.body),
  );

  api.delete(
    '/api/destinations/:id',
    {
      preValidation: managesDestinations,
      schema: {
        params: IdParams,
        response: answers({ 204: noContent('The destination is deleted.') }, 400, 401, 403, 404),
      },
    },
    async (req, reply) => {
      await deleteDestination(deps, requireUser(req), req.params.id);
      return reply.code(204).send();
    },
  );
}

/**
 * destinationDeliveryRoutes: a destination's delivery log, registered after the notifications
 * module's "send test event" route (`notifications/destination-test-routes.ts`, decision 241),
 * in the order the API has always listed them.
 */
export async function destinationDeliveryRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/destinations/:id/deliveries',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        response: answers({ 200: DestinationDeliveryListSchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<DestinationDeliveryList> =>
      listDeliveries(deps, requireUser(req), req.params.id),
  );
}
