import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { type FaultPlan, ProviderLog, pickFault } from './providers-faults';

export interface Mail {
  to: string[];
  subject: string;
}

/**
 * startFaultySmtpServer is a real SMTP server on 127.0.0.1 that fails a share of messages
 * (451 answers, no answer at all, or an accepted message whose answer never comes), refuses
 * some recipients permanently (550 at RCPT TO), and drops repeats by Message-ID: a message whose
 * Message-ID it already delivered is accepted again and not delivered twice. SMTP servers do not
 * do that (some mail stores show the copies as one); like the Twilio fake, it lets the drill tell
 * a repeat under the same key from one under another key (decision 006).
 */
export async function startFaultySmtpServer(
  plan: FaultPlan,
  refuses: (address: string) => boolean,
) {
  const log = new ProviderLog<Mail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 200,
    maxClients: 1_000,
    onRcptTo(address, _session, callback) {
      if (refuses(address.address)) {
        log.refuse(address.address);
        const err = Object.assign(new Error('5.1.1 Mailbox unavailable: recipient refused'), {
          responseCode: 550,
        });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1];
        if (messageId) log.requested(messageId);
        const fault = pickFault(plan);
        if (fault === 'error') {
          log.outcomes.error += 1;
          return callback(
            Object.assign(new Error('4.3.0 Temporary local problem, try again'), {
              responseCode: 451,
            }),
          );
        }
        // No answer: the client's socket timeout fires; nothing was delivered.
        if (fault === 'timeout') {
          log.outcomes.timeout += 1;
          dropLater(session);
          return;
        }
        if (!messageId) log.unkeyed += 1;
        const key = messageId ?? `unkeyed:${log.unkeyed}`;
        if (log.answers.has(key)) {
          log.outcomes.repeat += 1;
        } else {
          log.outcomes.delivered += 1;
          log.answers.set(key, `queued as ${key}`);
          log.deliveries.push({
            key,
            message: {
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: /^Subject:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? '',
            },
          });
        }
        // Delivered, but the answer is lost: the client times out and will try again.
        if (fault === 'accepted-timeout') {
          log.outcomes['accepted-timeout'] += 1;
          dropLater(session);
          return;
        }
        callback(null, `Ok: ${log.answers.get(key)}`);
      });
    },
  });
  /** with plan.dropAfterMs, cuts the session's connection that long after, without an answer */
  const dropLater = (session: unknown) => {
    if (plan.dropAfterMs === undefined) return;
    const connections = (
      server as unknown as { connections: Set<{ session: unknown; _socket: Socket }> }
    ).connections;
    const connection = [...connections].find((c) => c.session === session);
    setTimeout(() => connection?._socket.destroy(), plan.dropAfterMs);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
