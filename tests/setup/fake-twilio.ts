import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentSms {
  to: string;
  from: string;
  body: string;
  idempotencyToken?: string;
}

type Behaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number }
  | { kind: 'hang' }
  /** a permanent refusal quoting the number, as Twilio's error 21610 does */
  | { kind: 'unsubscribed' };

/**
 * startFakeTwilio is a loopback HTTP server speaking Twilio's Messages API
 * (POST /2010-04-01/Accounts/{sid}/Messages.json, form-encoded, Basic auth). Tests queue
 * behaviours: transient 5xx answers, permanent 4xx answers (one quoting the number), or a hang
 * (timeout).
 */
export async function startFakeTwilio(accountSid = 'AC_test', authToken = 'token_test') {
  const sent: SentSms[] = [];
  const queue: Behaviour[] = [];
  let requests = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    requests += 1;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const expectedPath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
    const auth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== expectedPath)
      return json(404, { code: 20404, message: 'Not Found' });
    if (req.headers.authorization !== auth)
      return json(401, { code: 20003, message: 'Authenticate' });
    const behaviour = queue.shift() ?? { kind: 'ok' };
    if (behaviour.kind === 'hang') return; // never answers: the client's timeout must fire
    if (behaviour.kind === 'status')
      return json(behaviour.status, { code: 20500, message: 'Injected failure' });
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const to = form.get('To') ?? '';
    if (behaviour.kind === 'unsubscribed')
      return json(400, {
        code: 21610,
        message: `Attempt to send to unsubscribed recipient ${to}`,
        more_info: 'https://www.twilio.com/docs/errors/21610',
        status: 400,
      });
    if (!/^\+[1-9]\d{6,14}$/.test(to))
      return json(400, {
        code: 21211,
        message: `The 'To' number ${to} is not a valid phone number.`,
      });
    const token = req.headers['i-twilio-idempotency-token'];
    sent.push({
      to,
      from: form.get('From') ?? '',
      body: form.get('Body') ?? '',
      idempotencyToken: typeof token === 'string' ? token : undefined,
    });
    json(201, { sid: `SM${String(sent.length).padStart(32, '0')}`, status: 'queued', to });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    sent,
    get requests() {
      return requests;
    },
    /** queue behaviours for the next requests, in order */
    next(...behaviours: Behaviour[]) {
      queue.push(...behaviours);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
