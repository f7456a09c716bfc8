import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type AlertList,
  AlertListQuerySchema,
  AlertListSchema,
  TestAlertInputSchema,
  type TestAlertPreview,
  TestAlertPreviewSchema,
  type TestAlertResult,
  TestAlertResultSchema,
} from '../../../shared/contracts/integrations';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser, signedIn } from '../../http/request-context';
import { managesIntegrations } from '../integrations/integration-routes';
import { listIncidentAlerts, listIntegrationAlerts } from './alert-lists';
import { previewTestAlert, sendTestAlert } from './test-alert';

/**
 * integrationAlertRoutes: an integration's "Send test alert" and the alert lists (an
 * integration's, an incident's; decisions 210, 235). HTTP only.
 */
export async function integrationAlertRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // "Send test alert": 201, an alert was received (and an incident raised, as a real one would).
  api.post(
    '/api/integrations/:id/test',
    {
      preValidation: managesIntegrations,
      schema: {
        params: IdParams,
        body: TestAlertInputSchema,
        response: answers({ 201: TestAlertResultSchema }, 400, 401, 403, 404, 409, 429),
      },
    },
    async (req, reply) => {
      const result: TestAlertResult = await sendTestAlert(
        deps,
        requireUser(req),
        req.params.id,
        req.body,
      );
      return reply.code(201).send(result);
    },
  );

  // Whom "Send test alert" would page now, shown before it is sent (decision 261).
  api.get(
    '/api/integrations/:id/test',
    {
      preValidation: managesIntegrations,
      schema: {
        params: IdParams,
        response: answers({ 200: TestAlertPreviewSchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<TestAlertPreview> =>
      previewTestAlert(deps, requireUser(req), req.params.id),
  );

  api.get(
    '/api/integrations/:id/alerts',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        querystring: AlertListQuerySchema,
        response: answers({ 200: AlertListSchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<AlertList> =>
      listIntegrationAlerts(deps, requireUser(req), req.params.id, req.query),
  );

  // An incident's alerts: whoever may read the incident (decision 205: every role) and see the
  // integrations they came from (the service: 404, then 403; decision 235).
  api.get(
    '/api/incidents/:id/alerts',
    {
      preValidation: permitted('page.viewHistory'),
      schema: {
        params: IdParams,
        querystring: AlertListQuerySchema,
        response: answers({ 200: AlertListSchema }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<AlertList> =>
      listIncidentAlerts(deps, requireUser(req), req.params.id, req.query),
  );
}
