import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import chromiumPaths from './scripts/chromium-paths.json' with { type: 'json' };
import { E2E_SLACK, e2eSlackPort } from './tests/e2e/slack-support';
import { E2E_HELP_LINKS, E2E_PASSWORD } from './tests/e2e/support';
import { writeSelfSignedCertificate } from './tests/setup/push-service';

// The server under test: the built app on a random port with a fresh data directory. Values live
// in the environment so Playwright's worker processes see the same ones as the main process.
// 20,000 to 31,999: below Linux's ephemeral ports (32,768 to 60,999), which outgoing connections
// take, so no client socket of another process holds it when the server starts.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 12_000));
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'baton-e2e-'));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
// The loopback push service's certificate (decision 253), made once per run: the server trusts it
// (NODE_EXTRA_CA_CERTS) and push.spec.ts serves with it.
if (!process.env.E2E_PUSH_TLS_DIR) {
  process.env.E2E_PUSH_TLS_DIR = mkdtempSync(path.join(os.tmpdir(), 'baton-e2e-push-'));
  writeSelfSignedCertificate(process.env.E2E_PUSH_TLS_DIR);
}

/**
 * The browser: Debian's chromium-headless-shell, the old headless Chromium that Playwright itself
 * runs for headless tests, where it is installed; Debian's chromium otherwise. The same engine
 * at some 40% less processor time (decision 230); CHROMIUM_PATH picks another binary. The list,
 * in order, is scripts/chromium-paths.json, which scripts/ensure-chromium.mjs reads too.
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? chromiumPaths.find((p) => existsSync(p));

export default defineConfig({
  testDir: 'tests/e2e',
  // scripts/e2e.mjs gives each shard its own (Playwright empties this folder when it starts).
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Ceilings, not speeds: a test waits for what the app shows, never for a time. In CI the shards
  // share the cores with their servers, and a test that takes 15 s alone has taken over 30 s
  // there, a first screen over 7 s (decision 240).
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: process.env.CI ? 15_000 : 7_000 },
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT ?? '.ci-results/e2e.json' }]]
    : 'list',
  use: {
    baseURL,
    // The app registers a service worker (decision 253); the specs that route requests must see
    // every request, so it is blocked except where a spec allows it (push.spec.ts).
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node dist/server/main.js',
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      NODE_EXTRA_CA_CERTS: path.join(process.env.E2E_PUSH_TLS_DIR, 'cert.pem'),
      HOST: '127.0.0.1',
      PORT: process.env.E2E_PORT,
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOCAL_LOGIN_PASSWORD: E2E_PASSWORD,
      DEMO: '1',
      LOG_LEVEL: 'warn',
      // Every spec signs in from 127.0.0.1, so none is ever refused (no test waits out a 429);
      // the sign-in limit is tested in the API suite.
      SIGN_IN_RATE_LIMIT: '1000',
      TRUST_PROXY: 'true',
      // "Your shift moved" is told 2 s after an edit, not 2 minutes (decision 219).
      SHIFT_CHANGE_DELAY_SECONDS: '2',
      // The engine's tick every 2 s and the outbox every second, not 15 s and 5 s: a test that
      // waits for what the engine does (an incident's first step, a shift notice) or for a sent
      // email waits for the app, not for a timer of a production server (decision 240).
      ENGINE_INTERVAL_SECONDS: '2',
      OUTBOX_INTERVAL_SECONDS: '1',
      // Not the defaults: the links must come from the configuration (decision 184).
      USERS_FORUM_URL: E2E_HELP_LINKS.usersForumUrl,
      BUG_REPORT_URL: E2E_HELP_LINKS.bugReportUrl,
      // The Slack app (decision 222), talking to the loopback Slack slack.spec.ts starts.
      SLACK_SIGNING_SECRET: E2E_SLACK.signingSecret,
      SLACK_BOT_TOKEN: E2E_SLACK.botToken,
      SLACK_API_URL: `http://127.0.0.1:${e2eSlackPort()}/api`,
    },
  },
});
