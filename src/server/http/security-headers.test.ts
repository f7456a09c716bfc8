import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
import { helmetOptions, securityHeaders } from './security-headers';

/**
 * Answers given before Fastify's hooks run (decision 162) carry the same security headers as the
 * rest: Node's 431 (headers, or a request line, over maxHeaderSize) and 400 (unparsable), and the
 * router's 414 (a path parameter over maxParamLength). Sent over a raw socket to a listening app,
 * as a client would.
 */

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await t.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** raw writes the bytes of a request on a new connection and reads the whole answer. */
function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      // A keep-alive answer ends at its body's length.
      const head = data.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(data.slice(0, head));
      if (head >= 0 && length && Buffer.byteLength(data.slice(head + 4)) >= Number(length[1]))
        socket.end();
    });
    socket.on('error', (err) => (data ? undefined : reject(err)));
    socket.on('close', () => {
      const head = data.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = data.slice(0, head).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: data.slice(head + 4) });
    });
    socket.write(request);
  });
}

const get = (target: string, extra = '') =>
  raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Connection: close\r\n\r\n`);

const expected = () => securityHeaders(helmetOptions(t.config));

test('the computed headers are the ones every ordinary answer carries', async () => {
  const headers = expected();
  expect(Object.keys(headers)).toEqual(
    expect.arrayContaining([
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
    ]),
  );
  const ordinary = await get('/api/auth/options');
  expect(ordinary.status).toBe(200);
  for (const [name, value] of Object.entries(headers)) {
    expect(ordinary.headers[name], name).toBe(value);
  }
});

describe('answers given before the hooks run', () => {
  const cases: [string, number, string, () => Promise<RawAnswer>][] = [
    [
      'a path parameter over 100 characters',
      414,
      'URI_TOO_LONG',
      () => get(`/api/pages/ack/${'a'.repeat(200)}`),
    ],
    [
      'an address over 16 kB',
      431,
      'HEADERS_TOO_LARGE',
      () => get(`/api/rotations?q=${'a'.repeat(20_000)}`),
    ],
    [
      'a header over 16 kB',
      431,
      'HEADERS_TOO_LARGE',
      () => get('/api/auth/options', `X-Padding: ${'a'.repeat(20_000)}\r\n`),
    ],
    [
      'a path that is not valid percent-encoding',
      400,
      'BAD_REQUEST',
      () => get('/api/rotations/%E0%A4%A'),
    ],
    ['a request Node cannot parse', 400, 'BAD_REQUEST', () => raw('NOT AN HTTP REQUEST\r\n\r\n')],
  ];

  test.each(cases)(
    '%s: %i with the security headers and the app’s error shape',
    async (_what, status, code, send) => {
      const answer = await send();
      expect(answer.status).toBe(status);
      for (const [name, value] of Object.entries(expected())) {
        expect(answer.headers[name], name).toBe(value);
      }
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const body = JSON.parse(answer.body);
      expect(body).toEqual({ message: expect.any(String), code });
    },
  );
});

test('in production the headers include HSTS and upgrade-insecure-requests', () => {
  const headers = securityHeaders(helmetOptions({ isProduction: true }));
  expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
  expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
  expect(securityHeaders(helmetOptions({ isProduction: false }))['strict-transport-security']).toBe(
    undefined,
  );
});
