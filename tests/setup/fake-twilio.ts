import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { twilioSignature } from '../../src/server/modules/sms-replies/twilio-signature';

export interface SentSms {
  to: string;
  from: string;
  body: string;
  idempotencyToken?: string;
  /** when the request reached the server, `performance.now()` (the bench's latencies) */
  receivedAt: number;
}

/** A call placed through the Calls API, as Twilio was asked to place it. */
export interface PlacedCall {
  sid: string;
  to: string;
  from: string;
  /** where Twilio fetches the call's TwiML when it is answered (empty when `twiml` is given) */
  url: string;
  /** the TwiML given with the request instead of a Url */
  twiml: string | null;
  method: string;
  statusCallback: string | null;
  statusCallbackEvents: string[];
  machineDetection: string | null;
  idempotencyToken?: string;
  /** when the request reached the server, `performance.now()` (the bench's latencies) */
  receivedAt: number;
}

/**
 * How a driven call's callbacks reach Baton: a POST of the form to the URL, signed; answers the
 * status and the body. By default over HTTP; an API test passes one that injects into its app.
 */
export type CallbackPost = (
  url: string,
  form: readonly (readonly [string, string])[],
  headers: Record<string, string>,
) => Promise<{ status: number; body: string }>;

const fetchPost: CallbackPost = async (url, form, headers) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form as [string, string][]),
  });
  return { status: res.status, body: await res.text() };
};

type Behaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number }
  | { kind: 'hang' }
  /** a permanent refusal quoting the number, as Twilio's error 21610 does */
  | { kind: 'unsubscribed' };

/**
 * startFakeTwilio is a loopback HTTP server speaking Twilio's Messages API
 * (POST /2010-04-01/Accounts/{sid}/Messages.json, form-encoded, Basic auth) and Calls API
 * (POST …/Calls.json: 201 with the call's sid, status queued). Tests queue behaviours:
 * transient 5xx answers, permanent 4xx answers (one quoting the number), or a hang (timeout).
 * A placed call is driven as Twilio would (`drive`): its TwiML fetched from its Url, a key posted
 * to the Gather's action, its progress posted to its StatusCallback, each signed as Twilio signs
 * (X-Twilio-Signature: HMAC-SHA1 of the URL and the sorted POST parameters, the auth token's).
 */
export async function startFakeTwilio(accountSid = 'AC_test', authToken = 'token_test') {
  const sent: SentSms[] = [];
  const calls: PlacedCall[] = [];
  const queue: Behaviour[] = [];
  let requests = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const receivedAt = performance.now();
    requests += 1;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const expectedPath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
    const callsPath = `/2010-04-01/Accounts/${accountSid}/Calls.json`;
    const auth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || (req.url !== expectedPath && req.url !== callsPath))
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
    if (req.url === callsPath) {
      // Twilio requires From, and a Url (or Twiml) to fetch when the call is answered.
      const url = form.get('Url') ?? '';
      if ((!url && !form.get('Twiml')) || !form.get('From'))
        return json(400, { code: 21205, message: 'Url parameter is required.' });
      const sid = `CA${String(calls.length + 1).padStart(32, '0')}`;
      calls.push({
        sid,
        to,
        from: form.get('From') ?? '',
        url,
        twiml: form.get('Twiml'),
        method: form.get('Method') ?? 'POST',
        statusCallback: form.get('StatusCallback'),
        statusCallbackEvents: form.getAll('StatusCallbackEvent'),
        machineDetection: form.get('MachineDetection'),
        idempotencyToken: typeof token === 'string' ? token : undefined,
        receivedAt,
      });
      return json(201, {
        sid,
        status: 'queued',
        to,
        from: form.get('From'),
        direction: 'outbound-api',
      });
    }
    sent.push({
      to,
      from: form.get('From') ?? '',
      body: form.get('Body') ?? '',
      idempotencyToken: typeof token === 'string' ? token : undefined,
      receivedAt,
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
    calls,
    /**
     * drive plays Twilio's side of a placed call: each callback posts Twilio's fields (AccountSid,
     * CallSid, From, To, Direction, CallStatus, and those given) signed with `signingToken` (the
     * account's auth token; another one forges a wrong signature).
     */
    drive(call: PlacedCall, post: CallbackPost = fetchPost, signingToken = authToken) {
      let gatherUrl: string | null = null;
      const send = async (url: string, fields: Record<string, string>) => {
        const form: [string, string][] = Object.entries({
          AccountSid: accountSid,
          ApiVersion: '2010-04-01',
          CallSid: call.sid,
          Direction: 'outbound-api',
          From: call.from,
          To: call.to,
          ...fields,
        });
        const signature = twilioSignature(signingToken, url, form);
        return post(url, form, { 'x-twilio-signature': signature });
      };
      return {
        /** the call is answered: Twilio fetches its TwiML (remembering its Gather's action) */
        async answer(fields: Record<string, string> = {}) {
          const answered = await send(call.url, { CallStatus: 'in-progress', ...fields });
          gatherUrl = gatherActionOf(answered.body) ?? gatherUrl;
          return answered;
        },
        /** a key pressed: Twilio posts Digits to the last TwiML's Gather action */
        async press(digits: string) {
          if (gatherUrl === null) throw new Error('No Gather to press a key in: answer first');
          const pressed = await send(gatherUrl, {
            CallStatus: 'in-progress',
            Digits: digits,
            FinishedOnKey: '',
          });
          gatherUrl = gatherActionOf(pressed.body) ?? gatherUrl;
          return pressed;
        },
        /** the call's progress: Twilio posts CallStatus (and e.g. AnsweredBy) to StatusCallback */
        async status(callStatus: string, fields: Record<string, string> = {}) {
          if (!call.statusCallback) throw new Error('The call has no StatusCallback');
          return send(call.statusCallback, {
            CallStatus: callStatus,
            ...(callStatus === 'completed' ? { CallDuration: '21' } : {}),
            ...fields,
          });
        },
      };
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

/** gatherActionOf reads the action of a TwiML document's first Gather (XML entities undone). */
export function gatherActionOf(twiml: string): string | null {
  const match = /<Gather\b[^>]*\baction="([^"]*)"/.exec(twiml);
  if (!match) return null;
  return match[1]
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
