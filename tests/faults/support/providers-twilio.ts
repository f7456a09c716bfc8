import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FaultPlan, ProviderLog, pickFault } from './providers-faults';

export interface Sms {
  to: string;
  /** the SMS text; of a call, its TwiML address (`Url`) */
  body: string;
}

/**
 * startFaultyTwilio is a loopback server speaking Twilio's Messages API (or, with `api` 'Calls',
 * its Calls API: a call is known by its TwiML address) that fails a share of
 * requests (500, 503 and 429 answers; no answer; an accepted message whose answer never comes),
 * refuses some numbers permanently (400, Twilio error 21610: the recipient unsubscribed), and
 * drops a repeated `I-Twilio-Idempotency-Token`: the repeat gets the first answer again and sends
 * nothing. Real Twilio does not: its Messages API documents no deduplication by that header (it
 * is the header Twilio puts on its own webhook requests). The fake deduplicates so the drill can
 * tell a repeat under the same key (dropped here) from one under another key or none (delivered
 * twice here); it does not show that real SMS are never duplicated (decision 006).
 */
export async function startFaultyTwilio(
  plan: FaultPlan,
  refuses: (to: string) => boolean,
  accountSid = 'AC_faults',
  authToken = 'token_faults',
  api: 'Messages' | 'Calls' = 'Messages',
) {
  const log = new ProviderLog<Sms>();
  const hanging = new Set<ServerResponse>();
  const errorStatuses = [500, 503, 429];
  /** no answer: held until the client gives up, or cut after plan.dropAfterMs */
  const hang = (res: ServerResponse) => {
    hanging.add(res);
    if (plan.dropAfterMs !== undefined) setTimeout(() => res.destroy(), plan.dropAfterMs);
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const auth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    if (
      req.method !== 'POST' ||
      req.url !== `/2010-04-01/Accounts/${accountSid}/${api}.json` ||
      req.headers.authorization !== auth
    ) {
      return json(404, { code: 20404, message: 'Not Found' });
    }
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const to = form.get('To') ?? '';
    // A refusal comes first and every time, as a bad number's does.
    if (refuses(to)) {
      log.refuse(to);
      return json(400, {
        code: 21610,
        message: `Attempt to send to unsubscribed recipient ${to}`,
        status: 400,
      });
    }
    const token = req.headers['i-twilio-idempotency-token'];
    if (typeof token === 'string') log.requested(token);
    const fault = pickFault(plan);
    if (fault === 'error') {
      log.outcomes.error += 1;
      const status = errorStatuses[log.outcomes.error % errorStatuses.length];
      return json(status, { code: status === 429 ? 20429 : 20500, message: 'Injected failure' });
    }
    if (fault === 'timeout') {
      log.outcomes.timeout += 1;
      hang(res);
      return;
    }
    if (typeof token !== 'string') log.unkeyed += 1;
    const key = typeof token === 'string' ? token : `unkeyed:${log.unkeyed}`;
    let answer = log.answers.get(key);
    if (answer) {
      log.outcomes.repeat += 1;
    } else {
      log.outcomes.delivered += 1;
      answer = JSON.stringify({
        sid: `${api === 'Calls' ? 'CA' : 'SM'}${String(log.deliveries.length + 1).padStart(32, '0')}`,
        status: 'queued',
        to,
      });
      log.answers.set(key, answer);
      const body = form.get(api === 'Calls' ? 'Url' : 'Body') ?? '';
      log.deliveries.push({ key, message: { to, body } });
    }
    if (fault === 'accepted-timeout') {
      log.outcomes['accepted-timeout'] += 1;
      hang(res);
      return;
    }
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(answer);
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
