import type { FastifyInstance } from 'fastify';
import {
  AddMemberInputSchema,
  ChangeTypeInputSchema,
  CoverageRequestInputSchema,
  CreateRotationInputSchema,
  PageInputSchema,
  PassBatonInputSchema,
  ReassignInputSchema,
  ReorderMembersInputSchema,
  UpdateRotationInputSchema,
} from '../../../shared/contracts/rotations';
import type { AppDeps } from '../../deps';
import { badRequest, parseId, parseInput } from '../../http/errors';
import { sendCachedRead } from '../../http/read-cache';
import { requirePermission } from '../../http/request-context';
import {
  addMember,
  changeType,
  createRotation,
  deleteRotation,
  getRotation,
  listRotations,
  pageRotation,
  passBaton,
  type RotationsRead,
  reassign,
  removeMember,
  reorderMembers,
  requestCoverage,
  setSuspended,
  takeOnCall,
  updateRotation,
} from './rotation-service';

type IdParams = { Params: { id: string } };

/** rotationRoutes: the rotation calls of specification section 7. HTTP only; rules live in the service. */
export async function rotationRoutes(app: FastifyInstance, deps: AppDeps) {
  const id = (params: { id: string }) => parseId(params.id);

  // The two lists go through the read cache (decision 140), after the permission check.
  const answer = (read: RotationsRead) => ({
    body: read.rotations,
    at: read.at,
    changesAt: read.changesAt,
  });

  app.get('/api/rotations', async (req, reply) => {
    const user = requirePermission(req, 'rotation.view');
    return sendCachedRead(req, reply, 'rotations', async () =>
      answer(await listRotations(deps, user)),
    );
  });

  app.get('/api/user/rotations', async (req, reply) => {
    const user = requirePermission(req, 'rotation.view');
    return sendCachedRead(req, reply, 'user.rotations', async () =>
      answer(await listRotations(deps, user, { memberUserId: user.id })),
    );
  });

  app.get<IdParams>('/api/rotations/:id', async (req) => {
    const user = requirePermission(req, 'rotation.view');
    return getRotation(deps, id(req.params), user);
  });

  app.post('/api/rotations', async (req, reply) => {
    const user = requirePermission(req, 'rotation.create');
    const input = parseInput(CreateRotationInputSchema, req.body);
    return reply.code(201).send(await createRotation(deps, user, input));
  });

  app.patch<IdParams>('/api/rotations/:id', async (req) => {
    const user = requirePermission(req, 'rotation.edit');
    const rotationId = id(req.params);
    const input = parseInput(UpdateRotationInputSchema, req.body);
    // The schema reads a missing description as null; only a description sent changes it.
    const descriptionGiven =
      typeof req.body === 'object' && req.body !== null && 'description' in req.body;
    return updateRotation(deps, user, rotationId, input, { descriptionGiven });
  });

  app.delete<IdParams>('/api/rotations/:id', async (req, reply) => {
    const user = requirePermission(req, 'rotation.delete');
    await deleteRotation(deps, user, id(req.params));
    return reply.code(204).send();
  });

  app.post<IdParams>('/api/rotations/:id/suspend', async (req) => {
    const user = requirePermission(req, 'rotation.suspend');
    return setSuspended(deps, user, id(req.params), true);
  });

  app.post<IdParams>('/api/rotations/:id/activate', async (req) => {
    const user = requirePermission(req, 'rotation.suspend');
    return setSuspended(deps, user, id(req.params), false);
  });

  app.patch<IdParams>('/api/rotations/:id/type', async (req) => {
    const user = requirePermission(req, 'rotation.changeType');
    const rotationId = id(req.params);
    const { type } = parseInput(ChangeTypeInputSchema, req.body);
    return changeType(deps, user, rotationId, type);
  });

  app.patch<IdParams>('/api/rotations/:id/members/reorder', async (req) => {
    const user = requirePermission(req, 'member.reorder');
    const rotationId = id(req.params);
    const input = parseInput(ReorderMembersInputSchema, req.body);
    return reorderMembers(deps, user, rotationId, input);
  });

  app.post<IdParams>('/api/rotations/:id/on-call', async (req) => {
    const user = requirePermission(req, 'member.add');
    const rotationId = id(req.params);
    const { userId } = parseInput(AddMemberInputSchema, req.body);
    return addMember(deps, user, rotationId, userId);
  });

  app.delete<{ Params: { id: string; userId: string } }>(
    '/api/rotations/:id/on-call/:userId',
    async (req) => {
      const user = requirePermission(req, 'member.remove');
      const rotationId = id(req.params);
      return removeMember(deps, user, rotationId, parseId(req.params.userId, 'userId'));
    },
  );

  app.post<IdParams>('/api/rotations/:id/take-oncall', async (req) => {
    const user = requirePermission(req, 'baton.hold');
    return takeOnCall(deps, user, id(req.params));
  });

  app.post<IdParams>('/api/rotations/:id/handoff', async (req) => {
    const user = requirePermission(req, 'baton.hold');
    const rotationId = id(req.params);
    const input = parseInput(PassBatonInputSchema, req.body);
    return passBaton(deps, user, rotationId, input);
  });

  app.post<IdParams>('/api/rotations/:id/assign-oncall', async (req) => {
    const user = requirePermission(req, 'baton.reassign');
    const rotationId = id(req.params);
    const input = parseInput(ReassignInputSchema, req.body);
    return reassign(deps, user, rotationId, input);
  });

  app.post<IdParams>('/api/rotations/:id/cover', async (req, reply) => {
    const user = requirePermission(req, 'baton.hold');
    const rotationId = id(req.params);
    const input = parseInput(CoverageRequestInputSchema, req.body);
    if (input.rotationId !== undefined && input.rotationId !== rotationId) {
      throw badRequest('rotationId does not match the rotation in the address.');
    }
    return reply.code(201).send(await requestCoverage(deps, user, rotationId, input));
  });

  app.post<IdParams>('/api/rotations/:id/page', async (req, reply) => {
    const user = requirePermission(req, 'page.send');
    const rotationId = id(req.params);
    const input = parseInput(PageInputSchema, req.body);
    return reply.code(201).send(await pageRotation(deps, user, rotationId, input));
  });
}
