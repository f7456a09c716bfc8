import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { buildApp } from '../../app';
import type { Config } from '../../core/config';
import { SHUTDOWN_RETRY_AFTER_SECONDS, SHUTTING_DOWN } from '../../core/lifecycle';
import { channelSetupWarning } from '../notifications/channels';
import { SHUTDOWN_NOT_READY } from './health-routes';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const smtp = { smtpUrl: 'smtp://mail.example.com:587', from: 'Baton <baton@example.com>' };
const twilio = {
  accountSid: 'AC123',
  authToken: 'secret',
  from: '+15550000000',
  apiBase: 'https://api.twilio.com',
};
const none = {
  mail: { from: 'Baton <baton@example.com>' },
  sms: { apiBase: 'https://api.twilio.com' },
} satisfies Pick<Config, 'mail' | 'sms'>;

async function readyz(config: Partial<Config>) {
  const app = await buildApp({ ...t, logger: false, config: { ...t.config, ...config } });
  try {
    return await app.inject({ url: '/readyz' });
  } finally {
    await app.close();
  }
}

describe('readiness and notification channels (decision 163)', () => {
  test('in production with no channel configured, /readyz answers 503 with the reason', async () => {
    const res = await readyz({ nodeEnv: 'production', ...none });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      message:
        'No notification channel is configured: pages and handoff notices cannot be delivered. Set SMTP_URL, or TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.',
      code: 'SERVICE_UNAVAILABLE',
      missing: [
        'Email is not configured on this server (SMTP_URL).',
        'SMS is not configured on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM).',
      ],
    });
  });

  test.each([
    ['production with email only', { nodeEnv: 'production', ...none, mail: smtp }],
    ['production with SMS only', { nodeEnv: 'production', ...none, sms: twilio }],
    ['development with none (a demo)', { nodeEnv: 'development', ...none }],
    ['tests with none', { nodeEnv: 'test', ...none }],
  ] as const)('%s: ready', async (_name, config) => {
    const res = await readyz(config as Partial<Config>);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ready');
  });

  test('Twilio without its token is no channel', async () => {
    const res = await readyz({
      nodeEnv: 'production',
      ...none,
      sms: { ...twilio, authToken: undefined },
    });
    expect(res.statusCode).toBe(503);
  });

  test('start-up warns in every mode, naming what is missing', () => {
    expect(channelSetupWarning({ mail: smtp, sms: twilio })).toBeNull();
    expect(channelSetupWarning(none)).toBe(
      'No notification channel is configured: pages and handoff notices cannot be delivered. Set SMTP_URL, or TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM. Email is not configured on this server (SMTP_URL). SMS is not configured on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM).',
    );
    expect(channelSetupWarning({ ...none, mail: smtp })).toBe(
      'SMS is not configured on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM). People who chose SMS get email instead.',
    );
    expect(channelSetupWarning({ ...none, sms: twilio })).toMatch(
      /^Email is not configured on this server \(SMTP_URL\)\. Notifications go by SMS only/,
    );
  });
});

describe('a graceful shutdown (decision 225)', () => {
  test('draining: /readyz answers 503 while other requests are served; refusing: all 503', async () => {
    const app = await buildApp({ ...t, logger: false });
    try {
      app.lifecycle.draining = true;
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ message: SHUTDOWN_NOT_READY, code: 'SERVICE_UNAVAILABLE' });
      expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
      app.lifecycle.refusing = true;
      for (const url of ['/api/health', '/api/rotations', '/healthz']) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(503);
        expect(res.headers.connection).toBe('close');
        expect(res.headers['retry-after']).toBe(String(SHUTDOWN_RETRY_AFTER_SECONDS));
        expect(res.json()).toEqual({ message: SHUTTING_DOWN, code: 'SERVICE_UNAVAILABLE' });
      }
    } finally {
      await app.close();
    }
  });

  test('a request in flight when the refusing begins is answered, and its connection closed', async () => {
    const app = await buildApp({ ...t, logger: false });
    const viewer = await t.createUser({ roles: ['on-call'] });
    const cookie = await t.cookieFor(viewer);
    try {
      let answer: Promise<LightMyRequestResponse> | undefined;
      // The request passes the refusal's check, then waits for its session read: on PGlite the
      // test's transaction holds the database (decision 291's turns), on PostgreSQL its lock on
      // the sessions table.
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table sessions in access exclusive mode`);
        answer = app.inject({ url: '/api/rotations', headers: { cookie } });
        await new Promise((resolve) => setTimeout(resolve, 50));
        app.lifecycle.refusing = true;
      });
      const res = await (answer as Promise<LightMyRequestResponse>);
      expect(res.statusCode).toBe(200);
      expect(res.headers.connection).toBe('close');
    } finally {
      await app.close();
    }
  });
});
