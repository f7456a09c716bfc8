import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/*
 * A Baton of its own for a test: the built server (dist/server/main.js, or BATON_SERVER_JS when
 * several people share one dist/) as a process on a port of the test's, with a fresh data
 * directory, until it is ready. The browser specs that need a second server (identity,
 * notifications, paging) and the outage fault test start theirs here.
 */

/** SERVER_ENTRY: the built server the tests run (`npm run build` makes it). */
export const SERVER_ENTRY = path.resolve(process.env.BATON_SERVER_JS ?? 'dist/server/main.js');

/** Ports the browser specs' own servers may use (a second Baton, an OpenID provider). */
const PORT_RANGE = { from: 3300, to: 3399 };

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

// Never the same port twice in one process: the browser specs keep a signed-in session per
// server URL for the rest of the worker (sessionOf in tests/e2e/rotation-support.ts), so a second
// server on a stopped one's port would be handed the stopped one's dead session.
const handedOut = new Set<number>();

/**
 * freePorts returns `count` free ports of 3300-3399 that this process has not had before,
 * starting at a random place in the range.
 */
export async function freePorts(count: number): Promise<number[]> {
  const size = PORT_RANGE.to - PORT_RANGE.from + 1;
  const start = Math.floor(Math.random() * size);
  const found: number[] = [];
  for (let i = 0; i < size && found.length < count; i++) {
    const port = PORT_RANGE.from + ((start + i) % size);
    if (!handedOut.has(port) && (await portIsFree(port))) found.push(port);
  }
  if (found.length < count) throw new Error('no free ports in 3300-3399');
  for (const port of found) handedOut.add(port);
  return found;
}

export interface BatonServer {
  /** http://127.0.0.1:PORT */
  url: string;
  child: ChildProcess;
  /** everything the process wrote to stdout and stderr */
  output(): string;
  /** SIGTERM, wait for the exit, remove the data directory */
  stop(): Promise<void>;
}

/**
 * startBaton runs the built server on `port` with NODE_ENV=test, a fresh DATA_DIR and `env`, and
 * waits until it is ready: GET /readyz answers 200, or with `until: 'listening'` (a server whose
 * database may be down), until it says it is running. A server that does not get there within
 * `timeoutMs` is killed, not left holding its port and a share of the processor.
 */
export async function startBaton(options: {
  port: number;
  env: Record<string, string>;
  until?: 'ready' | 'listening';
  timeoutMs?: number;
}): Promise<BatonServer> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\``);
  }
  const { port, until = 'ready' } = options;
  // A new embedded database with demo data: seconds alone, over a minute on a loaded machine.
  const timeoutMs = options.timeoutMs ?? 120_000;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-test-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Baton exited (${child.exitCode}) while starting:\n${output}`);
    }
    if (until === 'listening' ? output.includes('Baton is running at') : await isReady(url)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await stop();
      throw new Error(`Baton did not start within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, output: () => output, stop };
}

async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/readyz`)).ok;
  } catch {
    return false; // not listening yet
  }
}
