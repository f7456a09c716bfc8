import { isIP } from 'node:net';
import { ErrorCodes } from '../../../shared/contracts/errors';
import {
  PUSH_MESSAGES,
  type PushDevice,
  type PushSubscriptionInput,
} from '../../../shared/contracts/push';
import type { User } from '../../../shared/contracts/users';
import { can } from '../../../shared/domain/permissions';
import { deviceNameOf } from '../../../shared/domain/push-devices';
import type { HostLookup } from '../../core/address-ranges';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { AppError, forbidden, notFound } from '../../http/errors';
import { bareHost, OutboundRefusal, resolveOutbound } from '../../http/outbound-address';
import { lockUserRow } from '../users/user-repository';
import { keysProblem, pushRule } from './push-sender';
import {
  deleteDevice,
  listDeviceRows,
  renameDevice,
  saveSubscription,
  toDevice,
} from './push-subscription-repository';

/**
 * A person's devices for push (issue 33, decision 253): subscribed, listed, renamed and removed by
 * the person themselves or an administrator (as notification rules are), each in one transaction
 * holding the person's row.
 */

export interface PushServiceDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
  config: Pick<Config, 'isProduction'>;
  resolveHost?: HostLookup;
}

const USER_NOT_FOUND = 'User not found';
/** A resolver that does not answer within seconds is a name not found, not a hung request. */
const LOOKUP_TIMEOUT_MS = 5_000;

function fieldError(field: string, message: string): AppError {
  return new AppError(ErrorCodes.VALIDATION_FAILED, `${field}: ${message}`, { [field]: message });
}

/** onDevices runs `work` holding the person's row: 403 for someone else's (not an admin), 404. */
async function onDevices<T>(
  deps: PushServiceDeps,
  actor: User,
  userId: number,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (userId !== actor.id && !can(actor.roles, 'profile.editAny')) {
    throw forbidden(PUSH_MESSAGES.forbidden);
  }
  return deps.db.transaction(async (tx) => {
    if (!(await lockUserRow(tx, userId))) throw notFound(USER_NOT_FOUND);
    return work(tx);
  });
}

/**
 * checkEndpoint refuses an endpoint inside the network (decision 234's rule): an address literal
 * always (loopback passes outside production); a name, in production, by what it resolves to now.
 * The push channel checks again at each connection, since a name's answer may change.
 */
async function checkEndpoint(deps: PushServiceDeps, endpoint: string): Promise<void> {
  const host = bareHost(new URL(endpoint).hostname);
  // Outside production a name is checked when a push is sent, not now (tests' made-up names).
  if (!deps.config.isProduction && isIP(host) === 0) return;
  try {
    await withTimeout(
      resolveOutbound(host, pushRule(deps.config), deps.resolveHost),
      LOOKUP_TIMEOUT_MS,
    );
  } catch (err) {
    if (err instanceof OutboundRefusal) {
      throw fieldError('endpoint', PUSH_MESSAGES.endpointInsideNetwork);
    }
    throw fieldError('endpoint', PUSH_MESSAGES.endpointHostNotFound);
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** subscribeDevice keeps a browser's subscription for a person; answers the device. */
export async function subscribeDevice(
  deps: PushServiceDeps,
  actor: User,
  userId: number,
  input: PushSubscriptionInput,
  userAgent: string | undefined,
): Promise<PushDevice> {
  if (userId !== actor.id && !can(actor.roles, 'profile.editAny')) {
    throw forbidden(PUSH_MESSAGES.forbidden);
  }
  const badKeys = keysProblem(input.keys);
  if (badKeys) throw fieldError(badKeys.includes('auth') ? 'keys.auth' : 'keys.p256dh', badKeys);
  await checkEndpoint(deps, input.endpoint);
  return onDevices(deps, actor, userId, async (tx) => {
    const row = await saveSubscription(tx, deps.cipher, {
      userId,
      endpoint: input.endpoint,
      keys: input.keys,
      name: input.name ?? deviceNameOf(userAgent),
      expiresAt:
        input.expirationTime === null || input.expirationTime === undefined
          ? null
          : new Date(input.expirationTime),
      now: deps.clock.now(),
    });
    return toDevice(row, deps.cipher);
  });
}

/** listDevices answers a person's devices, never their keys or endpoints. */
export function listDevices(
  deps: PushServiceDeps,
  actor: User,
  userId: number,
): Promise<PushDevice[]> {
  return onDevices(deps, actor, userId, async (tx) =>
    (await listDeviceRows(tx, userId)).map((row) => toDevice(row, deps.cipher)),
  );
}

/** renameOwnDevice names one of a person's devices. */
export function renameOwnDevice(
  deps: PushServiceDeps,
  actor: User,
  userId: number,
  deviceId: number,
  name: string,
): Promise<PushDevice> {
  return onDevices(deps, actor, userId, async (tx) => {
    const row = await renameDevice(tx, deps.cipher, userId, deviceId, name);
    if (!row) throw notFound(PUSH_MESSAGES.notFound);
    return toDevice(row, deps.cipher);
  });
}

/** removeDevice removes one of a person's devices: no more pushes go to it. */
export function removeDevice(
  deps: PushServiceDeps,
  actor: User,
  userId: number,
  deviceId: number,
): Promise<void> {
  return onDevices(deps, actor, userId, async (tx) => {
    if (!(await deleteDevice(tx, userId, deviceId))) throw notFound(PUSH_MESSAGES.notFound);
  });
}
