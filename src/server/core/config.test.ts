import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  CONFIG_VARIABLES,
  ConfigError,
  isDemoMode,
  LOCAL_PASSWORD_IN_PRODUCTION,
  loadConfig,
} from './config';

const key = Buffer.alloc(32, 1).toString('base64');

describe('loadConfig', () => {
  test('has working defaults outside production', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      companyDomain: 'example.com',
      nodeEnv: 'development',
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(isDemoMode(config)).toBe(true);
  });

  test.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ENCRYPTION_KEY: 'c2hvcnQ=' }, 'ENCRYPTION_KEY'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL'],
    [{ COMPANY_DOMAIN: 'no spaces.com' }, 'COMPANY_DOMAIN'],
    [{ LOCAL_LOGIN_PASSWORD: 'short' }, 'LOCAL_LOGIN_PASSWORD'],
    [{ DEMO: 'maybe' }, 'DEMO'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ NODE_ENV: 'production', COMPANY_DOMAIN: 'acme.com' }, 'ENCRYPTION_KEY'],
    [{ NODE_ENV: 'production', ENCRYPTION_KEY: key }, 'COMPANY_DOMAIN'],
    [{ BATON_TEST_CLOCK_FILE: '/tmp/clock' }, 'BATON_TEST_CLOCK_FILE'],
    [{ READ_CACHE_MB: '-1' }, 'READ_CACHE_MB'],
    [{ READ_CACHE_MB: 'lots' }, 'READ_CACHE_MB'],
    [{ DB_LOCK_TIMEOUT_MS: '-1' }, 'DB_LOCK_TIMEOUT_MS'],
    [{ DB_LOCK_TIMEOUT_MS: '2.5' }, 'DB_LOCK_TIMEOUT_MS'],
    [{ DB_STATEMENT_TIMEOUT_MS: '30s' }, 'DB_STATEMENT_TIMEOUT_MS'],
    [{ DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2147483648' }, 'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS'],
    [{ USERS_FORUM_URL: 'javascript:alert(1)' }, 'USERS_FORUM_URL'],
    [{ USERS_FORUM_URL: 'forum.example.com' }, 'USERS_FORUM_URL'],
    [{ BUG_REPORT_URL: 'ftp://bugs.example.com' }, 'BUG_REPORT_URL'],
    [
      {
        NODE_ENV: 'production',
        ENCRYPTION_KEY: key,
        COMPANY_DOMAIN: 'acme.com',
        BATON_TEST_CLOCK_FILE: '/tmp/clock',
      },
      'BATON_TEST_CLOCK_FILE',
    ],
  ])('a bad value stops start-up naming the variable: %o', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${variable}:`));
  });

  test('production refuses the shared local password, naming the variable and why', () => {
    const production = { NODE_ENV: 'production', ENCRYPTION_KEY: key, COMPANY_DOMAIN: 'acme.com' };
    expect(() =>
      loadConfig({ ...production, LOCAL_LOGIN_PASSWORD: 'a-long-demo-password' }),
    ).toThrow(`LOCAL_LOGIN_PASSWORD: ${LOCAL_PASSWORD_IN_PRODUCTION}`);
    expect(LOCAL_PASSWORD_IN_PRODUCTION).toMatch(/signs in as anyone/);
    // An empty value is no password; outside production the password stays for demos and tests.
    expect(
      loadConfig({ ...production, LOCAL_LOGIN_PASSWORD: '' }).localLoginPassword,
    ).toBeUndefined();
    for (const NODE_ENV of ['development', 'test']) {
      expect(
        loadConfig({ NODE_ENV, LOCAL_LOGIN_PASSWORD: 'a-long-demo-password' }).localLoginPassword,
      ).toBe('a-long-demo-password');
    }
  });

  test('USERS_FORUM_URL and BUG_REPORT_URL: the project’s forum and backlog by default, an http(s) URL when set', () => {
    expect(loadConfig({}).helpLinks).toEqual({
      usersForumUrl: 'https://github.com/baton-oncall/baton/discussions',
      bugReportUrl: 'https://github.com/baton-oncall/baton/issues',
    });
    expect(
      loadConfig({
        USERS_FORUM_URL: ' https://forum.acme.example/c/baton ',
        BUG_REPORT_URL: 'http://jira.acme.internal/projects/ONCALL',
      }).helpLinks,
    ).toEqual({
      usersForumUrl: 'https://forum.acme.example/c/baton',
      bugReportUrl: 'http://jira.acme.internal/projects/ONCALL',
    });
    expect(loadConfig({ USERS_FORUM_URL: '' }).helpLinks.usersForumUrl).toBe(
      'https://github.com/baton-oncall/baton/discussions',
    );
  });

  test('READ_CACHE_MB sets the read cache in bytes: 16 MB by default, 0 turns it off', () => {
    expect(loadConfig({}).readCacheBytes).toBe(16 * 1024 * 1024);
    expect(loadConfig({ READ_CACHE_MB: '0.5' }).readCacheBytes).toBe(512 * 1024);
    expect(loadConfig({ READ_CACHE_MB: '0' }).readCacheBytes).toBe(0);
  });

  test('the PostgreSQL time-outs default to 5 s for locks and 30 s for statements and idle transactions', () => {
    expect(loadConfig({}).dbTimeouts).toEqual({
      lockMs: 5_000,
      statementMs: 30_000,
      idleInTransactionMs: 30_000,
    });
    expect(
      loadConfig({
        DB_LOCK_TIMEOUT_MS: '250',
        DB_STATEMENT_TIMEOUT_MS: '0',
        DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '1500',
      }).dbTimeouts,
    ).toEqual({ lockMs: 250, statementMs: 0, idleInTransactionMs: 1_500 });
  });

  test('production with a key and a domain, and no identity provider, is not demo mode', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEY: key,
      COMPANY_DOMAIN: 'Acme.com',
    });
    expect(config.companyDomain).toBe('acme.com');
    expect(isDemoMode(config)).toBe(false);
  });

  test('DEBUG_DETAILS: the diagnostics show host, data path and version outside production, in production only when set', () => {
    const production = { NODE_ENV: 'production', ENCRYPTION_KEY: key, COMPANY_DOMAIN: 'acme.com' };
    expect(loadConfig({}).debugDetails).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).debugDetails).toBe(true);
    expect(loadConfig(production).debugDetails).toBe(false);
    expect(loadConfig({ ...production, DEBUG_DETAILS: '0' }).debugDetails).toBe(false);
    expect(loadConfig({ ...production, DEBUG_DETAILS: '1' }).debugDetails).toBe(true);
    expect(loadConfig({ ...production, DEBUG_DETAILS: 'true' }).debugDetails).toBe(true);
    expect(() => loadConfig({ DEBUG_DETAILS: 'yes' })).toThrow(/DEBUG_DETAILS:/);
  });

  test('an identity provider turns demo mode off', () => {
    expect(isDemoMode(loadConfig({ OIDC_CLIENT_ID: 'baton' }))).toBe(false);
  });

  test('the Slack app: off by default; its API https, or http to a loopback address outside production', () => {
    expect(loadConfig({}).slack).toEqual({ apiUrl: 'https://slack.com/api' });
    expect(
      loadConfig({
        SLACK_SIGNING_SECRET: 'secret',
        SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
        SLACK_API_URL: 'http://127.0.0.1:4010/api/',
      }).slack,
    ).toEqual({
      signingSecret: 'secret',
      botToken: 'xoxb-1-2-abc',
      apiUrl: 'http://127.0.0.1:4010/api',
    });
    const production = { NODE_ENV: 'production', ENCRYPTION_KEY: key, COMPANY_DOMAIN: 'acme.com' };
    for (const env of [
      { SLACK_API_URL: 'http://slack.example.com/api' },
      { ...production, SLACK_API_URL: 'http://127.0.0.1:4010/api' },
      { SLACK_API_URL: 'ftp://127.0.0.1/api' },
      { SLACK_SIGNING_SECRET: 'secret' },
      { SLACK_BOT_TOKEN: 'xoxp-user-token' },
    ]) {
      expect(() => loadConfig(env)).toThrow(/SLACK_(API_URL|BOT_TOKEN)/);
    }
  });

  test('metrics: /metrics is off by default; a token of 16 characters or more, or public, turns it on', () => {
    expect(loadConfig({}).metrics).toEqual({ public: false });
    expect(loadConfig({ METRICS_TOKEN: ' 0123456789abcdef0123 ' }).metrics).toEqual({
      token: '0123456789abcdef0123',
      public: false,
    });
    expect(loadConfig({ METRICS_PUBLIC: '1' }).metrics).toEqual({ public: true });
    expect(loadConfig({ METRICS_PUBLIC: '0', METRICS_TOKEN: '' }).metrics).toEqual({
      public: false,
    });
    for (const [env, message] of [
      [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN: must be at least 16 characters/],
      [{ METRICS_TOKEN: 'has spaces in the middle' }, /METRICS_TOKEN: must be printable ASCII/],
      [{ METRICS_PUBLIC: 'yes' }, /METRICS_PUBLIC:/],
      [
        { METRICS_PUBLIC: '1', METRICS_TOKEN: '0123456789abcdef' },
        /METRICS_PUBLIC: cannot be 1 with METRICS_TOKEN set/,
      ],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(message);
    }
  });

  test('shutdown: no delay and a 10 s limit by default; the limit must outlast the delay', () => {
    expect(loadConfig({}).shutdown).toEqual({ delayMs: 0, timeoutMs: 10_000 });
    expect(
      loadConfig({ SHUTDOWN_DELAY_SECONDS: '5', SHUTDOWN_TIMEOUT_SECONDS: '30' }).shutdown,
    ).toEqual({ delayMs: 5_000, timeoutMs: 30_000 });
    expect(() => loadConfig({ SHUTDOWN_DELAY_SECONDS: '-1' })).toThrow(/SHUTDOWN_DELAY_SECONDS:/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(
      /SHUTDOWN_TIMEOUT_SECONDS:/,
    );
    expect(() => loadConfig({ SHUTDOWN_DELAY_SECONDS: '10' })).toThrow(
      /SHUTDOWN_TIMEOUT_SECONDS: must be greater than SHUTDOWN_DELAY_SECONDS/,
    );
  });

  test('alert payloads: kept 90 days by default; whole days from 1 to 3650', () => {
    expect(loadConfig({}).alertPayloadKeepMs).toBe(90 * 86_400_000);
    expect(loadConfig({ ALERT_PAYLOAD_DAYS: '7' }).alertPayloadKeepMs).toBe(7 * 86_400_000);
    for (const days of ['0', '1.5', '3651', 'soon']) {
      expect(() => loadConfig({ ALERT_PAYLOAD_DAYS: days })).toThrow(/ALERT_PAYLOAD_DAYS:/);
    }
  });

  test("every setting is in the README's configuration table (the test clock is for tests only)", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const table = readme.split('\n').filter((line) => line.startsWith('| `'));
    const listed = new Set(
      table.flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z_]+)`/g)].map((m) => m[1])),
    );
    const missing = CONFIG_VARIABLES.filter((name) => !listed.has(name));
    expect(missing).toEqual(['BATON_TEST_CLOCK_FILE']);
    expect(CONFIG_VARIABLES).toContain('METRICS_TOKEN');
  });
  test('destination allowed ranges: none by default; comma-separated CIDRs checked at start', () => {
    expect(loadConfig({}).destinationAllowedCidrs).toEqual([]);
    expect(
      loadConfig({ DESTINATION_ALLOWED_CIDRS: ' 10.20.0.0/16, fd12:3456::/48 ' })
        .destinationAllowedCidrs,
    ).toEqual(['10.20.0.0/16', 'fd12:3456::/48']);
    for (const value of ['10.20.0.0', '10.0.0.0/33', 'corp.internal/16', '0.0.0.0/0']) {
      expect(() => loadConfig({ DESTINATION_ALLOWED_CIDRS: value })).toThrow(
        /DESTINATION_ALLOWED_CIDRS: ".*" must be comma-separated CIDR ranges/,
      );
    }
  });

  test('push (decision 253): the VAPID pair set together or not at all; a mailto: or https: subject', () => {
    expect(loadConfig({}).vapid).toEqual({ subject: 'mailto:baton@localhost' });
    expect(loadConfig({ PUBLIC_URL: 'https://baton.acme.com/' }).vapid.subject).toBe(
      'https://baton.acme.com',
    );
    expect(
      loadConfig({
        VAPID_PUBLIC_KEY: 'public',
        VAPID_PRIVATE_KEY: 'private',
        VAPID_SUBJECT: 'mailto:oncall@acme.com',
      }).vapid,
    ).toEqual({ publicKey: 'public', privateKey: 'private', subject: 'mailto:oncall@acme.com' });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: 'public' })).toThrow(/VAPID_PRIVATE_KEY: /);
    expect(() => loadConfig({ VAPID_SUBJECT: 'oncall@acme.com' })).toThrow(/VAPID_SUBJECT: /);
  });

  test('token sync: off by default; an absolute https URL, or http to a loopback address outside production', () => {
    expect(loadConfig({}).tokenSyncUrl).toBeNull();
    const production = { NODE_ENV: 'production', ENCRYPTION_KEY: key, COMPANY_DOMAIN: 'acme.com' };
    expect(
      loadConfig({ ...production, TOKEN_SYNC_URL: 'https://portal.acme.com/baton/session' })
        .tokenSyncUrl,
    ).toBe('https://portal.acme.com/baton/session');
    expect(loadConfig({ TOKEN_SYNC_URL: 'http://127.0.0.1:4020/sync' }).tokenSyncUrl).toBe(
      'http://127.0.0.1:4020/sync',
    );
    expect(loadConfig({ TOKEN_SYNC_URL: 'http://localhost:4020/sync' }).tokenSyncUrl).toBe(
      'http://localhost:4020/sync',
    );
    for (const env of [
      { TOKEN_SYNC_URL: 'http://portal.acme.com/sync' },
      { ...production, TOKEN_SYNC_URL: 'http://127.0.0.1:4020/sync' },
      { TOKEN_SYNC_URL: '/relative/sync' },
      { TOKEN_SYNC_URL: 'ftp://127.0.0.1/sync' },
      { TOKEN_SYNC_URL: 'https://user:secret@portal.acme.com/sync' },
    ]) {
      expect(() => loadConfig(env)).toThrow(/TOKEN_SYNC_URL: must be an absolute https URL/);
    }
  });
});
