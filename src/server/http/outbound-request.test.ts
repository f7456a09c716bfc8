import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type HostLookup, outboundRule } from './outbound-address';
import { ANSWER_TOO_LARGE, OutboundError, readOutbound, sendOutbound } from './outbound-request';

/**
 * sendOutbound (decision 234) against loopback servers only: the answer's status and never its
 * body, no redirect followed, and an address the rule refuses refused before any connection
 * (each server counts the connections it accepted).
 */

const SECRET = 'db_password=hunter2 vault_token=s.9f8e7d';

interface Counted {
  server: Server;
  port: number;
  connections: number;
  requests: number;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Counted> {
  const counted = { connections: 0, requests: 0 } as Counted;
  const sockets = new Set<Socket>();
  counted.server = createServer((req, res) => {
    counted.requests += 1;
    req.resume();
    req.on('end', () => handler?.(req, res));
  });
  counted.server.on('connection', (socket) => {
    counted.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  counted.server.on('close', () => {
    for (const s of sockets) s.destroy();
  });
  await new Promise<void>((resolve) => counted.server.listen(0, '127.0.0.1', resolve));
  counted.port = (counted.server.address() as AddressInfo).port;
  return counted;
}

const lookupOf =
  (names: Record<string, string>): HostLookup =>
  async (hostname): Promise<LookupAddress[]> => {
    const address = names[hostname];
    if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

const development = outboundRule({ isProduction: false, allowedCidrs: [] });
const production = outboundRule({ isProduction: true, allowedCidrs: [] });
const allowingLoopback = outboundRule({ isProduction: true, allowedCidrs: ['127.0.0.0/8'] });

let talkative: Counted;
let endless: Counted;
let redirecting: Counted;
let elsewhere: Counted;
let silent: Counted;

beforeAll(async () => {
  talkative = await listen((_req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(SECRET);
  });
  // Headers, then a body that never ends: only an answer read for its status comes back.
  endless = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write(SECRET);
  });
  elsewhere = await listen((_req, res) => res.writeHead(200).end(SECRET));
  redirecting = await listen((_req, res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/inside` }).end();
  });
  silent = await listen(() => {});
});
afterAll(async () => {
  for (const s of [talkative, endless, redirecting, elsewhere, silent]) {
    s.server.closeAllConnections();
    await new Promise((resolve) => s.server.close(resolve));
  }
});
beforeEach(() => {
  for (const s of [talkative, endless, redirecting, elsewhere, silent]) {
    s.connections = 0;
    s.requests = 0;
  }
});

const post = (
  url: string,
  rule = development,
  extra: { lookup?: HostLookup; timeoutMs?: number } = {},
) =>
  sendOutbound({
    url,
    headers: { 'content-type': 'application/json' },
    body: '{"type":"test"}',
    timeoutMs: extra.timeoutMs ?? 2_000,
    rule,
    lookup: extra.lookup,
  });

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(OutboundError);
      return { failure: (err as OutboundError).failure, reason: (err as OutboundError).reason };
    },
  );

describe('the answer', () => {
  test('is its status alone: the body is not part of what comes back', async () => {
    const answer = await post(`http://127.0.0.1:${talkative.port}/hook`);
    expect(answer).toEqual({ status: 500 });
    expect(JSON.stringify(answer)).not.toContain('hunter2');
  });

  test('comes back at the headers: a body that never ends is not waited for', async () => {
    const answer = await post(`http://127.0.0.1:${endless.port}/hook`, development, {
      timeoutMs: 10_000,
    });
    expect(answer).toEqual({ status: 200 });
  });

  test('a redirect is not followed: its status comes back and its target hears nothing', async () => {
    expect(await post(`http://127.0.0.1:${redirecting.port}/hook`)).toEqual({ status: 302 });
    expect(redirecting.requests).toBe(1);
    expect(elsewhere.connections).toBe(0);
  });
});

describe('the address rule', () => {
  test('production refuses a loopback literal before connecting', async () => {
    expect(await failureOf(post(`http://127.0.0.1:${talkative.port}/hook`, production))).toEqual({
      failure: 'refused',
      reason: 'refused: loopback address',
    });
    expect(
      await failureOf(post(`http://[::ffff:127.0.0.1]:${talkative.port}/h`, production)),
    ).toEqual({ failure: 'refused', reason: 'refused: loopback address' });
    expect(talkative.connections).toBe(0);
  });

  test('production refuses a name that resolves to loopback, in the connection’s own lookup', async () => {
    const lookup = lookupOf({ 'hooks.example.com': '127.0.0.1' });
    const url = `http://hooks.example.com:${talkative.port}/hook`;
    expect(await failureOf(post(url, production, { lookup }))).toEqual({
      failure: 'refused',
      reason: 'refused: loopback address',
    });
    expect(talkative.connections).toBe(0);
    // The same name, the same server, the rule of development: it connects.
    expect(await post(url, development, { lookup })).toEqual({ status: 500 });
    expect(talkative.connections).toBe(1);
  });

  test('a range the administrator allows is reached in production', async () => {
    const lookup = lookupOf({ 'hooks.corp.test': '127.0.0.1' });
    expect(
      await post(`http://hooks.corp.test:${elsewhere.port}/hook`, allowingLoopback, { lookup }),
    ).toEqual({ status: 200 });
    expect(elsewhere.requests).toBe(1);
  });
});

describe('no answer, in Baton’s words', () => {
  test('a timeout', async () => {
    expect(
      await failureOf(
        post(`http://127.0.0.1:${silent.port}/hook`, development, { timeoutMs: 150 }),
      ),
    ).toEqual({ failure: 'timeout', reason: 'timed out' });
  });

  test('a refused connection', async () => {
    const closed = await listen(() => {});
    const port = closed.port;
    await new Promise((resolve) => closed.server.close(resolve));
    expect(await failureOf(post(`http://127.0.0.1:${port}/hook`))).toEqual({
      failure: 'connection-refused',
      reason: 'connection refused',
    });
  });

  test('a name not found', async () => {
    expect(
      await failureOf(
        post('http://nowhere.example.com/hook', development, { lookup: lookupOf({}) }),
      ),
    ).toEqual({ failure: 'not-found', reason: 'host not found' });
  });
});

describe('readOutbound: a source an administrator names to import from (issue 34)', () => {
  const read = (
    url: string,
    rule = development,
    extra: { maxBytes?: number; lookup?: HostLookup } = {},
  ) =>
    readOutbound({
      url,
      headers: { accept: 'application/json' },
      timeoutMs: 2_000,
      rule,
      maxBytes: extra.maxBytes ?? 1024,
      lookup: extra.lookup,
    });

  test('answers the status and the body, which is the point of reading a source', async () => {
    expect(await read(`http://127.0.0.1:${elsewhere.port}/users`)).toEqual({
      status: 200,
      body: SECRET,
    });
  });

  test('keeps the address rule: production refuses loopback, by literal and by name', async () => {
    expect(await failureOf(read(`http://127.0.0.1:${elsewhere.port}/users`, production))).toEqual({
      failure: 'refused',
      reason: 'refused: loopback address',
    });
    const lookup = lookupOf({ 'api.example.com': '127.0.0.1' });
    expect(
      await failureOf(read(`http://api.example.com:${elsewhere.port}/u`, production, { lookup })),
    ).toEqual({ failure: 'refused', reason: 'refused: loopback address' });
    expect(elsewhere.connections).toBe(0);
  });

  test('follows no redirect, and refuses an answer longer than it keeps', async () => {
    expect(await read(`http://127.0.0.1:${redirecting.port}/users`)).toEqual({
      status: 302,
      body: '',
    });
    expect(elsewhere.requests).toBe(0);
    expect(
      await failureOf(
        read(`http://127.0.0.1:${elsewhere.port}/users`, development, { maxBytes: 8 }),
      ),
    ).toEqual({ failure: 'unreachable', reason: ANSWER_TOO_LARGE });
  });
});
