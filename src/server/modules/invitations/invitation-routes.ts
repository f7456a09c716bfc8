import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createInvitationInputSchema,
  InvitationListItemSchema,
  InvitationValidationSchema,
} from '../../../shared/contracts/invitations';
import { MessageSchema } from '../../../shared/contracts/primitives';
import type { AppDeps } from '../../core/deps';
import { notFound } from '../../http/errors';
import { answers } from '../../http/openapi';
import { IdParams, TokenParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { findInvitationByToken, toInvitation } from './invitation-repository';
import { createInvitation, deleteInvitation, listInvitations } from './invitation-service';

export async function invitationRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config } = deps;
  const InvitationInputSchema = createInvitationInputSchema(config.companyDomain);
  const service = (req: FastifyRequest) => ({
    db: deps.database.db,
    cipher: deps.cipher,
    clock: deps.clock,
    baseUrl: config.publicUrl ?? `${req.protocol}://${req.host}`,
  });

  api.get(
    '/api/invitations/:token/validate',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        params: TokenParams,
        security: [],
        response: answers({ 200: InvitationValidationSchema }, 404, 429),
      },
    },
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

  api.get(
    '/api/invitations',
    {
      preValidation: permitted('invitations.manage'),
      schema: { response: answers({ 200: z.array(InvitationListItemSchema) }, 401, 403) },
    },
    async (req) => listInvitations(service(req)),
  );

  api.post(
    '/api/invitations',
    {
      preValidation: permitted('invitations.manage'),
      schema: {
        body: InvitationInputSchema,
        response: answers({ 201: InvitationListItemSchema }, 400, 401, 403, 409),
      },
    },
    async (req, reply) => {
      const invitation = await createInvitation(service(req), requireUser(req), req.body);
      return reply.code(201).send(invitation);
    },
  );

  api.delete(
    '/api/invitations/:id',
    {
      preValidation: permitted('invitations.manage'),
      schema: {
        params: IdParams,
        response: answers({ 200: MessageSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => {
      await deleteInvitation(service(req), requireUser(req), req.params.id);
      return { message: 'Invitation has been deleted successfully.' };
    },
  );
}
