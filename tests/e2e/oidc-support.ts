import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Ports this spec's own servers may use (the OpenID provider and a second Baton). */
const PORT_RANGE = { from: 3300, to: 3399 };

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** freePorts returns `count` free ports of the range, starting at a random place in it. */
export async function freePorts(count: number): Promise<number[]> {
  const size = PORT_RANGE.to - PORT_RANGE.from + 1;
  const start = Math.floor(Math.random() * size);
  const found: number[] = [];
  for (let i = 0; i < size && found.length < count; i++) {
    const port = PORT_RANGE.from + ((start + i) % size);
    if (await portIsFree(port)) found.push(port);
  }
  if (found.length < count) throw new Error('no free ports in 3300-3399');
  return found;
}

export interface BatonServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * startBaton runs the built server (dist/server/main.js) with its own data directory and the
 * given environment, and waits until it is ready.
 */
export async function startBaton(port: number, env: Record<string, string>): Promise<BatonServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-e2e-oidc-'));
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  // A new embedded database with demo data: seconds alone, over a minute beside three busy shards.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Baton exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running for the rest of the suite: it would hold its port and a share of the CPU.
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`Baton did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
