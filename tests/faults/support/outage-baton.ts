import type { ChildProcess } from 'node:child_process';
import { SESSION_COOKIE } from '../../../src/server/modules/sessions/session-service';
import { startBaton as startBatonProcess } from '../../setup/baton-process';
import { freePort } from './outage-postgres';

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

/**
 * startBaton runs the built server as its own process (tests/setup/baton-process.ts, the one way
 * the tests start one) and waits until it listens: its database may be the one that is down.
 */
export async function startBaton(env: Record<string, string>): Promise<BatonProcess> {
  const baton = await startBatonProcess({
    port: await freePort(),
    until: 'listening',
    timeoutMs: 60_000,
    env: {
      ENCRYPTION_KEY: KEY,
      LOCAL_LOGIN_PASSWORD: LOCAL_PASSWORD,
      COMPANY_DOMAIN: 'example.com',
      SIGN_IN_RATE_LIMIT: '10000',
      ...env,
    },
  });
  return { ...baton, exitCode: () => baton.child.exitCode };
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
