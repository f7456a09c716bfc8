import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { bannerLines, startRuntime, unsupportedNodeNote } from './bootstrap';
import { ConfigError, isDemoMode } from './config';
import { DataDirLockedError } from './db/client';
import { startEngine } from './engine/run-tick';
import { type AlertEmailServer, startAlertEmailServer } from './modules/alerts/alert-email';
import { createChatChannel } from './modules/destinations/chat-channel';
import { tellFailingOwners } from './modules/destinations/destination-failures';
import { channelSetupWarning, channelsFromConfig } from './modules/notifications/channels';
import { startOutboxWorker } from './modules/notifications/outbox';
import { createTokenSyncChannel } from './modules/token-sync/token-sync-channel';

/** main starts Baton: configuration, database, HTTP; it shuts down gracefully on SIGINT/SIGTERM. */
async function main() {
  const oldNode = unsupportedNodeNote(process.versions.node);
  if (oldNode) process.stderr.write(`${oldNode}\n`);
  const runtime = await startRuntime();
  const here = path.dirname(fileURLToPath(import.meta.url));
  // dist/server/main.js serves dist/client; src/server/main.ts (dev) serves dist/client too.
  const clientDir = path.resolve(
    here,
    here.includes(`${path.sep}dist${path.sep}`) ? '../client' : '../../dist/client',
  );
  // The engine starts first, so readiness can report on it from the first request.
  let log: ((err: unknown) => void) | undefined;
  const engine = startEngine(runtime, { onError: (err) => log?.(err) });
  const app = await buildApp({ ...runtime, clientDir, engineStatus: () => engine.status() });
  log = (err) => app.log.error({ err }, 'engine tick failed');
  const { config } = runtime;
  // Outside demo mode a missing channel means notifications that cannot go out (decision 163);
  // in demo mode they are kept in the demo inbox (decision 186), which the banner names.
  const channelWarning = channelSetupWarning(config);
  if (channelWarning && !isDemoMode(config)) app.log.warn(channelWarning);
  const outbox = startOutboxWorker({
    db: runtime.database.db,
    cipher: runtime.cipher,
    clock: runtime.clock,
    channels: {
      ...channelsFromConfig(config),
      // Destinations' chat and webhook messages (decision 221): the owners of one failing for an
      // hour are told at its next failure, or by the engine's destinations task.
      chat: createChatChannel({
        db: runtime.database.db,
        cipher: runtime.cipher,
        clock: runtime.clock,
        onFailure: async (destinationId, now) => {
          await tellFailingOwners(runtime.database.db, runtime, now, destinationId);
        },
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
    onError: (err) => app.log.error({ err }, 'outbox delivery failed'),
  });

  let alertEmail: AlertEmailServer | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await alertEmail?.close();
      await app.close();
      await engine.stop();
      await outbox.stop();
      await runtime.database.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.publicUrl ?? `http://localhost:${port}`;
  process.stdout.write(`\n${bannerLines(runtime, url).join('\n')}\n\n`);
  // Alert email (issue 17, decision 212) listens only when INBOUND_SMTP_PORT is set.
  if (config.inboundSmtp) {
    alertEmail = await startAlertEmailServer(runtime, { ...config.inboundSmtp, log: app.log });
    app.log.info(
      { port: alertEmail.port, host: config.inboundSmtp.host },
      `alert email: listening for SMTP on port ${alertEmail.port}`,
    );
  }
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
