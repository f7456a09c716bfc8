import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The real Prometheus Alertmanager (Debian's prometheus-alertmanager 0.25, which `.ci/run`
 * installs), started on a free loopback port with a generated configuration, for the tests that
 * prove an unmodified Alertmanager raises and resolves incidents in Baton (issue 17).
 */

export const ALERTMANAGER_BINARY =
  process.env.ALERTMANAGER_BINARY ?? '/usr/bin/prometheus-alertmanager';
export const ALERTMANAGER_MISSING = `The real Alertmanager is not installed (${ALERTMANAGER_BINARY}): install it with \`apt-get install prometheus-alertmanager\` (Debian's package, version 0.25; .ci/run installs it), or set ALERTMANAGER_BINARY.`;

/** freePort asks the system for a loopback port no one listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningAlertmanager {
  /** http://127.0.0.1:PORT */
  url: string;
  /** what it has written to its standard output and error so far */
  output(): string;
  /** postAlerts sends alerts to its API v2 (POST /api/v2/alerts), as Prometheus does */
  postAlerts(alerts: PostableAlert[]): Promise<void>;
  stop(): Promise<void>;
}

export interface PostableAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
}

/**
 * startAlertmanager writes `config` (YAML) to a temporary folder and starts Alertmanager on it,
 * without clustering; it resolves once Alertmanager answers ready. It throws ALERTMANAGER_MISSING
 * when the binary is absent: the test must fail, not skip.
 */
export async function startAlertmanager(config: string): Promise<RunningAlertmanager> {
  if (!existsSync(ALERTMANAGER_BINARY)) throw new Error(ALERTMANAGER_MISSING);
  const dir = await mkdtemp(path.join(tmpdir(), 'baton-alertmanager-'));
  const configFile = path.join(dir, 'alertmanager.yml');
  await writeFile(configFile, config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(
    ALERTMANAGER_BINARY,
    [
      `--config.file=${configFile}`,
      `--storage.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=info',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Alertmanager exited (${child.exitCode}) before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(`${url}/-/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Alertmanager was not ready within 15 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    output: () => output,
    postAlerts: async (alerts) => {
      const res = await fetch(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alerts),
      });
      if (!res.ok)
        throw new Error(`Alertmanager refused the alerts: ${res.status} ${await res.text()}`);
    },
    stop,
  };
}

/** What each receiver of alertmanagerConfig needs: Baton's address and one integration key each. */
export interface ReceiverKeys {
  webhook: string;
  pagerduty: string;
  opsgenie: string;
}

/**
 * alertmanagerConfig routes alerts by their `baton` label (webhook, pagerduty or opsgenie) to one
 * receiver of each kind pointed at Baton at `base`, as the integration screen's configuration
 * does, grouped by alertname, with one-second timings so a test sees firing, repeats and resolution
 * within seconds.
 */
export function alertmanagerConfig(base: string, keys: ReceiverKeys): string {
  const q = (s: string) => JSON.stringify(s);
  return `route:
  receiver: nobody
  group_by: ['alertname']
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1s
  routes:
    - receiver: webhook
      matchers: ['baton="webhook"']
    - receiver: pagerduty
      matchers: ['baton="pagerduty"']
    - receiver: opsgenie
      matchers: ['baton="opsgenie"']
receivers:
  - name: nobody
  - name: webhook
    webhook_configs:
      - url: ${q(`${base}/api/alerts/alertmanager`)}
        send_resolved: true
        http_config:
          authorization:
            type: Bearer
            credentials: ${q(keys.webhook)}
  - name: pagerduty
    pagerduty_configs:
      - url: ${q(`${base}/api/alerts/pagerduty/v2/enqueue`)}
        routing_key: ${q(keys.pagerduty)}
        send_resolved: true
  - name: opsgenie
    opsgenie_configs:
      - api_url: ${q(`${base}/api/alerts/opsgenie/`)}
        api_key: ${q(keys.opsgenie)}
        send_resolved: true
`;
}
