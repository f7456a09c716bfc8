import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE } from '../../../src/server/modules/sessions/session-service';
import { freePort } from './outage-postgres';

/**
 * The built server (`npm run test:faults` builds it first). BATON_SERVER_JS points elsewhere, e.g.
 * a private build, when several people share one dist/ (as in support/processes.ts).
 */
export const SERVER_ENTRY = path.resolve(process.env.BATON_SERVER_JS ?? 'dist/server/main.js');

export const LOCAL_PASSWORD = 'e2e-local-password';
const KEY = Buffer.alloc(32, 11).toString('base64');

export interface BatonProcess {
  url: string;
  child: ChildProcess;
  /** everything the process wrote to stdout and stderr */
  output(): string;
  /** null while running */
  exitCode(): number | null;
  stop(): Promise<void>;
}

/** startBaton runs the built server as its own process and waits until it listens. */
export async function startBaton(env: Record<string, string>): Promise<BatonProcess> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` (npm run test:faults does)`);
  }
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'baton-outage-data-'));
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: KEY,
      LOCAL_LOGIN_PASSWORD: LOCAL_PASSWORD,
      COMPANY_DOMAIN: 'example.com',
      LOG_LEVEL: 'warn',
      SIGN_IN_RATE_LIMIT: '10000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Baton did not start:\n${output}`)), 60_000);
    const check = () => {
      if (output.includes('Baton is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Baton exited (${code}) while starting:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    exitCode: () => child.exitCode,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** signIn signs in with the local password and returns the session cookie. */
export async function signIn(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password: LOCAL_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0];
}
