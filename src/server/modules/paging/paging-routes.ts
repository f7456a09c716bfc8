import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AckLink,
  AckLinkSchema,
  EscalatePageInputSchema,
  type Page,
  type PageDeliveryFailure,
  PageDeliveryFailureSchema,
  PageListQuerySchema,
  PageSchema,
} from '../../../shared/contracts/paging';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams, TokenParams } from '../../http/path-params';
import { permitted, requireUser, signedIn } from '../../http/request-context';
import { acknowledgeByLink, readAckLink } from '../incidents/ack-link';
import { acknowledgePage, escalatePage, resolvePage } from './page-actions';
import { listDeliveryFailuresFor, listPagesFor, listRotationPages } from './page-reads';

// The acknowledgement link is public: the token is the credential, so it is rate limited.
const LINK_RATE_LIMIT = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/** pagingRoutes: page history, acknowledgement (in the app and by link), resolve and escalate. */
export async function pagingRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/rotations/:id/pages',
    {
      preValidation: permitted('page.viewHistory'),
      schema: {
        params: IdParams,
        querystring: PageListQuerySchema,
        response: answers({ 200: z.array(PageSchema) }, 400, 401, 403, 404),
      },
    },
    async (req): Promise<Page[]> =>
      listRotationPages(deps, requireUser(req), req.params.id, req.query),
  );

  api.get(
    '/api/user/pages',
    { preValidation: signedIn, schema: { response: answers({ 200: z.array(PageSchema) }, 401) } },
    async (req): Promise<Page[]> => listPagesFor(deps, requireUser(req)),
  );

  // The pager's notice (decision 163): what they sent that could not be delivered.
  api.get(
    '/api/user/page-delivery-failures',
    {
      preValidation: signedIn,
      schema: { response: answers({ 200: z.array(PageDeliveryFailureSchema) }, 401) },
    },
    async (req): Promise<PageDeliveryFailure[]> => listDeliveryFailuresFor(deps, requireUser(req)),
  );

  api.post(
    '/api/pages/:id/acknowledge',
    {
      preValidation: signedIn,
      schema: { params: IdParams, response: answers({ 200: PageSchema }, 400, 401, 403, 404, 409) },
    },
    async (req): Promise<Page> => acknowledgePage(deps, requireUser(req), req.params.id),
  );

  api.post(
    '/api/pages/:id/resolve',
    {
      preValidation: signedIn,
      schema: { params: IdParams, response: answers({ 200: PageSchema }, 400, 401, 403, 404, 409) },
    },
    async (req): Promise<Page> => resolvePage(deps, requireUser(req), req.params.id),
  );

  api.post(
    '/api/pages/:id/escalate',
    {
      preValidation: signedIn,
      schema: {
        params: IdParams,
        body: EscalatePageInputSchema,
        response: answers({ 200: PageSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req): Promise<Page> =>
      escalatePage(deps, requireUser(req), req.params.id, req.body.reason, req.body.fromStep),
  );

  // GET only shows what the link is for: mail scanners that fetch links acknowledge nothing.
  api.get(
    '/api/pages/ack/:token',
    {
      config: LINK_RATE_LIMIT,
      schema: {
        security: [],
        params: TokenParams,
        response: answers({ 200: AckLinkSchema }, 404, 409, 429),
      },
    },
    async (req): Promise<AckLink> => readAckLink(deps, req.params.token),
  );

  api.post(
    '/api/pages/ack/:token',
    {
      config: LINK_RATE_LIMIT,
      schema: {
        security: [],
        params: TokenParams,
        response: answers({ 200: AckLinkSchema }, 404, 409, 429),
      },
    },
    async (req): Promise<AckLink> => acknowledgeByLink(deps, req.params.token),
  );
}
