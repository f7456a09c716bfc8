import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { text } from '../../../shared/contracts/primitives';
import { UpdateRolesInputSchema, UpdateUserInputSchema } from '../../../shared/contracts/users';
import { normalizeRole, type Role } from '../../../shared/domain/roles';
import type { AppDeps } from '../../deps';
import { parseId, parseInput } from '../../http/errors';
import { requirePermission } from '../../http/request-context';
import { listAllUsers, listUsersWithRoles } from './user-repository';
import { deleteUser, updateProfile, updateUserRoles } from './user-service';

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
  const service = { db: deps.database.db, cipher: deps.cipher, clock: deps.clock };

  // Every user, for User Management.
  app.get('/api/users', async (req) => {
    requirePermission(req, 'users.view');
    return listAllUsers(deps.database.db, deps.cipher);
  });

  // Eligible users for a rotation: GET /api/users/by-roles?roles=on-call,manager
  app.get('/api/users/by-roles', async (req) => {
    requirePermission(req, 'users.view');
    const { roles } = parseInput(ByRolesQuerySchema, req.query);
    return listUsersWithRoles(deps.database.db, deps.cipher, roles);
  });

  // Profile: one's own (administrators: anyone's). The answer is the updated user.
  app.patch<{ Params: { id: string } }>('/api/users/:id', async (req) => {
    const actor = requirePermission(req, 'profile.editOwn');
    const id = parseId(req.params.id);
    const input = parseInput(UpdateUserInputSchema, req.body);
    return updateProfile(service, actor, id, input);
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id', async (req) => {
    const actor = requirePermission(req, 'users.manage');
    const id = parseId(req.params.id);
    await deleteUser(service, actor, id);
    return { message: 'User has been deleted successfully.' };
  });

  app.patch<{ Params: { id: string } }>('/api/admin/users/:id/roles', async (req) => {
    const actor = requirePermission(req, 'roles.change');
    const id = parseId(req.params.id);
    const { roles } = parseInput(UpdateRolesInputSchema, req.body);
    return updateUserRoles(service, actor, id, roles);
  });
}
