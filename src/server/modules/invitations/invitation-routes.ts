import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createInvitationInputSchema } from '../../../shared/contracts/invitations';
import type { AppDeps } from '../../deps';
import { notFound, parseId, parseInput } from '../../http/errors';
import { requirePermission } from '../../http/request-context';
import { findInvitationByToken, toInvitation } from './invitation-repository';
import { createInvitation, deleteInvitation, listInvitations } from './invitation-service';

export async function invitationRoutes(app: FastifyInstance, deps: AppDeps) {
  const { config } = deps;
  const InvitationInputSchema = createInvitationInputSchema(config.companyDomain);
  const service = (req: FastifyRequest) => ({
    db: deps.database.db,
    cipher: deps.cipher,
    clock: deps.clock,
    baseUrl: config.publicUrl ?? `${req.protocol}://${req.host}`,
  });

  app.get<{ Params: { token: string } }>(
    '/api/invitations/:token/validate',
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (req) => {
      const row = await findInvitationByToken(deps.database.db, req.params.token);
      if (!row)
        throw notFound('Invalid invitation link. Ask an administrator for a new invitation.');
      if (row.status !== 'pending') throw notFound('This invitation has already been used.');
      if (row.expiresAt <= deps.clock.now()) {
        throw notFound('This invitation has expired. Ask an administrator for a new invitation.');
      }
      return { invitation: toInvitation(row, deps.cipher) };
    },
  );

  app.get('/api/invitations', async (req) => {
    requirePermission(req, 'invitations.manage');
    return listInvitations(service(req));
  });

  app.post('/api/invitations', async (req, reply) => {
    const actor = requirePermission(req, 'invitations.manage');
    const input = parseInput(InvitationInputSchema, req.body);
    const invitation = await createInvitation(service(req), actor, input);
    return reply.code(201).send(invitation);
  });

  app.delete<{ Params: { id: string } }>('/api/invitations/:id', async (req) => {
    const actor = requirePermission(req, 'invitations.manage');
    await deleteInvitation(service(req), actor, parseId(req.params.id));
    return { message: 'Invitation has been deleted successfully.' };
  });
}
