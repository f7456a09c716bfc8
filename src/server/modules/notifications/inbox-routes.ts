import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type InboxPage, InboxPageSchema, InboxQuerySchema } from '../../../shared/contracts/inbox';
import { isDemoMode } from '../../core/config';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { permitted, requireUser, signedIn } from '../../http/request-context';
import { listInbox } from './inbox';
import { hideAckLinks } from './notification-routes';

/** What both inbox routes answer outside demo mode: there is no demo inbox (decision 186). */
const NO_DEMO_INBOX: InboxPage = { demoInbox: false, messages: [], nextCursor: null };

/** The demo inbox (decision 186): each person's own messages, and everyone's for administrators. */
export async function inboxRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;

  api.get(
    '/api/inbox',
    {
      preValidation: signedIn,
      schema: {
        querystring: InboxQuerySchema,
        response: answers({ 200: InboxPageSchema }, 400, 401),
      },
    },
    async (req): Promise<InboxPage> => {
      const user = requireUser(req);
      if (!isDemoMode(deps.config)) return NO_DEMO_INBOX;
      return listInbox(db, deps.cipher, req.query, { userId: user.id });
    },
  );

  // Everyone's, as the outbox view shows them: acknowledgement links are their recipient's alone.
  api.get(
    '/api/admin/inbox',
    {
      preValidation: permitted('system.configure'),
      schema: {
        querystring: InboxQuerySchema,
        response: answers({ 200: InboxPageSchema }, 400, 401, 403),
      },
    },
    async (req): Promise<InboxPage> => {
      if (!isDemoMode(deps.config)) return NO_DEMO_INBOX;
      return listInbox(db, deps.cipher, req.query, { redact: hideAckLinks });
    },
  );
}
