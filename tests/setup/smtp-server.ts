import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** when the message's data began to arrive, `performance.now()` (the bench's latencies) */
  receivedAt?: number;
}

/**
 * startSmtpServer runs a real SMTP server on 127.0.0.1 for tests. `failNext(n, code, reply)` makes
 * the next n messages fail with an SMTP reply code (4xx transient, 5xx permanent) and a reply text,
 * which may quote the recipients as real servers do. `refuse(address, code, reply)` refuses every
 * message to one address until the function it returns is called.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  type Reply = string | ((recipients: string[]) => string);
  let failures: { remaining: number; code: number; reply: Reply } = {
    remaining: 0,
    code: 451,
    reply: 'Mailbox temporarily unavailable',
  };
  const refused = new Map<string, { code: number; reply: string }>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const receivedAt = performance.now();
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const refusal = session.envelope.rcptTo
          .map((r) => refused.get(r.address.toLowerCase()))
          .find((r) => r !== undefined);
        if (refusal) {
          return callback(Object.assign(new Error(refusal.reply), { responseCode: refusal.code }));
        }
        if (failures.remaining > 0) {
          failures.remaining -= 1;
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          const { reply } = failures;
          const text = typeof reply === 'function' ? reply(recipients) : reply;
          const err = Object.assign(new Error(text), { responseCode: failures.code });
          return callback(err);
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          receivedAt,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext(n: number, code = 451, reply: Reply = 'Mailbox temporarily unavailable') {
      failures = { remaining: n, code, reply };
    },
    refuse(address: string, code = 550, reply = '5.1.1 Recipient address rejected') {
      refused.set(address.toLowerCase(), { code, reply });
      return () => refused.delete(address.toLowerCase());
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
