import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app';
import { ManualClock } from '../../src/server/core/clock';
import { type Config, loadConfig } from '../../src/server/core/config';
import { FieldCipher, parseMasterKey } from '../../src/server/crypto/field-crypto';
import { type Database, type OpenOptions, openPostgres } from '../../src/server/db/client';
import { SAFE_METHODS } from '../../src/server/http/cross-site';
import type { HostLookup } from '../../src/server/http/outbound-address';
import type { ImportReaders } from '../../src/server/modules/imports/readers';
import {
  createSession,
  SESSION_COOKIE,
  sessionCookie,
} from '../../src/server/modules/sessions/session-service';
import type { NewUser } from '../../src/server/modules/users/user-repository';
import { insertUser } from '../../src/server/seed/factories';
import type { User } from '../../src/shared/contracts/users';
import { createTestDatabase } from './test-database';

export const TEST_PASSWORD = 'local-test-password';
export const TEST_KEY = Buffer.alloc(32, 7).toString('base64');

/** testConfig returns a test configuration, with environment-style overrides. */
export function testConfig(env: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    ENCRYPTION_KEY: TEST_KEY,
    LOCAL_LOGIN_PASSWORD: TEST_PASSWORD,
    COMPANY_DOMAIN: 'example.com',
    DATA_DIR: '.tmp/unused-data-dir',
    // Tests stand in for a proxy: X-Forwarded-For names the client (rate limits key on it).
    TRUST_PROXY: 'true',
    // Every test request comes from one address: the tests of wrong integration keys send many.
    // The limit's own tests (key-guesses.test.ts) ask for the default with `undefined`.
    ALERT_KEY_GUESS_LIMIT: '100000',
    ...env,
  });
}

/** The origin `app.inject` requests come from (its default Host is localhost:80). */
export const TEST_ORIGIN = 'http://localhost:80';

/**
 * withOwnOrigin makes the app's `inject` send a state change with Baton's own Origin, as the
 * browser does, unless the test gives an Origin or Sec-Fetch-Site of its own: the app refuses
 * state changes that say neither (decision 160). It returns the unwrapped `inject`, for the
 * tests of that refusal.
 */
export function withOwnOrigin(app: FastifyInstance): FastifyInstance['inject'] {
  const raw = app.inject.bind(app) as FastifyInstance['inject'];
  const wrapped = (options?: InjectOptions | string, callback?: unknown) => {
    if (options && typeof options === 'object') {
      const method = String(options.method ?? 'GET').toUpperCase();
      const headers = (options.headers ?? {}) as Record<string, unknown>;
      const names = Object.keys(headers).map((h) => h.toLowerCase());
      if (
        !SAFE_METHODS.has(method) &&
        !names.includes('origin') &&
        !names.includes('sec-fetch-site')
      ) {
        options = {
          ...options,
          headers: { ...headers, origin: TEST_ORIGIN } as InjectOptions['headers'],
        };
      }
    }
    // biome-ignore lint/suspicious/noExplicitAny: forwards inject's overloads unchanged
    return (raw as any)(options, callback);
  };
  app.inject = wrapped as FastifyInstance['inject'];
  return raw;
}

/**
 * The usual cast of users API tests sign in as, in the order `t.cast()` creates them: an
 * administrator, managers, members of rotations, an incident manager and someone in no rotation.
 */
export const CAST = {
  admin: { name: 'Avery Admin', roles: ['admin'] },
  manager: { name: 'Morgan Manager', roles: ['manager'] },
  otherManager: { name: 'Max Other', roles: ['manager'] },
  olivia: { name: 'Olivia Ortiz', roles: ['on-call'] },
  noah: { name: 'Noah Nakamura', roles: ['on-call'] },
  priya: { name: 'Priya Patel', roles: ['on-call', 'manager'] },
  sam: { name: 'Sam Sullivan', roles: ['on-call'] },
  iris: { name: 'Iris Incident', roles: ['incident_manager'] },
  outsider: { name: 'Otto Outsider', roles: ['on-call'] },
} satisfies Record<string, Partial<NewUser>>;

export type CastMember = keyof typeof CAST;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface TestApp {
  app: FastifyInstance;
  /** the app's inject without the Origin withOwnOrigin adds: for tests of the cross-site rule */
  rawInject: FastifyInstance['inject'];
  database: Database;
  cipher: FieldCipher;
  clock: ManualClock;
  config: Config;
  /** creates a user */
  createUser(overrides?: Partial<NewUser>): Promise<User>;
  /**
   * creates the cast members named, in the order named, each with its usual name and roles
   * (`CAST`) and the overrides given; with no argument, the whole cast
   */
  cast<const M extends CastMember>(
    members?: { [K in M]: Partial<NewUser> },
  ): Promise<{ [K in M]: User }>;
  /** returns a Cookie header value signed in as the user (a new session row each time) */
  cookieFor(user: User): Promise<string>;
  /**
   * sends a request signed in as the user (a session made once per user and kept), or
   * anonymously with `null`, a JSON body when given, and Baton's own Origin on a state change
   * (`withOwnOrigin`); `headers` are added to the request's (a `cookie` replaces the session)
   */
  call(
    user: User | null,
    method: HttpMethod,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** createTestApp builds the real app on the file's own database with a manual clock. */
export async function createTestApp(
  options: {
    env?: Record<string, string | undefined>;
    db?: OpenOptions;
    clock?: ManualClock;
    /** how host names of URLs users type resolve (decision 234): tests map made-up names */
    resolveHost?: HostLookup;
    /** the loopback push service's certificate (tests/setup/push-service.ts), for test pushes */
    pushCa?: string;
    /** the import sources' readers (absent: the ones Baton ships); tests pass hand-built ones */
    importReaders?: ImportReaders;
  } = {},
): Promise<TestApp> {
  const config = testConfig(options.env);
  const database = await createTestDatabase(options.db);
  const cipher = new FieldCipher(parseMasterKey(config.encryptionKey!));
  const clock = options.clock ?? new ManualClock('2026-11-02T12:00:00Z');
  const app = await buildApp({
    config,
    database,
    cipher,
    clock,
    resolveHost: options.resolveHost,
    pushCa: options.pushCa,
    importReaders: options.importReaders,
    logger: false,
    // Every answer must match its route's declared answers: a mismatch fails the test that
    // caused it, as any console.error does (decision 224).
    checkAnswers: (mismatch) => console.error(`Answer does not match its schema: ${mismatch}`),
  });
  await app.ready();
  const rawInject = withOwnOrigin(app);
  const cookieFor = async (user: User) => {
    const { token } = await createSession(database.db, clock, config.session, user.id);
    return `${sessionCookie(config).name}=${token}`;
  };
  const sessions = new Map<number, string>();
  const createUser = (overrides: Partial<NewUser> = {}) =>
    insertUser(database.db, cipher, overrides);
  return {
    app,
    rawInject,
    database,
    cipher,
    clock,
    config,
    createUser,
    cast: async <const M extends CastMember>(members?: { [K in M]: Partial<NewUser> }) => {
      const wanted = (members ?? Object.fromEntries(Object.keys(CAST).map((k) => [k, {}]))) as {
        [K in M]: Partial<NewUser>;
      };
      const cast = {} as { [K in M]: User };
      // One at a time: ids follow the order named, as the files that built their own users had.
      for (const [member, overrides] of Object.entries(wanted) as [M, Partial<NewUser>][]) {
        cast[member] = await createUser({ ...CAST[member], ...overrides });
      }
      return cast;
    },
    cookieFor,
    call: async (user, method, url, body, headers = {}) => {
      let cookie: string | undefined;
      if (user) {
        cookie = sessions.get(user.id) ?? (await cookieFor(user));
        sessions.set(user.id, cookie);
      }
      return app.inject({
        method,
        url,
        payload: body as never,
        headers: { ...(cookie ? { cookie } : {}), ...headers },
      });
    },
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A second Baton on a test app's database, as another process would run it. */
export interface SecondInstance {
  /** the database opened again: its own pool on PostgreSQL; on PGlite (one owner) the same one */
  database: Database;
  /** the app built on it, with the test app's configuration, cipher and clock */
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * openSecondInstance opens the test app's database again and builds a second app on it, so a
 * test can show two instances sharing what the database holds (limits, locks, effects).
 */
export async function openSecondInstance(t: TestApp): Promise<SecondInstance> {
  const url = process.env.TEST_DATABASE_URL;
  let database = t.database;
  if (t.database.engine === 'postgres' && url) {
    const u = new URL(url);
    u.pathname = new URL(t.database.location).pathname;
    database = openPostgres(u.toString(), { max: 5 });
  }
  const app = await buildApp({
    config: t.config,
    database,
    cipher: t.cipher,
    clock: t.clock,
    logger: false,
  });
  await app.ready();
  return {
    database,
    app,
    close: async () => {
      await app.close();
      if (database !== t.database) await database.close();
    },
  };
}

/**
 * cookieFrom returns the session cookie a response set, as a Cookie header value; `name` is the
 * cookie's name outside production unless given (`sessionCookie(config).name`).
 */
export function cookieFrom(
  setCookie: string | string[] | undefined,
  name: string = SESSION_COOKIE,
): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = all.find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error('no session cookie was set');
  return found.split(';')[0];
}
