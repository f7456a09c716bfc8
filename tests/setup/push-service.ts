import { execFileSync } from 'node:child_process';
import {
  createECDH,
  createPublicKey,
  type ECDH,
  randomBytes,
  verify as verifySignature,
} from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ece from 'http_ece';

/**
 * A loopback push service (issue 33, decision 253) speaking RFC 8030 as browsers' push services
 * do, over https with a self-signed certificate made at start (openssl). Each device a test
 * subscribes has its own P-256 key pair and auth secret, as a browser has; a push to
 * `/push/{device}` is accepted (201) only when its VAPID Authorization (`vapid t=JWT, k=key`,
 * RFC 8292) verifies: an ES256 signature by `k`, `aud` the endpoint's origin, `exp` in the
 * future and within 24 hours, a `sub`. Its aes128gcm body (RFC 8188, 8291) is then decrypted
 * with the device's private key, so a test reads what the device would show. A device can be
 * told to answer 410 (unsubscribed) or any other status.
 *
 * A device is online (a push reaches it at once) or, once disconnected, offline: the service
 * holds its pushes until it connects again, and a push with the Topic of one it holds replaces
 * that one (RFC 8030 section 5.4; a Topic longer than 32 characters or outside base64url is
 * refused with 400).
 */

export interface ReceivedPush {
  device: string;
  /** the decrypted body */
  text: string;
  ttl: string | undefined;
  urgency: string | undefined;
  /** RFC 8030's Topic header */
  topic: string | undefined;
  contentEncoding: string | undefined;
  /** the VAPID JWT's claims and the key it was signed with */
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
  /** when the request reached the service, `performance.now()` (the bench's latencies) */
  receivedAt: number;
}

export interface PushDeviceKeys {
  /** what `PushSubscription.toJSON()` gives for this device */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export interface PushService {
  origin: string;
  /** the certificate, PEM: the server's trust (NODE_EXTRA_CA_CERTS, or the channel's `ca`) */
  ca: string;
  /** the file holding `ca`, for NODE_EXTRA_CA_CERTS */
  caFile: string;
  /** every push the service accepted, in order (a repeat it replaced included) */
  received: ReceivedPush[];
  /** what reached the devices: at once while online, on connecting for one offline */
  delivered: ReceivedPush[];
  /** pushes refused, with why (a bad signature, a body that does not decrypt) */
  refused: { device: string; status: number; reason: string }[];
  /** a new device: its subscription as the browser would give it */
  subscribe(): PushDeviceKeys;
  /** how a device answers from now on: 201 by default, 410 once it unsubscribed */
  answer(device: string, status: number): void;
  /** the device goes offline: the service holds its pushes */
  disconnect(device: string): void;
  /** the device comes back: the pushes held for it reach it, oldest first */
  connect(device: string): void;
  /**
   * the faults dealt (startPushService's `faults`), and the pushes delivered whose answer was
   * lost: by the fault, or because the sender gave up before it went out
   */
  faults: { error: number; timeout: number; 'accepted-timeout': number; answerLost: string[] };
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

/**
 * writeSelfSignedCertificate makes a one-day P-256 certificate for localhost and 127.0.0.1 in
 * `dir` (key.pem, cert.pem), with openssl.
 */
export function writeSelfSignedCertificate(dir: string): void {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
}

function readCertificate(dir: string) {
  const certFile = path.join(dir, 'cert.pem');
  return {
    key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
  };
}

/** checkVapid verifies a VAPID Authorization header for an endpoint's origin; throws why not. */
function checkVapid(header: string | undefined, origin: string): ReceivedPush['vapid'] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`not a VAPID Authorization: ${header}`);
  const [, jwt, k] = match;
  const [head, claims, signature] = jwt.split('.');
  const alg = JSON.parse(Buffer.from(head, 'base64url').toString()).alg;
  if (alg !== 'ES256') throw new Error(`alg ${alg}`);
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4)
    throw new Error('k is not an uncompressed P-256 point');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: b64url(point.subarray(1, 33)),
      y: b64url(point.subarray(33)),
    },
    format: 'jwk',
  });
  const signed = verifySignature(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the JWT signature does not verify with k');
  const { aud, exp, sub } = JSON.parse(Buffer.from(claims, 'base64url').toString());
  if (aud !== origin) throw new Error(`aud ${aud} is not ${origin}`);
  const now = Date.now() / 1000;
  if (typeof exp !== 'number' || exp <= now || exp > now + 24 * 3600) {
    throw new Error(`exp ${exp} is not in the next 24 hours`);
  }
  if (typeof sub !== 'string' || !/^(mailto:|https:)/.test(sub)) throw new Error(`sub ${sub}`);
  return { aud, sub, exp, publicKey: k };
}

/**
 * What a faulty push service does with a valid push (the fault tests): an error answer (500,
 * 503, 429 in turn; nothing delivered), no answer (nothing delivered), or the push delivered and
 * its answer lost. Either of the last two leaves the connection open until the sender gives up,
 * or cuts it after `dropAfterMs`.
 */
export interface PushFaults {
  pick: () => 'none' | 'error' | 'timeout' | 'accepted-timeout';
  dropAfterMs?: number;
}

/**
 * startPushService starts the loopback push service on 127.0.0.1, with the certificate in
 * `tlsDir` (one a server under test already trusts), else a new one; with `faults`, it fails a
 * share of the pushes.
 */
export async function startPushService(tlsDir?: string, faults?: PushFaults): Promise<PushService> {
  const dir = tlsDir ?? mkdtempSync(path.join(os.tmpdir(), 'baton-push-'));
  if (!tlsDir) writeSelfSignedCertificate(dir);
  const { key, cert, certFile } = readCertificate(dir);
  const devices = new Map<
    string,
    { ecdh: ECDH; auth: Buffer; status: number; online: boolean; held: ReceivedPush[] }
  >();
  const received: ReceivedPush[] = [];
  const delivered: ReceivedPush[] = [];
  const refused: PushService['refused'] = [];
  const dealt: PushService['faults'] = {
    error: 0,
    timeout: 0,
    'accepted-timeout': 0,
    answerLost: [],
  };
  const hold = (res: ServerResponse) => {
    if (faults?.dropAfterMs !== undefined) setTimeout(() => res.destroy(), faults.dropAfterMs);
  };
  let origin = '';

  const server: Server = createServer({ key, cert }, async (req, res) => {
    const receivedAt = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
    const device = devices.get(id);
    const refuse = (status: number, reason: string) => {
      refused.push({ device: id, status, reason });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
    };
    if (req.method !== 'POST' || !device) return refuse(404, 'No such subscription');
    let vapid: ReceivedPush['vapid'];
    try {
      vapid = checkVapid(req.headers.authorization, origin);
    } catch (err) {
      return refuse(403, `VAPID: ${(err as Error).message}`);
    }
    if (req.headers['content-encoding'] !== 'aes128gcm') {
      return refuse(415, `content-encoding ${req.headers['content-encoding']}`);
    }
    const topic = req.headers.topic as string | undefined;
    if (topic !== undefined && !/^[\w-]{1,32}$/.test(topic)) {
      return refuse(400, `Topic ${topic} is not 1 to 32 base64url characters`);
    }
    if (device.status !== 201) {
      return res.writeHead(device.status, { 'content-type': 'text/plain' }).end('Gone');
    }
    const fault = faults?.pick() ?? 'none';
    if (fault === 'error') {
      dealt.error += 1;
      const status = [500, 503, 429][dealt.error % 3];
      return res.writeHead(status, { 'content-type': 'text/plain' }).end('Injected failure');
    }
    if (fault === 'timeout') {
      dealt.timeout += 1;
      return hold(res);
    }
    let text: string;
    try {
      text = ece
        .decrypt(body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.auth })
        .toString('utf8');
    } catch (err) {
      return refuse(400, `the body does not decrypt: ${(err as Error).message}`);
    }
    const push: ReceivedPush = {
      device: id,
      text,
      ttl: req.headers.ttl as string | undefined,
      urgency: req.headers.urgency as string | undefined,
      topic,
      contentEncoding: req.headers['content-encoding'],
      vapid,
      receivedAt,
    };
    received.push(push);
    if (device.online) delivered.push(push);
    else {
      const same = topic === undefined ? -1 : device.held.findIndex((h) => h.topic === topic);
      if (same === -1) device.held.push(push);
      else device.held[same] = push;
    }
    if (fault === 'accepted-timeout') {
      dealt['accepted-timeout'] += 1;
      dealt.answerLost.push(text);
      return hold(res);
    }
    // A sender that gave up before the answer went out (its own timeout) lost it too.
    res.on('close', () => {
      if (!res.writableFinished) dealt.answerLost.push(text);
    });
    res.writeHead(201, { location: `${origin}/message/${received.length}` }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    ca: cert,
    caFile: certFile,
    received,
    delivered,
    refused,
    faults: dealt,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = b64url(randomBytes(12));
      devices.set(id, { ecdh, auth, status: 201, online: true, held: [] });
      return {
        subscription: {
          endpoint: `${origin}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
        },
      };
    },
    answer(device, status) {
      const known = devices.get(device);
      if (known) known.status = status;
    },
    disconnect(device) {
      const known = devices.get(device);
      if (known) known.online = false;
    },
    connect(device) {
      const known = devices.get(device);
      if (!known) return;
      known.online = true;
      delivered.push(...known.held.splice(0));
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (!tlsDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** deviceOf: the device id of an endpoint of this service. */
export const deviceOf = (endpoint: string) => endpoint.split('/').pop() ?? '';
