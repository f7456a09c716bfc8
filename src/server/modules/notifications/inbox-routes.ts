import type { FastifyInstance } from 'fastify';
import { type InboxPage, InboxQuerySchema } from '../../../shared/contracts/inbox';
import type { AppDeps } from '../../app';
import { isDemoMode } from '../../config';
import { parseInput } from '../../http/errors';
import { requirePermission, requireUser } from '../../http/request-context';
import { listInbox } from './inbox';
import { hideAckLinks } from './notification-routes';

/** What both inbox routes answer outside demo mode: there is no demo inbox (decision 186). */
const NO_DEMO_INBOX: InboxPage = { demoInbox: false, messages: [], nextCursor: null };

/** The demo inbox (decision 186): each person's own messages, and everyone's for administrators. */
export async function inboxRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  app.get('/api/inbox', async (req): Promise<InboxPage> => {
    const user = requireUser(req);
    const query = parseInput(InboxQuerySchema, req.query);
    if (!isDemoMode(deps.config)) return NO_DEMO_INBOX;
    return listInbox(db, deps.cipher, query, { userId: user.id });
  });

  // Everyone's, as the outbox view shows them: acknowledgement links are their recipient's alone.
  app.get('/api/admin/inbox', async (req): Promise<InboxPage> => {
    requirePermission(req, 'system.configure');
    const query = parseInput(InboxQuerySchema, req.query);
    if (!isDemoMode(deps.config)) return NO_DEMO_INBOX;
    return listInbox(db, deps.cipher, query, { redact: hideAckLinks });
  });
}
