import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema, text } from '../../../shared/contracts/primitives';
import {
  PersonDetailSchema,
  UpdateRolesInputSchema,
  UpdateUserInputSchema,
  UserSchema,
} from '../../../shared/contracts/users';
import { normalizeRole, type Role } from '../../../shared/domain/roles';
import type { AppDeps } from '../../core/deps';
import { answers } from '../../http/openapi';
import { IdParams } from '../../http/path-params';
import { permitted, requireUser } from '../../http/request-context';
import { listAllUsers, listUsersWithRoles } from '../users/user-repository';
import { deleteUser, readPerson, updateProfile, updateUserRoles } from './people-service';

const ByRolesQuerySchema = z.object({
  roles: text({ label: 'roles', error: 'roles is required, e.g. roles=on-call,manager' })
    .max(500, 'roles must be at most 500 characters')
    .transform((s) => s.split(',').map((r) => r.trim()))
    .pipe(
      z
        .array(z.string())
        .transform((list) => list.map(normalizeRole))
        .refine((list): list is Role[] => list.every((r) => r !== null), 'Unknown role'),
    ),
});

export async function userRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const service = { db: deps.database.db, cipher: deps.cipher, clock: deps.clock };

  // Every user, for User Management.
  api.get(
    '/api/users',
    {
      preValidation: permitted('users.view'),
      schema: { response: answers({ 200: z.array(UserSchema) }, 401, 403) },
    },
    async () => listAllUsers(deps.database.db, deps.cipher),
  );

  // Eligible users for a rotation: GET /api/users/by-roles?roles=on-call,manager
  api.get(
    '/api/users/by-roles',
    {
      preValidation: permitted('users.view'),
      schema: {
        querystring: ByRolesQuerySchema,
        response: answers({ 200: z.array(UserSchema) }, 400, 401, 403),
      },
    },
    async (req) => listUsersWithRoles(deps.database.db, deps.cipher, req.query.roles),
  );

  // The read-only person view (decision 187): any member who sees rotations may see a teammate.
  api.get(
    '/api/users/:id',
    {
      preValidation: permitted('rotation.view'),
      schema: {
        params: IdParams,
        response: answers({ 200: PersonDetailSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => readPerson(service, req.params.id),
  );

  // Profile: one's own (administrators: anyone's). The answer is the updated user.
  api.patch(
    '/api/users/:id',
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        body: UpdateUserInputSchema,
        response: answers({ 200: UserSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => updateProfile(service, requireUser(req), req.params.id, req.body),
  );

  api.delete(
    '/api/users/:id',
    {
      preValidation: permitted('users.manage'),
      schema: {
        params: IdParams,
        response: answers({ 200: MessageSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => {
      await deleteUser(service, requireUser(req), req.params.id);
      return { message: 'User has been deleted successfully.' };
    },
  );

  api.patch(
    '/api/admin/users/:id/roles',
    {
      preValidation: permitted('roles.change'),
      schema: {
        params: IdParams,
        body: UpdateRolesInputSchema,
        response: answers({ 200: UserSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (req) => updateUserRoles(service, requireUser(req), req.params.id, req.body.roles),
  );
}
