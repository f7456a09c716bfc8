import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_BUG_REPORT_URL,
  DEFAULT_USERS_FORUM_URL,
  type HelpLinks,
} from '../../shared/contracts/help';
import type { HandoffFlowTimings } from '../../shared/domain/handoff-flow';
import type { DbTimeouts } from '../db/client';
import { parseAllowedRanges } from './address-ranges';

const MINUTE = 60_000;

/**
 * Configuration is read from environment variables once, at start, and validated here. A bad value
 * stops start-up with a message naming the variable (see ConfigError).
 */

const optionalString = z
  .string()
  .transform((s) => s.trim())
  .pipe(z.string())
  .optional()
  .transform((s) => (s ? s : undefined));

/** a link shown to every reader: http or https only (a javascript: URL in a link runs script) */
const linkUrl = (fallback: string) =>
  optionalString
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional())
    .transform((v) => v ?? fallback);

const boolFlag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v === '1' || v === 'true'));

/** a PostgreSQL time-out in milliseconds: a whole number from 0 (the server's own) to int4's top */
const dbTimeout = (fallback: number) =>
  z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(0, "must be 0 (the server's own setting) or more")
    .max(2_147_483_647, 'must be at most 2147483647')
    .default(fallback);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  DATA_DIR: z.string().default('./data'),
  ENCRYPTION_KEY: optionalString,
  /** comma-separated previous keys, readable while `npm run keys:rotate` re-encrypts */
  ENCRYPTION_KEYS_PREVIOUS: optionalString,
  COMPANY_DOMAIN: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'must be a domain name such as example.com')
      .optional(),
  ),
  ADMIN_EMAIL: optionalString.pipe(z.email('must be an email address').optional()),
  LOCAL_LOGIN_PASSWORD: optionalString.pipe(
    z.string().min(12, 'must be at least 12 characters').optional(),
  ),
  DEMO: boolFlag,
  PUBLIC_URL: optionalString.pipe(
    z.url('must be a URL such as https://baton.example.com').optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OIDC_ISSUER: z.url('must be a URL').default('https://accounts.google.com'),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  FIREBASE_PROJECT_ID: optionalString,
  /** where Firebase ID tokens' signing keys are published (tests point it at a loopback server) */
  FIREBASE_JWKS_URL: z
    .url('must be a URL')
    .default(
      'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com',
    ),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: optionalString,
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_FROM: optionalString.pipe(
    z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number such as +15551234567')
      .optional(),
  ),
  TWILIO_API_BASE: z.url('must be a URL').default('https://api.twilio.com'),
  /** 1: calls ask Twilio to detect answering machines (MachineDetection=Enable, decision 252) */
  TWILIO_MACHINE_DETECTION: boolFlag,
  OUTBOX_INTERVAL_SECONDS: z.coerce.number().positive().default(5),
  ENGINE_INTERVAL_SECONDS: z.coerce.number().positive().default(15),
  HANDOFF_NOTICE_MINUTES: z.coerce.number().int().min(0).default(30),
  HANDOFF_ESCALATE_MINUTES: z.coerce.number().int().positive().default(30),
  HANDOFF_AUTO_TRANSFER_MINUTES: z.coerce.number().int().positive().default(60),
  HANDOFF_ACK_MINUTES: z.coerce.number().int().positive().default(30),
  HANDOFF_BACKUP_MINUTES: z.coerce.number().int().min(0).default(15),
  SHIFT_CHANGE_DELAY_SECONDS: z.coerce.number().int().positive().default(120),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, 'must be true, false or the number of proxy hops')
    .default('false'),
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  /** requests a minute one personal API token may make, across every instance (decision 223) */
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().positive().default(600),
  /** wrong integration keys a minute one client address may send, HTTP and SMTP (decision 235) */
  ALERT_KEY_GUESS_LIMIT: z.coerce.number().int().positive().default(20),
  SESSION_IDLE_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 14),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  /** megabytes of read answers kept per process (decision 140); 0 turns the cache off */
  READ_CACHE_MB: z.coerce.number().min(0).max(4096).default(16),
  /** PostgreSQL only (decision 168): how long a statement waits for a lock; 0: the server's own */
  DB_LOCK_TIMEOUT_MS: dbTimeout(5_000),
  /** PostgreSQL only: how long one statement may run; 0: the server's own */
  DB_STATEMENT_TIMEOUT_MS: dbTimeout(30_000),
  /** PostgreSQL only: how long a transaction may sit idle before the server ends its session */
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: dbTimeout(30_000),
  /** where the sidebar's and help pages' Users Forum link points (decision 184) */
  USERS_FORUM_URL: linkUrl(DEFAULT_USERS_FORUM_URL),
  /** where the Report a Bug link points */
  BUG_REPORT_URL: linkUrl(DEFAULT_BUG_REPORT_URL),
  /** production only: `1` lets the diagnostics show the hostname, data path and database version */
  DEBUG_DETAILS: boolFlag,
  /** tests only (NODE_ENV=test): a file holding the ISO time the process clock reads (decision 090) */
  BATON_TEST_CLOCK_FILE: optionalString,
  /** issue 17: listen for alert email on this port (off when unset) */
  INBOUND_SMTP_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** the interface the alert email listener binds to */
  INBOUND_SMTP_HOST: z.string().default('0.0.0.0'),
  /** an alert's raw payload is dropped this many days after it was last seen, once its incident is resolved (decision 232) */
  ALERT_PAYLOAD_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** issue 19: the Slack app's signing secret; set, the two Slack routes answer (decision 222) */
  SLACK_SIGNING_SECRET: optionalString,
  /** the Slack app's bot token (xoxb-…), for users.info */
  SLACK_BOT_TOKEN: optionalString.pipe(
    z
      .string()
      .regex(/^xoxb-[\w-]+$/, 'must be a bot token starting with xoxb-')
      .optional(),
  ),
  /** Slack's Web API (tests point it at a loopback server) */
  SLACK_API_URL: z.url('must be a URL').default('https://slack.com/api'),
  /** issue 20: GET /metrics answers to this bearer token (decision 225) */
  METRICS_TOKEN: optionalString.pipe(
    z
      .string()
      .min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
      .optional(),
  ),
  /** `1`: GET /metrics answers anyone (a private network, or a proxy that guards it) */
  METRICS_PUBLIC: boolFlag,
  /** on SIGTERM, readiness fails this long before the server stops taking requests */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(0),
  /** a shutdown that has not finished after this long exits at once, with status 1 */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(10),
  /** issue 21: the companion service told who is signed in (decision 228); off when unset */
  TOKEN_SYNC_URL: optionalString,
  /** decision 234: private ranges destinations may reach, comma-separated CIDRs; none when unset */
  DESTINATION_ALLOWED_CIDRS: optionalString,
  /** decision 253: Baton's VAPID key pair (base64url, as web-push generates them); generated once when unset */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  /** decision 253: who push services may contact about Baton's pushes (mailto: or https:) */
  VAPID_SUBJECT: optionalString,
});

/** Every environment variable loadConfig reads (README's settings table lists each). */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape) as readonly string[];

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  /** base64 32-byte key; required in production, otherwise generated into DATA_DIR */
  encryptionKey?: string;
  previousEncryptionKeys: string[];
  companyDomain: string;
  adminEmail?: string;
  /** set: local sign-in is on with this password; unset: POST /api/auth/login answers 404 */
  localLoginPassword?: string;
  /** seed demo data on an empty database: true forces, false never, undefined = demo mode */
  demo?: boolean;
  publicUrl?: string;
  logLevel: string;
  oidc: {
    issuer: string;
    clientId?: string;
    clientSecret?: string;
    firebaseProjectId?: string;
    firebaseJwksUrl: string;
  };
  session: { idleMs: number; absoluteMs: number };
  /** how long an alert's raw payload is kept after it was last seen and its incident resolved */
  alertPayloadKeepMs: number;
  /** whether (or how many hops of) X-Forwarded-For to believe for the client address */
  trustProxy: boolean | number;
  /** sign-in attempts per minute per client address */
  signInRateLimit: number;
  apiTokenRateLimit: number;
  /** wrong integration keys a minute per client address before 429 / SMTP 421 (decision 235) */
  alertKeyGuessLimit: number;
  mail: { smtpUrl?: string; from: string };
  sms: {
    accountSid?: string;
    authToken?: string;
    from?: string;
    apiBase: string;
    /** calls ask Twilio to detect answering machines (decision 252) */
    machineDetection?: boolean;
  };
  outboxIntervalMs: number;
  /**
   * whether the administrators' diagnostics show the hostname, where the data lives and the
   * database version: always outside production, in production only with DEBUG_DETAILS=1
   */
  debugDetails: boolean;
  /** how often the engine does what is due (automatic handoffs, notices, schedule changes) */
  engineIntervalMs: number;
  /** the documented handoff flow's timings (specification section 9) */
  handoffTimings: HandoffFlowTimings;
  /** how long after a rotation's first edit the people whose shifts moved are told (decision 219) */
  shiftChangeDelayMs: number;
  /** bytes of read answers kept per process (decision 140); 0: no read cache */
  readCacheBytes: number;
  /**
   * PostgreSQL session time-outs in milliseconds, sent when each connection starts (decision
   * 168); 0 sends none, so the server's, database's or role's own setting applies.
   */
  dbTimeouts: DbTimeouts;
  /** where the Users Forum and Report a Bug links point (GET /api/help/links, decision 184) */
  helpLinks: HelpLinks;
  /** NODE_ENV=test only: the clock reads the current time from this file (decision 090) */
  testClockFile?: string;
  /** alert email intake (issue 17): where Baton listens for SMTP; null: off */
  inboundSmtp: { port: number; host: string } | null;
  /**
   * the Slack app (issue 19, decision 222): buttons and the /baton command answer only with a
   * signing secret; the bot token reads who clicked (users.info) at `apiUrl`
   */
  slack: { signingSecret?: string; botToken?: string; apiUrl: string };
  /**
   * who may read GET /metrics (decision 225): the holder of `token`, or anyone when `public`;
   * neither: the route answers 404
   */
  metrics: { token?: string; public: boolean };
  /** the graceful shutdown's timings (decision 225) */
  shutdown: { delayMs: number; timeoutMs: number };
  /**
   * token sync (issue 21, decision 228): the URL that receives POST with a signed-in person's
   * ID token and DELETE at sign-out; null: off
   */
  tokenSyncUrl: string | null;
  /**
   * the ranges, besides public addresses, that destinations may reach (DESTINATION_ALLOWED_CIDRS,
   * decision 234), as written; loopback also passes outside production
   */
  destinationAllowedCidrs: string[];
  /**
   * push (issue 33, decision 253): the configured VAPID key pair, or none (Baton generates one
   * and keeps it sealed in the database); `subject` names who push services may contact
   */
  vapid: { publicKey?: string; privateKey?: string; subject: string };
}

/** What SLACK_API_URL must be (the start-up message and the tests use it). */
export const SLACK_API_URL_RULE =
  'must be an https URL (plain http only to a loopback address, and never when NODE_ENV=production)';

/** What TOKEN_SYNC_URL must be (the start-up message and the tests use it). */
export const TOKEN_SYNC_URL_RULE =
  'must be an absolute https URL (plain http only to a loopback address, and never when NODE_ENV=production)';

/** isLoopbackHost tells whether a URL's host name is this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Why production refuses LOCAL_LOGIN_PASSWORD (the start-up message and the tests use it). */
export const LOCAL_PASSWORD_IN_PRODUCTION =
  'must not be set when NODE_ENV=production: it is one shared password that signs in as anyone, administrators included; remove it and sign in through an identity provider (OIDC_CLIENT_ID or FIREBASE_PROJECT_ID)';
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** loadConfig validates the environment and returns the configuration, or throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  refuseUnsafeSecrets(e, isProduction);
  refuseUnsafeAddresses(e, isProduction);
  refuseContradictions(e);
  return configOf(e, isProduction);
}

type Env = z.infer<typeof EnvSchema>;

/** refuseUnsafeSecrets: production's keys and domain, the keys' length; no shared password in
 * production, no test clock outside tests. */
function refuseUnsafeSecrets(e: Env, isProduction: boolean): void {
  // The local password signs in as anyone, administrators included, and claims any pending
  // invitation without its link: it is for demos, development and tests only (issue 14).
  if (isProduction && e.LOCAL_LOGIN_PASSWORD) {
    throw new ConfigError(
      `Invalid configuration:\n  LOCAL_LOGIN_PASSWORD: ${LOCAL_PASSWORD_IN_PRODUCTION}`,
    );
  }
  if (isProduction && !e.ENCRYPTION_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  ENCRYPTION_KEY: is required when NODE_ENV=production (32 random bytes in base64, e.g. `openssl rand -base64 32`)',
    );
  }
  if (isProduction && !e.COMPANY_DOMAIN) {
    throw new ConfigError(
      'Invalid configuration:\n  COMPANY_DOMAIN: is required when NODE_ENV=production',
    );
  }
  for (const [name, value] of [
    ['ENCRYPTION_KEY', e.ENCRYPTION_KEY],
    ...(e.ENCRYPTION_KEYS_PREVIOUS ?? '')
      .split(',')
      .filter(Boolean)
      .map((k) => ['ENCRYPTION_KEYS_PREVIOUS', k] as const),
  ] as const) {
    if (value && Buffer.from(value.trim(), 'base64').length !== 32) {
      throw new ConfigError(
        `Invalid configuration:\n  ${name}: must be 32 bytes encoded in base64`,
      );
    }
  }
  if (e.BATON_TEST_CLOCK_FILE && e.NODE_ENV !== 'test') {
    throw new ConfigError(
      'Invalid configuration:\n  BATON_TEST_CLOCK_FILE: is for tests only and needs NODE_ENV=test; remove it',
    );
  }
}

/** refuseUnsafeAddresses: where Baton calls out (Slack, destinations, the token sync) is safe. */
function refuseUnsafeAddresses(e: Env, isProduction: boolean): void {
  const slackApi = new URL(e.SLACK_API_URL);
  if (
    slackApi.protocol !== 'https:' &&
    (isProduction || slackApi.protocol !== 'http:' || !isLoopbackHost(slackApi.hostname))
  ) {
    throw new ConfigError(`Invalid configuration:\n  SLACK_API_URL: ${SLACK_API_URL_RULE}`);
  }
  try {
    parseAllowedRanges(e.DESTINATION_ALLOWED_CIDRS);
  } catch (err) {
    throw new ConfigError(
      `Invalid configuration:\n  DESTINATION_ALLOWED_CIDRS: ${(err as Error).message}`,
    );
  }
  if (e.TOKEN_SYNC_URL && !isAllowedTokenSyncUrl(e.TOKEN_SYNC_URL, isProduction)) {
    throw new ConfigError(`Invalid configuration:\n  TOKEN_SYNC_URL: ${TOKEN_SYNC_URL_RULE}`);
  }
}

/**
 * vapidSubjectOf: the VAPID subject without VAPID_SUBJECT: Baton's public https address, else a
 * mailto: that names no real mailbox (push services accept any mailto: or https: subject).
 */
function vapidSubjectOf(publicUrl: string | undefined): string {
  return publicUrl?.startsWith('https://') ? new URL(publicUrl).origin : 'mailto:baton@localhost';
}

/** refuseContradictions: settings that cannot hold together. */
function refuseContradictions(e: Env): void {
  if (e.SLACK_SIGNING_SECRET && !e.SLACK_BOT_TOKEN) {
    throw new ConfigError(
      'Invalid configuration:\n  SLACK_BOT_TOKEN: is required with SLACK_SIGNING_SECRET (Baton reads who clicked with users.info)',
    );
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together (`npx web-push generate-vapid-keys`), or neither',
    );
  }
  if (e.VAPID_SUBJECT && !/^(mailto:|https:)/.test(e.VAPID_SUBJECT)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_SUBJECT: must be a mailto: or https: URL (who push services may contact)',
    );
  }
  if (e.METRICS_TOKEN && e.METRICS_PUBLIC) {
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_PUBLIC: cannot be 1 with METRICS_TOKEN set; choose one',
    );
  }
  if (e.SHUTDOWN_TIMEOUT_SECONDS <= e.SHUTDOWN_DELAY_SECONDS) {
    throw new ConfigError(
      'Invalid configuration:\n  SHUTDOWN_TIMEOUT_SECONDS: must be greater than SHUTDOWN_DELAY_SECONDS',
    );
  }
  if (e.HANDOFF_AUTO_TRANSFER_MINUTES <= e.HANDOFF_ESCALATE_MINUTES) {
    throw new ConfigError(
      'Invalid configuration:\n  HANDOFF_AUTO_TRANSFER_MINUTES: must be greater than HANDOFF_ESCALATE_MINUTES',
    );
  }
}

/** configOf reads the validated environment into the configuration. */
function configOf(e: Env, isProduction: boolean): Config {
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    encryptionKey: e.ENCRYPTION_KEY,
    previousEncryptionKeys: (e.ENCRYPTION_KEYS_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    companyDomain: (e.COMPANY_DOMAIN ?? 'example.com').toLowerCase(),
    adminEmail: e.ADMIN_EMAIL,
    localLoginPassword: e.LOCAL_LOGIN_PASSWORD,
    demo: e.DEMO,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    oidc: {
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
      firebaseProjectId: e.FIREBASE_PROJECT_ID,
      firebaseJwksUrl: e.FIREBASE_JWKS_URL,
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `Baton <baton@${(e.COMPANY_DOMAIN ?? 'example.com').toLowerCase()}>`,
    },
    sms: {
      accountSid: e.TWILIO_ACCOUNT_SID,
      authToken: e.TWILIO_AUTH_TOKEN,
      from: e.TWILIO_FROM,
      apiBase: e.TWILIO_API_BASE.replace(/\/$/, ''),
      machineDetection: e.TWILIO_MACHINE_DETECTION === true,
    },
    outboxIntervalMs: e.OUTBOX_INTERVAL_SECONDS * 1000,
    inboundSmtp:
      e.INBOUND_SMTP_PORT === undefined
        ? null
        : { port: e.INBOUND_SMTP_PORT, host: e.INBOUND_SMTP_HOST },
    slack: {
      signingSecret: e.SLACK_SIGNING_SECRET,
      botToken: e.SLACK_BOT_TOKEN,
      apiUrl: e.SLACK_API_URL.replace(/\/$/, ''),
    },
    metrics: { token: e.METRICS_TOKEN, public: e.METRICS_PUBLIC === true },
    shutdown: {
      delayMs: e.SHUTDOWN_DELAY_SECONDS * 1000,
      timeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    },
    tokenSyncUrl: e.TOKEN_SYNC_URL ?? null,
    destinationAllowedCidrs: (e.DESTINATION_ALLOWED_CIDRS ?? '')
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
    vapid: {
      publicKey: e.VAPID_PUBLIC_KEY,
      privateKey: e.VAPID_PRIVATE_KEY,
      subject: e.VAPID_SUBJECT ?? vapidSubjectOf(e.PUBLIC_URL),
    },
    debugDetails: !isProduction || e.DEBUG_DETAILS === true,
    engineIntervalMs: e.ENGINE_INTERVAL_SECONDS * 1000,
    handoffTimings: {
      noticeBeforeMs: e.HANDOFF_NOTICE_MINUTES * MINUTE,
      escalateAfterMs: e.HANDOFF_ESCALATE_MINUTES * MINUTE,
      autoTransferAfterMs: e.HANDOFF_AUTO_TRANSFER_MINUTES * MINUTE,
      acknowledgeWithinMs: e.HANDOFF_ACK_MINUTES * MINUTE,
      backupMs: e.HANDOFF_BACKUP_MINUTES * MINUTE,
    },
    shiftChangeDelayMs: e.SHIFT_CHANGE_DELAY_SECONDS * 1000,
    trustProxy:
      e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : Number(e.TRUST_PROXY),
    signInRateLimit: e.SIGN_IN_RATE_LIMIT,
    apiTokenRateLimit: e.API_TOKEN_RATE_LIMIT,
    alertKeyGuessLimit: e.ALERT_KEY_GUESS_LIMIT,
    alertPayloadKeepMs: e.ALERT_PAYLOAD_DAYS * 86400_000,
    session: {
      idleMs: e.SESSION_IDLE_HOURS * 3600_000,
      absoluteMs: e.SESSION_ABSOLUTE_DAYS * 86400_000,
    },
    readCacheBytes: Math.round(e.READ_CACHE_MB * 1024 * 1024),
    dbTimeouts: {
      lockMs: e.DB_LOCK_TIMEOUT_MS,
      statementMs: e.DB_STATEMENT_TIMEOUT_MS,
      idleInTransactionMs: e.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    helpLinks: { usersForumUrl: e.USERS_FORUM_URL, bugReportUrl: e.BUG_REPORT_URL },
    testClockFile: e.BATON_TEST_CLOCK_FILE ? path.resolve(e.BATON_TEST_CLOCK_FILE) : undefined,
  };
}

/**
 * isAllowedTokenSyncUrl: the ID tokens it receives sign a person in, so only over TLS; plain http
 * only to this machine, and only outside production (tests and a developer's companion).
 */
function isAllowedTokenSyncUrl(value: string, isProduction: boolean): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return !isProduction && url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** isIdentityProviderConfigured tells whether Google / OpenID Connect sign-in is set up. */
function isIdentityProviderConfigured(config: Config): boolean {
  return Boolean(config.oidc.clientId || config.oidc.firebaseProjectId);
}

/** isDemoMode tells whether Baton runs as a zero-setup demo: not production, no identity provider. */
export function isDemoMode(config: Config): boolean {
  return !config.isProduction && !isIdentityProviderConfigured(config);
}
