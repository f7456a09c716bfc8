import { createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server';
import { ALERT_BODY_MAX, INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import { type InboundEmail, normalizeEmail } from '../../../shared/domain/alerts';
import {
  findIntegrationByKey,
  type IntegrationRow,
  normalizeOptionsOf,
} from '../integrations/integration-keys';
import type { Metrics } from '../metrics/metrics';
import { type IntakeDeps, receiveAlerts } from './alert-intake';

/**
 * Alert email (issue 17, decision 212): an SMTP listener that turns a message to `<key>@` any
 * domain into an alert of the integration whose key it is. The key is the credential, as in every
 * other inbound format: a recipient that names no integration is refused at RCPT (550) and nothing
 * is written; there is no AUTH. A message over ALERT_BODY_MAX is refused (552), a failure to store
 * answers 451 so the sender's mail server retries, and nothing here can end the process.
 */

/** The most recipients (integration keys) one message may name; more are answered 452. */
export const ALERT_EMAIL_RECIPIENTS_MAX = 20;
/** The most SMTP connections at once. */
export const ALERT_EMAIL_CLIENTS_MAX = 100;

/** What the listener reports: refusals it could not answer well, and storage failures. */
export interface AlertEmailLog {
  warn(detail: object, message: string): void;
  error(detail: object, message: string): void;
}

export interface AlertEmailOptions {
  port: number;
  host: string;
  log?: AlertEmailLog;
  /** the name Baton gives itself in the greeting (default: the machine's host name) */
  name?: string;
  /** counts alerts stored and messages refused (decision 225) */
  metrics?: Pick<Metrics, 'alertsStored' | 'alertRefused'>;
}

export interface AlertEmailServer {
  /** the port it listens on (the one given, or the one chosen for port 0) */
  port: number;
  /** close stops listening, lets open conversations finish for up to 5 seconds, then ends them */
  close(): Promise<void>;
}

/** An SMTP reply: the code and the text the sender's mail server reads (and bounces with). */
class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

const TRY_LATER = 'Baton could not store this alert just now; please try again later.';
const silent: AlertEmailLog = { warn: () => {}, error: () => {} };

/** keyOfRecipient: the local part of `<key>@domain`, the integration key it names. */
export function keyOfRecipient(address: string): string {
  const at = address.lastIndexOf('@');
  return (at < 0 ? address : address.slice(0, at)).trim();
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * startAlertEmailServer listens for SMTP on `port` and `host` and answers once listening; it
 * rejects when it cannot listen (the port is taken).
 */
export async function startAlertEmailServer(
  deps: IntakeDeps,
  options: AlertEmailOptions,
): Promise<AlertEmailServer> {
  const log = options.log ?? silent;

  // The integrations a session's accepted recipients name, found again when the message is in:
  // a key regenerated or deleted during the conversation no longer counts.
  async function integrationsOf(session: SMTPServerSession): Promise<IntegrationRow[]> {
    const found = new Map<number, IntegrationRow>();
    for (const rcpt of session.envelope.rcptTo) {
      const integration = await findIntegrationByKey(
        deps.database.db,
        keyOfRecipient(rcpt.address),
      );
      if (integration) found.set(integration.id, integration);
    }
    return [...found.values()];
  }

  async function checkRecipient(address: SMTPServerAddress): Promise<void> {
    let integration: IntegrationRow | undefined;
    try {
      integration = await findIntegrationByKey(deps.database.db, keyOfRecipient(address.address));
    } catch (err) {
      log.error({ err }, 'alert email: could not look up an integration key');
      throw new SmtpReply(451, TRY_LATER);
    }
    if (!integration) {
      throw new SmtpReply(550, `<${address.address}>: ${INTEGRATION_MESSAGES.keyUnknown}`);
    }
  }

  async function receive(raw: Buffer, session: SMTPServerSession): Promise<string> {
    let mail: InboundEmail;
    try {
      const parsed = await simpleParser(raw, {
        skipImageLinks: true,
        skipTextToHtml: true,
        skipTextLinks: true,
      });
      const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const sender = parsed.from?.value.find((a) => a.address)?.address ?? envelopeFrom;
      mail = {
        from: parsed.from?.text ?? envelopeFrom,
        fromAddress: sender,
        subject: parsed.subject ?? '',
        // An HTML-only message's text is mailparser's rendering of its HTML (html-to-text).
        text: parsed.text ?? '',
        messageId: parsed.messageId,
        date:
          parsed.date && !Number.isNaN(parsed.date.getTime())
            ? parsed.date.toISOString()
            : undefined,
      };
    } catch (err) {
      log.warn({ err }, 'alert email: a message could not be read');
      throw new SmtpReply(554, 'Baton could not read this message as email.');
    }
    let integrations: IntegrationRow[];
    try {
      integrations = await integrationsOf(session);
    } catch (err) {
      log.error({ err }, 'alert email: could not look up an integration key');
      throw new SmtpReply(451, TRY_LATER);
    }
    if (integrations.length === 0) throw new SmtpReply(550, INTEGRATION_MESSAGES.keyUnknown);
    // Without a Message-ID, the message's own bytes name it: a retried delivery is the same one.
    const generatedKey = `email-${sha256(raw)}`;
    const payload = raw.toString('utf8');
    const incidents: number[] = [];
    for (const integration of integrations) {
      const event = normalizeEmail(
        mail,
        integration.emailDedup === 'message' ? 'message' : 'subject',
        generatedKey,
        normalizeOptionsOf(integration),
      );
      try {
        const [receipt] = await receiveAlerts(deps, integration, {
          format: 'email',
          events: [event],
          payload,
        });
        options.metrics?.alertsStored('email', 1);
        if (receipt && receipt.incidentId !== null) incidents.push(receipt.incidentId);
      } catch (err) {
        // The sender retries the whole message: what was stored before is then a repeat.
        log.error({ err, integrationId: integration.id }, 'alert email: could not store an alert');
        throw new SmtpReply(451, TRY_LATER);
      }
    }
    return incidents.length > 0
      ? `Alert received (incident ${[...new Set(incidents)].join(', ')})`
      : 'Alert received';
  }

  const server = new SMTPServer({
    name: options.name,
    banner: 'Baton alert email',
    // The integration key in the recipient address is the credential (decision 212).
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: ALERT_BODY_MAX,
    maxRecipients: ALERT_EMAIL_RECIPIENTS_MAX,
    maxClients: ALERT_EMAIL_CLIENTS_MAX,
    disableReverseLookup: true,
    closeTimeout: 5_000,
    logger: false,
    onRcptTo(address, _session, callback) {
      checkRecipient(address).then(
        () => callback(),
        (err: unknown) => callback(counted(asReply(err))),
      );
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      let answered = false;
      const answer = (err: Error | null, message?: string) => {
        if (answered) return;
        answered = true;
        callback(err, message);
      };
      // Past the limit the rest is read and dropped (the conversation must reach its end).
      stream.on('data', (chunk: Buffer) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('error', (err) => {
        log.warn({ err }, 'alert email: a message stream failed');
        answer(new SmtpReply(451, TRY_LATER));
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          answer(counted(new SmtpReply(552, INTEGRATION_MESSAGES.tooLarge)));
          return;
        }
        receive(Buffer.concat(chunks), session).then(
          (message) => answer(null, message),
          (err: unknown) => answer(counted(asReply(err))),
        );
      });
    },
  });

  /** counted: a refusal for good (5xx) counts as a refused alert; 451 (try later) does not. */
  function counted(reply: SmtpReply): SmtpReply {
    if (reply.responseCode >= 500) options.metrics?.alertRefused('email', reply.responseCode);
    return reply;
  }

  function asReply(err: unknown): SmtpReply {
    if (err instanceof SmtpReply) return err;
    log.error({ err }, 'alert email: unexpected failure');
    return new SmtpReply(451, TRY_LATER);
  }

  // Until it listens, an error (the port is taken) is the start's failure; afterwards a client
  // that drops the connection or speaks nonsense is its own problem, never the process's.
  let listening = false;
  await new Promise<void>((resolve, reject) => {
    server.on('error', (err) => {
      if (listening) log.warn({ err }, 'alert email: connection error');
      else reject(err);
    });
    server.listen(options.port, options.host, () => {
      listening = true;
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
