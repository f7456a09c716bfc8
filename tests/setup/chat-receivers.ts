import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback receiver of chat and webhook messages (decision 221): it speaks like Slack's
 * incoming webhooks (200 "ok"), Teams Workflows (202) or a webhook receiver (204), keeps what it
 * received, and can fail the next requests (`failNext`) or every one (`failing`) with a status.
 */
export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: unknown;
}

export interface ChatReceiver {
  url: string;
  received: Received[];
  /** requests answered with the failure status, counted down */
  failNext: number;
  /** every request answered with the failure status while true */
  failing: boolean;
  failStatus: number;
  /** answered including failures */
  attempts: number;
  /** the webhook-id header of every attempt, failed ones included */
  attemptIds: string[];
  close(): Promise<void>;
}

export async function startChatReceiver(
  style: 'slack' | 'teams' | 'webhook',
  path = '/hook',
): Promise<ChatReceiver> {
  const state = {
    received: [] as Received[],
    failNext: 0,
    failing: false,
    failStatus: 503,
    attempts: 0,
    attemptIds: [] as string[],
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      receiver.attempts += 1;
      receiver.attemptIds.push(String(req.headers['webhook-id'] ?? ''));
      if (req.method !== 'POST' || req.url !== path) {
        res.writeHead(404).end('no_service');
        return;
      }
      if (receiver.failing || receiver.failNext > 0) {
        if (receiver.failNext > 0) receiver.failNext -= 1;
        res.writeHead(receiver.failStatus).end('temporarily unavailable');
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end('invalid_payload');
        return;
      }
      receiver.received.push({ headers: req.headers, raw, body });
      if (style === 'slack') res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      else if (style === 'teams') res.writeHead(202).end();
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: ChatReceiver = {
    url: `http://127.0.0.1:${port}${path}`,
    ...state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
