import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { bannerLines, startRuntime, unsupportedNodeNote } from './bootstrap';
import { ConfigError, isDemoMode } from './core/config';
import { Lifecycle } from './core/lifecycle';
import { BATON_VERSION } from './core/version';
import { DataDirLockedError } from './db/client';
import { startEngine } from './engine/run-tick';
import { ENGINE_TASKS } from './engine-tasks';
import { loadEnvFile } from './env-file';
import { type AlertEmailServer, startAlertEmailServer } from './modules/alerts/alert-email';
import { createChatChannel, destinationRule } from './modules/destinations/chat-channel';
import { Metrics } from './modules/metrics/metrics';
import { channelSetupWarning, channelsFromConfig } from './modules/notifications/channels';
import { tellFailingOwners } from './modules/notifications/destination-failures';
import { startOutboxWorker } from './modules/notifications/outbox-worker';
import { createPushChannel } from './modules/push/push-channel';
import { pushRule } from './modules/push/push-sender';
import { vapidKeysOf } from './modules/push/vapid-keys';
import { createTokenSyncChannel } from './modules/token-sync/token-sync-channel';
import { voiceChannelFromConfig } from './modules/voice-calls/voice-channel';
import { shutDown } from './shutdown';

type Runtime = Awaited<ReturnType<typeof startRuntime>>;

/**
 * main starts Baton: configuration (the environment, then a `.env` file in the working directory
 * for what the environment does not set), database, HTTP; it shuts down gracefully on SIGINT or
 * SIGTERM, and at once on a second one (decision 225).
 */
async function main() {
  const oldNode = unsupportedNodeNote(process.versions.node);
  if (oldNode) process.stderr.write(`${oldNode}\n`);
  const envFile = loadEnvFile();
  const runtime = await startRuntime();
  // One registry for the process: the engine and the outbox record into what /metrics serves.
  const metrics = new Metrics({ version: BATON_VERSION });
  const lifecycle = new Lifecycle();
  const here = path.dirname(fileURLToPath(import.meta.url));
  // dist/server/main.js serves dist/client; src/server/main.ts (dev) serves dist/client too.
  const clientDir = path.resolve(
    here,
    here.includes(`${path.sep}dist${path.sep}`) ? '../client' : '../../dist/client',
  );
  // The engine starts first, so readiness can report on it from the first request.
  let log: ((err: unknown) => void) | undefined;
  const engine = startEngine(runtime, ENGINE_TASKS, {
    onError: (err) => log?.(err),
    onTick: metrics.recordEngineTick,
    listen: runtime.database.listen,
  });
  const app = await buildApp({
    ...runtime,
    clientDir,
    engineStatus: () => engine.status(),
    metrics,
    lifecycle,
  });
  log = (err) => app.log.error({ err }, 'engine tick failed');
  if (envFile) app.log.info({ file: envFile }, 'settings read from .env as well');
  const { config } = runtime;
  // Outside demo mode a missing channel means notifications that cannot go out (decision 163);
  // in demo mode they are kept in the demo inbox (decision 186), which the banner names.
  const channelWarning = channelSetupWarning(config);
  if (channelWarning && !isDemoMode(config)) app.log.warn(channelWarning);
  const outbox = startOutbox(runtime, app, metrics);

  let alertEmail: AlertEmailServer | undefined;
  stopOnSignals({ app, runtime, lifecycle, engine, outbox, alertEmail: () => alertEmail });

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.publicUrl ?? `http://localhost:${port}`;
  process.stdout.write(`\n${bannerLines(runtime, url).join('\n')}\n\n`);
  // Alert email (issue 17, decision 212) listens only when INBOUND_SMTP_PORT is set.
  if (config.inboundSmtp) {
    alertEmail = await startAlertEmailServer(runtime, {
      ...config.inboundSmtp,
      log: app.log,
      metrics,
      keyGuessLimit: config.alertKeyGuessLimit,
    });
    app.log.info(
      { port: alertEmail.port, host: config.inboundSmtp.host },
      `alert email: listening for SMTP on port ${alertEmail.port}`,
    );
  }
}

/** startOutbox starts the outbox worker with every channel this configuration has (decision 102). */
function startOutbox(runtime: Runtime, app: FastifyInstance, metrics: Metrics) {
  const { config } = runtime;
  return startOutboxWorker({
    db: runtime.database.db,
    cipher: runtime.cipher,
    clock: runtime.clock,
    channels: {
      ...channelsFromConfig(config),
      // Phone calls (decision 252): with Twilio's settings, as SMS.
      voice: voiceChannelFromConfig(config, runtime.cipher),
      // Destinations' chat and webhook messages (decision 221): the owners of one failing for an
      // hour are told at its next failure, or by the engine's destinations task.
      chat: createChatChannel({
        db: runtime.database.db,
        cipher: runtime.cipher,
        clock: runtime.clock,
        // Never inside the network unless DESTINATION_ALLOWED_CIDRS says so (decision 234).
        rule: destinationRule(config),
        onFailure: async (destinationId, now) => {
          await tellFailingOwners(runtime.database.db, runtime, now, destinationId);
        },
      }),
      // A person's pushes (decision 253): never inside the network in production.
      push: createPushChannel({
        db: runtime.database.db,
        cipher: runtime.cipher,
        clock: runtime.clock,
        vapid: vapidKeysOf({ config, db: runtime.database.db, cipher: runtime.cipher }),
        rule: pushRule(config),
      }),
      // Token sync (decision 228): only with TOKEN_SYNC_URL; the server sends, never the browser.
      ...(config.tokenSyncUrl
        ? {
            'token-sync': createTokenSyncChannel({
              db: runtime.database.db,
              cipher: runtime.cipher,
              clock: runtime.clock,
              url: config.tokenSyncUrl,
            }),
          }
        : {}),
    },
    intervalMs: config.outboxIntervalMs,
    // Rung at each commit that adds notifications (decision 274): sent at once, not at the poll.
    listen: runtime.database.listen,
    onError: (err) => app.log.error({ err }, 'outbox delivery failed'),
    onOutcome: metrics.recordDelivery,
  });
}

/**
 * stopOnSignals shuts Baton down gracefully on SIGINT or SIGTERM, and at once on a second one
 * (decision 225).
 */
function stopOnSignals(running: {
  app: FastifyInstance;
  runtime: Runtime;
  lifecycle: Lifecycle;
  engine: ReturnType<typeof startEngine>;
  outbox: ReturnType<typeof startOutboxWorker>;
  /** the alert email listener, once it listens */
  alertEmail: () => AlertEmailServer | undefined;
}) {
  const { app, runtime, lifecycle, engine, outbox } = running;
  const { config } = runtime;
  let closing = false;
  const shutdown = (signal: 'SIGINT' | 'SIGTERM') => {
    if (closing) {
      // A second signal: whoever sent it will not wait (decision 225).
      app.log.warn({ signal }, 'second signal: exiting at once');
      process.exit(128 + constants.signals[signal]);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error({ signal }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, config.shutdown.timeoutMs);
    force.unref();
    shutDown({
      lifecycle,
      delayMs: config.shutdown.delayMs,
      stopAlertEmail: async () => {
        await running.alertEmail()?.close();
      },
      closeHttp: () => app.close(),
      stopEngine: () => engine.stop(),
      stopOutbox: () => outbox.stop(),
      closeDatabase: () => runtime.database.close(),
    }).then(
      () => {
        app.log.info('shut down cleanly');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(
      `Baton failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  process.exit(1);
});
