import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import {
  DESTINATION_MESSAGES,
  type DestinationCreated,
  type DestinationDeliveryList,
} from '../../../shared/contracts/destinations';
import type { User } from '../../../shared/contracts/users';
import { destinations, notifications } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { deliverDue } from '../notifications/outbox';
import { createChatChannel, destinationRule } from './chat-channel';

/**
 * Destinations never reach inside the network (decision 234), on a production configuration with
 * DESTINATION_ALLOWED_CIDRS=10.20.0.0/16. Names resolve through a made-up resolver, so no packet
 * leaves the machine: a refusal happens before any connection, and the one server a refused
 * delivery could have reached, on loopback, counts the connections it accepted.
 */

/** What each made-up name resolves to now (a test changes an answer to play a DNS change). */
const names: Record<string, string[]> = {};
const asked: string[] = [];
async function lookup(hostname: string): Promise<LookupAddress[]> {
  asked.push(hostname);
  const addresses = names[hostname];
  if (!addresses) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  }
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

let t: TestApp;
let morgan: User;
let rotationId: number;
/** a loopback listener: it must accept no connection from a refused delivery */
let listener: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      NODE_ENV: 'production',
      LOCAL_LOGIN_PASSWORD: undefined,
      PUBLIC_URL: 'https://baton.example.com',
      DESTINATION_ALLOWED_CIDRS: '10.20.0.0/16',
    },
    resolveHost: lookup,
  });
  morgan = await t.createUser({ name: 'Morgan Manager', roles: ['manager'] });
  const rotation = await insertRotation(t.database.db, {
    name: 'Platform',
    memberIds: [],
    createdById: morgan.id,
    now: t.clock.now(),
  });
  rotationId = rotation.id;
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => listener.close(resolve));
});
beforeEach(async () => {
  await t.database.db.delete(notifications);
  await t.database.db.delete(destinations);
  for (const name of Object.keys(names)) delete names[name];
  Object.assign(names, {
    'hooks.example.com': ['93.184.215.14'],
    'internal.example.com': ['10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    'mixed.example.com': ['93.184.215.14', '10.0.0.5'],
    'build.corp.example.com': ['10.20.1.5'],
    localhost: ['127.0.0.1', '::1'],
  });
  asked.length = 0;
  connections = 0;
});

const post = (url: string) =>
  t.call(morgan, 'POST', '/api/destinations', {
    kind: 'webhook',
    url,
    rotationId,
    events: ['handoff'],
  });

describe('at creation and change', () => {
  test.each([
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://10.0.0.5/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::ffff:10.0.0.5]/hook', 'private'],
    ['https://[fd00:ec2::254]/hook', 'cloud metadata'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://internal.example.com/hook', 'private'],
    ['https://metadata.example.com/hook', 'cloud metadata'],
    ['https://mixed.example.com/hook', 'private'],
    ['https://localhost/hook', 'loopback'],
  ])('%s is refused: a 400 on the URL naming the %s range', async (url, range) => {
    const res = await post(url);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { message: string; code: string; fields: Record<string, string> };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.fields.url).toBe(
      `The webhook URL points to ${range === 'unspecified' ? 'an' : 'a'} ${range} address inside the network. ${DESTINATION_MESSAGES.urlInsideNetwork}`,
    );
    expect(body.message).toContain(DESTINATION_MESSAGES.urlInsideNetwork);
    expect(await t.database.db.select().from(destinations)).toHaveLength(0);
  });

  test('a public name is accepted; a name not found is refused on the URL', async () => {
    expect((await post('https://hooks.example.com/hook')).statusCode).toBe(201);
    expect(asked).toContain('hooks.example.com');
    const missing = await post('https://nowhere.example.com/hook');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.url).toBe(DESTINATION_MESSAGES.urlHostNotFound);
  });

  test('DESTINATION_ALLOWED_CIDRS lets its range through, and only its range', async () => {
    expect((await post('https://build.corp.example.com/hook')).statusCode).toBe(201);
    expect((await post('https://10.20.200.1/hook')).statusCode).toBe(201);
    expect((await post('https://10.21.0.1/hook')).statusCode).toBe(400);
  });

  test('one who may not manage the rotation is refused first: 403, and no name is looked up', async () => {
    const stranger = await t.createUser({ name: 'Stella Stranger', roles: ['manager'] });
    for (const url of ['https://internal.example.com/hook', 'https://10.0.0.5/hook']) {
      const res = await t.call(stranger, 'POST', '/api/destinations', {
        kind: 'webhook',
        url,
        rotationId,
        events: ['handoff'],
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(DESTINATION_MESSAGES.mayNotManage);
    }
    expect(asked).toEqual([]);
    const made = (await post('https://hooks.example.com/hook')).json() as DestinationCreated;
    asked.length = 0;
    const change = await t.call(stranger, 'PATCH', `/api/destinations/${made.id}`, {
      url: 'https://internal.example.com/hook',
    });
    expect(change.statusCode, change.body).toBe(403);
    expect(asked).toEqual([]);
    expect(await t.database.db.select().from(destinations)).toHaveLength(1);
  });

  test('a change of URL to the inside of the network is refused and changes nothing', async () => {
    const made = (await post('https://hooks.example.com/hook')).json() as DestinationCreated;
    const res = await t.call(morgan, 'PATCH', `/api/destinations/${made.id}`, {
      url: 'https://internal.example.com/hook',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.url).toContain(DESTINATION_MESSAGES.urlInsideNetwork);
    const [row] = await t.database.db.select().from(destinations);
    expect(row.urlHint).toBe(made.urlHint);
  });
});

describe('at connection time', () => {
  const channels = () => ({
    chat: createChatChannel({
      db: t.database.db,
      cipher: t.cipher,
      clock: t.clock,
      timeoutMs: 2_000,
      rule: destinationRule(t.config),
      lookup,
    }),
  });
  const deliver = () =>
    deliverDue(
      { db: t.database.db, cipher: t.cipher, channels: channels(), clock: t.clock },
      50,
      'chat',
    );

  test.each([
    ['127.0.0.1', 'refused: loopback address'],
    ['10.0.0.5', 'refused: private address'],
    ['169.254.169.254', 'refused: cloud metadata address'],
  ])(
    'a name that resolves to %s only at send time is refused without connecting',
    async (address, reason) => {
      names['flip.example.com'] = ['93.184.215.14'];
      const made = (
        await post(`https://flip.example.com:${port}/hook`)
      ).json() as DestinationCreated;
      // The name now answers an address inside the network (a DNS rebinding).
      names['flip.example.com'] = [address];
      asked.length = 0;
      expect((await t.call(morgan, 'POST', `/api/destinations/${made.id}/test`)).statusCode).toBe(
        202,
      );
      expect(await deliver()).toEqual({ sent: 0, failed: 1, retrying: 0 });
      // Checked in the connection's own lookup, and refused for good: no retry goes there.
      expect(asked).toEqual(['flip.example.com']);
      expect(connections).toBe(0);
      const log = await t.call(morgan, 'GET', `/api/destinations/${made.id}/deliveries`);
      expect((log.json() as DestinationDeliveryList).deliveries).toEqual([
        expect.objectContaining({
          status: 'failed',
          attempts: 1,
          lastError: `Not delivered: ${reason}`,
        }),
      ]);
      const [row] = await t.database.db
        .select()
        .from(destinations)
        .where(eq(destinations.id, made.id));
      expect(row.failingSince).not.toBeNull();
    },
  );
});
