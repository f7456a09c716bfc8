import { createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerOptions,
  type SMTPServerSession,
} from 'smtp-server';
import { ALERT_BODY_MAX, INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import { type InboundEmail, normalizeEmail } from '../../../shared/domain/alerts/email';
import {
  findIntegrationByKey,
  type IntegrationRow,
  normalizeOptionsOf,
} from '../integrations/integration-keys';
import type { Metrics } from '../metrics/metrics';
import { type IntakeDeps, receiveAlerts } from './alert-intake';
import { clientKeyOf, KEY_GUESS_LIMIT_DEFAULT, KeyGuesses } from './key-guesses';

/**
 * Alert email (issue 17, decision 212): an SMTP listener that turns a message to `<key>@` any
 * domain into an alert of the integration whose key it is. The key is the credential, as in every
 * other inbound format: a recipient that names no integration is refused at RCPT (550) and nothing
 * is written; there is no AUTH. A message over ALERT_BODY_MAX is refused (552), a failure to store
 * answers 451 so the sender's mail server retries, and nothing here can end the process. The key of
 * an integration with a signing secret is refused (550): it opens only Grafana's signed endpoint.
 * A client address past the limit of wrong keys, or with too many connections open, is answered
 * 421 and disconnected (issue 30, decision 235).
 */

/** The most recipients (integration keys) one message may name; more are answered 452. */
export const ALERT_EMAIL_RECIPIENTS_MAX = 20;
/** The most SMTP connections at once. */
export const ALERT_EMAIL_CLIENTS_MAX = 100;
/** The most SMTP connections at once from one client address (IPv4, or IPv6 /64). */
export const ALERT_EMAIL_CLIENTS_PER_ADDRESS = 10;
/** How long a connection may say nothing before it is answered 421 and closed. */
export const ALERT_EMAIL_IDLE_MS = 60_000;

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
  /** wrong keys a minute one client address may send (default KEY_GUESS_LIMIT_DEFAULT) */
  keyGuessLimit?: number;
  /** connections at once from one client address (default ALERT_EMAIL_CLIENTS_PER_ADDRESS) */
  clientsPerAddress?: number;
  /** idle time before a connection is closed (default ALERT_EMAIL_IDLE_MS) */
  idleTimeoutMs?: number;
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
const TOO_MANY_CONNECTIONS =
  'Too many connections from your address at once; close one and try again.';
const silent: AlertEmailLog = { warn: () => {}, error: () => {} };

/** keyOfRecipient: the local part of `<key>@domain`, the integration key it names. */
export function keyOfRecipient(address: string): string {
  const at = address.lastIndexOf('@');
  return (at < 0 ? address : address.slice(0, at)).trim();
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** What a listener's conversations share: the intake, its options, the log and the guesses. */
interface Listener {
  deps: IntakeDeps;
  options: AlertEmailOptions;
  log: AlertEmailLog;
  guesses: KeyGuesses;
}

/** guessReply: 421 (and the connection closed) to a client past the limit of wrong keys. */
const guessReply = (seconds: number) =>
  new SmtpReply(421, INTEGRATION_MESSAGES.keyGuesses(seconds));

/**
 * startAlertEmailServer listens for SMTP on `port` and `host` and answers once listening; it
 * rejects when it cannot listen (the port is taken).
 */
export async function startAlertEmailServer(
  deps: IntakeDeps,
  options: AlertEmailOptions,
): Promise<AlertEmailServer> {
  const log = options.log ?? silent;
  const guesses = new KeyGuesses(
    { db: deps.database.db, cipher: deps.cipher, clock: deps.clock },
    options.keyGuessLimit ?? KEY_GUESS_LIMIT_DEFAULT,
  );
  const server = new SMTPServer(smtpOptions({ deps, options, log, guesses }));
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

// The integrations a session's accepted recipients name, found again when the message is in:
// a key regenerated or deleted, or given a signing secret, during the conversation no longer
// counts. `signed`: some recipient's integration has a signing secret now.
async function integrationsOf(
  deps: IntakeDeps,
  session: SMTPServerSession,
): Promise<{ found: IntegrationRow[]; signed: boolean }> {
  const found = new Map<number, IntegrationRow>();
  let signed = false;
  for (const rcpt of session.envelope.rcptTo) {
    const integration = await findIntegrationByKey(deps.database.db, keyOfRecipient(rcpt.address));
    if (!integration) continue;
    if (integration.signingSecretEnc !== null) signed = true;
    else found.set(integration.id, integration);
  }
  return { found: [...found.values()], signed };
}

/** checkRecipient refuses a recipient that names no integration, or a signed one's key. */
async function checkRecipient(
  { deps, log, guesses }: Listener,
  address: SMTPServerAddress,
  session: SMTPServerSession,
): Promise<void> {
  const blocked = guesses.waitOf(session.remoteAddress);
  if (blocked > 0) throw guessReply(blocked);
  let integration: IntegrationRow | undefined;
  let wait = 0;
  try {
    integration = await findIntegrationByKey(deps.database.db, keyOfRecipient(address.address));
    if (!integration) wait = await guesses.wrongKey(session.remoteAddress);
  } catch (err) {
    log.error({ err }, 'alert email: could not look up an integration key');
    throw new SmtpReply(451, TRY_LATER);
  }
  if (wait > 0) throw guessReply(wait);
  if (!integration) {
    throw new SmtpReply(550, `<${address.address}>: ${INTEGRATION_MESSAGES.keyUnknown}`);
  }
  // A signing secret binds the whole key to Grafana's signed requests (decision 235).
  if (integration.signingSecretEnc !== null) {
    throw new SmtpReply(550, `<${address.address}>: ${INTEGRATION_MESSAGES.signedOnly}`);
  }
}

/** receive stores a message's alert with each integration its recipients name; it answers the text. */
async function receive(
  { deps, options, log }: Listener,
  raw: Buffer,
  session: SMTPServerSession,
): Promise<string> {
  const mail = await readMail(raw, session, log);
  let integrations: IntegrationRow[];
  let signed: boolean;
  try {
    ({ found: integrations, signed } = await integrationsOf(deps, session));
  } catch (err) {
    log.error({ err }, 'alert email: could not look up an integration key');
    throw new SmtpReply(451, TRY_LATER);
  }
  if (integrations.length === 0) {
    throw new SmtpReply(
      550,
      signed ? INTEGRATION_MESSAGES.signedOnly : INTEGRATION_MESSAGES.keyUnknown,
    );
  }
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

/** readMail reads the message as email, or refuses it (554). */
async function readMail(
  raw: Buffer,
  session: SMTPServerSession,
  log: AlertEmailLog,
): Promise<InboundEmail> {
  try {
    const parsed = await simpleParser(raw, {
      skipImageLinks: true,
      skipTextToHtml: true,
      skipTextLinks: true,
    });
    const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
    const sender = parsed.from?.value.find((a) => a.address)?.address ?? envelopeFrom;
    return {
      from: parsed.from?.text ?? envelopeFrom,
      fromAddress: sender,
      subject: parsed.subject ?? '',
      // An HTML-only message's text is mailparser's rendering of its HTML (html-to-text).
      text: parsed.text ?? '',
      messageId: parsed.messageId,
      date:
        parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date.toISOString() : undefined,
    };
  } catch (err) {
    log.warn({ err }, 'alert email: a message could not be read');
    throw new SmtpReply(554, 'Baton could not read this message as email.');
  }
}

/**
 * smtpOptions: the listener's limits and its answers at each step of a conversation (connect,
 * each recipient, the message), with the connections counted per client address.
 */
function smtpOptions(listener: Listener): SMTPServerOptions {
  const { options, log, guesses } = listener;
  const clientsPerAddress = options.clientsPerAddress ?? ALERT_EMAIL_CLIENTS_PER_ADDRESS;
  /** the open connections counted against their client (session id → client) */
  const counted = new Map<string, string>();
  /** each client's open connections */
  const openPerClient = new Map<string, number>();
  const countedRefusal = (reply: SmtpReply) => countRefusal(options, reply);
  const asReply = (err: unknown) => replyOf(log, err);
  return {
    name: options.name,
    banner: 'Baton alert email',
    // The integration key in the recipient address is the credential (decision 212).
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: ALERT_BODY_MAX,
    maxRecipients: ALERT_EMAIL_RECIPIENTS_MAX,
    maxClients: ALERT_EMAIL_CLIENTS_MAX,
    // An idle connection holds a place; with the cap per client below, a hundred idle
    // connections from one address cannot shut out everyone else's alert email.
    socketTimeout: options.idleTimeoutMs ?? ALERT_EMAIL_IDLE_MS,
    disableReverseLookup: true,
    closeTimeout: 5_000,
    logger: false,
    onConnect(session, callback) {
      const client = clientKeyOf(session.remoteAddress);
      const blocked = guesses.waitOf(session.remoteAddress);
      if (blocked > 0) return callback(countedRefusal(guessReply(blocked)));
      const open = openPerClient.get(client) ?? 0;
      if (open >= clientsPerAddress) {
        return callback(countedRefusal(new SmtpReply(421, TOO_MANY_CONNECTIONS)));
      }
      openPerClient.set(client, open + 1);
      counted.set(session.id, client);
      callback();
    },
    onClose(session) {
      const client = counted.get(session.id);
      if (client === undefined) return;
      counted.delete(session.id);
      const open = (openPerClient.get(client) ?? 1) - 1;
      if (open > 0) openPerClient.set(client, open);
      else openPerClient.delete(client);
    },
    onRcptTo(address, session, callback) {
      checkRecipient(listener, address, session).then(
        () => callback(),
        (err: unknown) => callback(countedRefusal(asReply(err))),
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
          answer(countedRefusal(new SmtpReply(552, INTEGRATION_MESSAGES.tooLarge)));
          return;
        }
        receive(listener, Buffer.concat(chunks), session).then(
          (message) => answer(null, message),
          (err: unknown) => answer(countedRefusal(asReply(err))),
        );
      });
    },
  };
}

/** countRefusal: a refusal for good (5xx) counts as a refused alert; 4xx (try later) does not. */
function countRefusal(options: AlertEmailOptions, reply: SmtpReply): SmtpReply {
  if (reply.responseCode >= 500) options.metrics?.alertRefused('email', reply.responseCode);
  return reply;
}

/** replyOf: the SMTP reply an error answers, 451 (try later) for an unexpected one. */
function replyOf(log: AlertEmailLog, err: unknown): SmtpReply {
  if (err instanceof SmtpReply) return err;
  log.error({ err }, 'alert email: unexpected failure');
  return new SmtpReply(451, TRY_LATER);
}
