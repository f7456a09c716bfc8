import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PushDeviceListSchema,
  PushDeviceRenameSchema,
  PushDeviceSchema,
  PushPublicKeySchema,
  PushSubscriptionInputSchema,
} from '../../../shared/contracts/push';
import type { AppDeps } from '../../core/deps';
import { answers, noContent } from '../../http/openapi';
import { IdParams, idParams } from '../../http/path-params';
import { permitted, requireUser, signedIn } from '../../http/request-context';
import { listDevices, removeDevice, renameOwnDevice, subscribeDevice } from './push-service';
import { vapidKeysOf } from './vapid-keys';

/**
 * Push to the installable app (issue 33, decision 253): Baton's VAPID public key, and a person's
 * devices: one's own, or (administrators) anyone's, as notification rules are.
 */
export async function pushRoutes(app: FastifyInstance, deps: AppDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const vapid = vapidKeysOf({ config: deps.config, db: deps.database.db, cipher: deps.cipher });
  const service = {
    db: deps.database.db,
    cipher: deps.cipher,
    clock: deps.clock,
    config: deps.config,
    resolveHost: deps.resolveHost,
  };
  const devices = '/api/users/:id/push-subscriptions';
  const device = `${devices}/:deviceId`;
  const DeviceParams = idParams('id', 'deviceId');

  api.get(
    '/api/push/public-key',
    {
      preValidation: signedIn,
      schema: { response: answers({ 200: PushPublicKeySchema }, 401) },
    },
    async () => ({ publicKey: (await vapid()).publicKey }),
  );

  api.get(
    devices,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        response: answers({ 200: PushDeviceListSchema }, 400, 401, 403, 404),
      },
    },
    async (req) => listDevices(service, requireUser(req), req.params.id),
  );

  api.post(
    devices,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: IdParams,
        body: PushSubscriptionInputSchema,
        response: answers({ 201: PushDeviceSchema }, 400, 401, 403, 404),
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(
          await subscribeDevice(
            service,
            requireUser(req),
            req.params.id,
            req.body,
            req.headers['user-agent'],
          ),
        ),
  );

  api.patch(
    device,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: DeviceParams,
        body: PushDeviceRenameSchema,
        response: answers({ 200: PushDeviceSchema }, 400, 401, 403, 404),
      },
    },
    async (req) =>
      renameOwnDevice(service, requireUser(req), req.params.id, req.params.deviceId, req.body.name),
  );

  api.delete(
    device,
    {
      preValidation: permitted('profile.editOwn'),
      schema: {
        params: DeviceParams,
        response: answers(
          { 204: noContent('The device gets no more pushes.') },
          400,
          401,
          403,
          404,
        ),
      },
    },
    async (req, reply) => {
      await removeDevice(service, requireUser(req), req.params.id, req.params.deviceId);
      return reply.code(204).send();
    },
  );
}
