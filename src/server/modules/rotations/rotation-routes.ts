import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddMemberInputSchema,
  ChangeTypeInputSchema,
  CreateRotationInputSchema,
  PassBatonInputSchema,
  ReassignInputSchema,
  ReorderMembersInputSchema,
  RotationSchema,
  UpdateRotationInputSchema,
} from '../../../shared/contracts/rotations';
import type { AppDeps } from '../../core/deps';
import { answers, noContent } from '../../http/openapi';
import { IdParams, idParams } from '../../http/path-params';
import { sendCachedRead } from '../../http/read-cache';
import { permitted, requireUser } from '../../http/request-context';
import { passBaton, reassign, takeOnCall } from './rotation-baton';
import { addMember, removeMember, reorderMembers } from './rotation-members';
import {
  changeType,
  createRotation,
  deleteRotation,
  getRotation,
  listRotations,
  type RotationsRead,
  setSuspended,
  updateRotation,
} from './rotation-service';

/** rotationRoutes: the rotation calls of specification section 7. HTTP only; rules live in the service. */
export async function rotationRoutes(app: FastifyInstance, deps: AppDeps) {
  rotationReadRoutes(app, deps);
  rotationEditRoutes(app, deps);
  memberRoutes(app, deps);
  batonRoutes(app, deps);
}

/** rotationReadRoutes: the rotation lists and one rotation. */
function rotationReadRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // The two lists go through the read cache (decisions 140 and 295), after the permission check.
  const answer = (read: RotationsRead) => ({
    body: read.rotations,
    at: read.at,
    changesAt: read.changesAt,
  });

  api.get(
    '/api/rotations',
    {
      preValidation: permitted('rotation.view'),
      schema: { response: answers({ 200: z.array(RotationSchema) }, 401, 403) },
    },
    async (req, reply) => {
      const user = requireUser(req);
      // The same list for everyone who may view rotations (the viewer only spares a decryption).
      return sendCachedRead(req, reply, { route: 'rotations', for: 'everyone' }, async () =>
        answer(await listRotations(deps, user)),
      );
    },
  );

  api.get(
    '/api/user/rotations',
    {
      preValidation: permitted('rotation.view'),
      schema: { response: answers({ 200: z.array(RotationSchema) }, 401, 403) },
    },
    async (req, reply) => {
      const user = requireUser(req);
      return sendCachedRead(req, reply, { route: 'user.rotations', for: 'viewer' }, async () =>
        answer(await listRotations(deps, user, { memberUserId: user.id })),
      );
    },
  );

  api.get(
    '/api/rotations/:id',
    {
      preValidation: permitted('rotation.view'),
      schema: { params: IdParams, response: answers({ 200: RotationSchema }, 400, 401, 403, 404) },
    },
    async (req) => getRotation(deps, req.params.id, requireUser(req)),
  );
}

/** rotationEditRoutes: create, edit, delete, suspend and activate a rotation, or change its type. */
function rotationEditRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/rotations',
    {
      preValidation: permitted('rotation.create'),
      schema: {
        body: CreateRotationInputSchema,
        response: answers({ 201: RotationSchema }, 400, 401, 403, 409),
      },
    },
    async (req, reply) =>
      reply.code(201).send(await createRotation(deps, requireUser(req), req.body)),
  );

  api.patch(
    '/api/rotations/:id',
    {
      preValidation: permitted('rotation.edit'),
      schema: {
        params: IdParams,
        body: UpdateRotationInputSchema,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => updateRotation(deps, requireUser(req), req.params.id, req.body),
  );

  api.delete(
    '/api/rotations/:id',
    {
      preValidation: permitted('rotation.delete'),
      schema: {
        params: IdParams,
        response: answers({ 204: noContent('The rotation is deleted.') }, 400, 401, 403, 404),
      },
    },
    async (req, reply) => {
      await deleteRotation(deps, requireUser(req), req.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    '/api/rotations/:id/suspend',
    {
      preValidation: permitted('rotation.suspend'),
      schema: {
        params: IdParams,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => setSuspended(deps, requireUser(req), req.params.id, true),
  );

  api.post(
    '/api/rotations/:id/activate',
    {
      preValidation: permitted('rotation.suspend'),
      schema: {
        params: IdParams,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => setSuspended(deps, requireUser(req), req.params.id, false),
  );

  api.patch(
    '/api/rotations/:id/type',
    {
      preValidation: permitted('rotation.changeType'),
      schema: {
        params: IdParams,
        body: ChangeTypeInputSchema,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => changeType(deps, requireUser(req), req.params.id, req.body.type),
  );
}

/** memberRoutes: a rotation's members, reordered, added and removed. */
function memberRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.patch(
    '/api/rotations/:id/members/reorder',
    {
      preValidation: permitted('member.reorder'),
      schema: {
        params: IdParams,
        body: ReorderMembersInputSchema,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => reorderMembers(deps, requireUser(req), req.params.id, req.body),
  );

  api.post(
    '/api/rotations/:id/on-call',
    {
      preValidation: permitted('member.add'),
      schema: {
        params: IdParams,
        body: AddMemberInputSchema,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => addMember(deps, requireUser(req), req.params.id, req.body.userId),
  );

  api.delete(
    '/api/rotations/:id/on-call/:userId',
    {
      preValidation: permitted('member.remove'),
      schema: {
        params: idParams('id', 'userId'),
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => removeMember(deps, requireUser(req), req.params.id, req.params.userId),
  );
}

/** batonRoutes: take, pass and reassign the baton, ask for cover, and page the rotation. */
function batonRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/rotations/:id/take-oncall',
    {
      preValidation: permitted('baton.hold'),
      schema: {
        params: IdParams,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => takeOnCall(deps, requireUser(req), req.params.id),
  );

  api.post(
    '/api/rotations/:id/handoff',
    {
      preValidation: permitted('baton.hold'),
      schema: {
        params: IdParams,
        body: PassBatonInputSchema,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => passBaton(deps, requireUser(req), req.params.id, req.body),
  );

  api.post(
    '/api/rotations/:id/assign-oncall',
    {
      preValidation: permitted('baton.reassign'),
      schema: {
        params: IdParams,
        body: ReassignInputSchema,
        response: answers({ 200: RotationSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => reassign(deps, requireUser(req), req.params.id, req.body),
  );
}
