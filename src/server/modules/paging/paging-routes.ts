import type { FastifyInstance } from 'fastify';
import {
  type AckLink,
  EscalatePageInputSchema,
  type Page,
  type PageDeliveryFailure,
  PageListQuerySchema,
} from '../../../shared/contracts/paging';
import type { AppDeps } from '../../app';
import { parseId, parseInput } from '../../http/errors';
import { requirePermission, requireUser } from '../../http/request-context';
import { acknowledgePage, escalatePage, resolvePage } from './page-actions';
import { acknowledgeByLink, readAckLink } from './page-link';
import { listDeliveryFailuresFor, listPagesFor, listRotationPages } from './page-reads';

type IdParams = { Params: { id: string } };
type TokenParams = { Params: { token: string } };

// The acknowledgement link is public: the token is the credential, so it is rate limited.
const LINK_RATE_LIMIT = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/** pagingRoutes: page history, acknowledgement (in the app and by link), resolve and escalate. */
export async function pagingRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get<IdParams>('/api/rotations/:id/pages', async (req): Promise<Page[]> => {
    const user = requirePermission(req, 'page.viewHistory');
    const rotationId = parseId(req.params.id);
    const query = parseInput(PageListQuerySchema, req.query);
    return listRotationPages(deps, user, rotationId, query);
  });

  app.get('/api/user/pages', async (req): Promise<Page[]> => {
    const user = requireUser(req);
    return listPagesFor(deps, user);
  });

  // The pager's notice (decision 163): what they sent that could not be delivered.
  app.get('/api/user/page-delivery-failures', async (req): Promise<PageDeliveryFailure[]> => {
    const user = requireUser(req);
    return listDeliveryFailuresFor(deps, user);
  });

  app.post<IdParams>('/api/pages/:id/acknowledge', async (req): Promise<Page> => {
    const user = requireUser(req);
    return acknowledgePage(deps, user, parseId(req.params.id));
  });

  app.post<IdParams>('/api/pages/:id/resolve', async (req): Promise<Page> => {
    const user = requireUser(req);
    return resolvePage(deps, user, parseId(req.params.id));
  });

  app.post<IdParams>('/api/pages/:id/escalate', async (req): Promise<Page> => {
    const user = requireUser(req);
    const pageId = parseId(req.params.id);
    const { reason } = parseInput(EscalatePageInputSchema, req.body);
    return escalatePage(deps, user, pageId, reason);
  });

  // GET only shows what the link is for: mail scanners that fetch links acknowledge nothing.
  app.get<TokenParams>(
    '/api/pages/ack/:token',
    { config: LINK_RATE_LIMIT },
    async (req): Promise<AckLink> => readAckLink(deps, req.params.token),
  );

  app.post<TokenParams>(
    '/api/pages/ack/:token',
    { config: LINK_RATE_LIMIT },
    async (req): Promise<AckLink> => acknowledgeByLink(deps, req.params.token),
  );
}
