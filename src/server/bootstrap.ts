import { sql } from 'drizzle-orm';
import { LOCAL_SIGN_IN_NOTE } from '../shared/contracts/auth';
import { effectiveRoles } from '../shared/domain/roles';
import { type Clock, FileClock, systemClock } from './core/clock';
import { type Config, isDemoMode, loadConfig } from './core/config';
import { BATON_VERSION } from './core/version';
import { FieldCipher, parseMasterKey } from './crypto/field-crypto';
import { countRows, type Database, openDatabase, type Tx } from './db/client';
import { sealClearPageContent } from './modules/incidents/incident-text';
import { channelSetup } from './modules/notifications/channels';
import {
  countAdmins,
  findUserRowByEmail,
  insertUsers,
  setUserRoles,
  toUser,
} from './modules/users/user-repository';
import { loadOrCreateDemoSecrets } from './secrets';
import { demoAccounts, seedDemoData } from './seed/demo-seed';

export interface Runtime {
  config: Config;
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
  /** what start-up did, for the banner */
  notes: {
    demo: boolean;
    seeded: boolean;
    generatedPassword: boolean;
    adminCreated?: string;
    /** the demo team's accounts exist (seeded now or before): the banner may list them */
    demoTeam?: boolean;
    /** nobody has an account yet: nobody can sign in until ADMIN_EMAIL makes the first */
    nobody?: boolean;
  };
}

/**
 * resolveSecrets fills in what demo mode generates: the encryption key and the local sign-in
 * password, kept in DATA_DIR. Production must configure ENCRYPTION_KEY (loadConfig enforces it).
 */
export async function resolveSecrets(
  config: Config,
): Promise<{ config: Config; generatedPassword: boolean }> {
  const demo = isDemoMode(config);
  if (config.encryptionKey && (config.localLoginPassword || !demo))
    return { config, generatedPassword: false };
  const secrets = await loadOrCreateDemoSecrets(config.dataDir);
  const generatedPassword = demo && !config.localLoginPassword;
  return {
    generatedPassword,
    config: {
      ...config,
      encryptionKey: config.encryptionKey ?? secrets.encryptionKey,
      previousEncryptionKeys: config.encryptionKey
        ? config.previousEncryptionKeys
        : [...config.previousEncryptionKeys, ...secrets.previousEncryptionKeys],
      localLoginPassword:
        config.localLoginPassword ?? (demo ? secrets.localLoginPassword : undefined),
    },
  };
}

/** createCipher builds the field cipher from the configured current and previous keys. */
export function createCipher(config: Config): FieldCipher {
  if (!config.encryptionKey) throw new Error('No encryption key configured');
  return new FieldCipher(
    parseMasterKey(config.encryptionKey),
    config.previousEncryptionKeys.map(parseMasterKey),
  );
}

/**
 * lockStartup serialises the start-up writes of instances starting at once on one database (the
 * first administrator, the demo seed) until the transaction ends: each one then sees what the
 * one before it wrote, instead of both inserting and one failing to start.
 */
async function lockStartup(tx: Tx): Promise<void> {
  // The wait is as long as the other instance's seed, not DB_LOCK_TIMEOUT_MS (decision 168).
  await tx.execute(sql`set local lock_timeout = 0`);
  await tx.execute(sql`select pg_advisory_xact_lock(7411002)`);
}

/** ensureAdmin makes ADMIN_EMAIL an administrator when no administrator exists yet. */
export async function ensureAdmin(
  runtime: Pick<Runtime, 'config' | 'database' | 'cipher'>,
): Promise<string | undefined> {
  const { config, database, cipher } = runtime;
  const email = config.adminEmail;
  if (!email) return undefined;
  return database.db.transaction(async (tx) => {
    await lockStartup(tx);
    if ((await countAdmins(tx)) > 0) return undefined;
    const existing = await findUserRowByEmail(tx, cipher, email);
    if (existing) {
      const user = toUser(existing, cipher);
      await setUserRoles(tx, user.id, effectiveRoles(['admin', ...user.roles]));
      return email;
    }
    const name = email
      .split('@')[0]
      .replace(/[._-]+/g, ' ')
      .replace(/\b\w/g, (c) => c.toUpperCase());
    await insertUsers(tx, cipher, [{ name, email, roles: ['admin'] }]);
    return email;
  });
}

/**
 * startRuntime reads configuration, opens and migrates the database, and seeds what is due. The
 * clock is the system clock unless given, or (NODE_ENV=test only) BATON_TEST_CLOCK_FILE's.
 */
export async function startRuntime(
  env: Record<string, string | undefined> = process.env,
  givenClock?: Clock,
): Promise<Runtime> {
  const resolved = await resolveSecrets(loadConfig(env));
  const config = resolved.config;
  const clock =
    givenClock ?? (config.testClockFile ? new FileClock(config.testClockFile) : systemClock);
  const cipher = createCipher(config);
  const database = await openDatabase(config);
  try {
    await database.migrate();
    // Migration 0007's data step: page texts and escalation reasons stored in clear are sealed.
    await sealClearPageContent(database.db, cipher);
    const demo = isDemoMode(config);
    const adminCreated = await ensureAdmin({ config, database, cipher });
    const shouldSeed = config.demo ?? demo;
    const seeded =
      shouldSeed &&
      (await database.db.transaction(async (tx) => {
        await lockStartup(tx);
        const due =
          (await countRows(tx, 'users')) === 0 ||
          (config.demo === true && (await countRows(tx, 'rotations')) === 0);
        if (due) await seedDemoData({ db: tx, cipher, clock, domain: config.companyDomain });
        return due;
      }));
    const [demoAdmin] = demoAccounts(config.companyDomain);
    const demoTeam =
      seeded || (await findUserRowByEmail(database.db, cipher, demoAdmin.email)) !== undefined;
    const nobody = (await countRows(database.db, 'users')) === 0;
    return {
      config,
      database,
      cipher,
      clock,
      notes: {
        demo,
        seeded,
        generatedPassword: resolved.generatedPassword,
        adminCreated,
        demoTeam,
        nobody,
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** The oldest Node.js Baton supports; package.json's `engines` says the same (a test keeps them equal). */
export const NODE_FLOOR = '22.12';

/**
 * unsupportedNodeNote says, for a Node.js version below the floor, that it is unsupported (Node 20
 * reached its end of life in April 2026, and Baton's dependencies now ask for 22). Start-up prints
 * it and carries on: nothing stops working at once, but nothing below the floor is tested.
 */
export function unsupportedNodeNote(version: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [floorMajor = 0, floorMinor = 0] = NODE_FLOOR.split('.').map(Number);
  if (major > floorMajor || (major === floorMajor && minor >= floorMinor)) return null;
  return `Node.js ${version} is older than Baton supports (${NODE_FLOOR} or newer, 22 or 24 LTS): it may run, but nothing below ${NODE_FLOOR} is tested. Install Node.js 22 or 24.`;
}

/** What the banner says when no account exists (DEMO=0 without ADMIN_EMAIL). */
export const NOBODY_YET =
  "No one can sign in yet: set ADMIN_EMAIL to the first administrator's email address and start Baton again.";

/**
 * bannerLines returns what start-up prints: where Baton listens, how to sign in (the demo accounts
 * only when they exist: `DEMO=0` lists none), and in demo mode where the messages it keeps are
 * (decision 186).
 */
export function bannerLines(runtime: Runtime, url: string): string[] {
  const { config, notes } = runtime;
  const lines = [
    `Baton is running at ${url} (version ${BATON_VERSION}, database: ${runtime.database.location})`,
  ];
  if (config.localLoginPassword && notes.demoTeam && (notes.demo || config.demo)) {
    lines.push('', 'Demo mode: sign in with any demo account and the local password below.');
    lines.push(
      `  password: ${notes.generatedPassword ? config.localLoginPassword : '(the LOCAL_LOGIN_PASSWORD you configured)'}`,
    );
    for (const account of demoAccounts(config.companyDomain)) {
      lines.push(`  ${account.roles.join(', ').padEnd(22)} ${account.email}`);
    }
    if (notes.generatedPassword)
      lines.push(`  (generated once and kept in ${config.dataDir}/secrets.json)`);
  } else if (config.localLoginPassword) {
    lines.push('', 'Local sign-in is on (LOCAL_LOGIN_PASSWORD).');
    if (notes.generatedPassword) {
      lines.push(`  password: ${config.localLoginPassword}`);
      lines.push(`  (generated once and kept in ${config.dataDir}/secrets.json)`);
    }
  }
  if (config.localLoginPassword) lines.push(`  Note: ${LOCAL_SIGN_IN_NOTE}`);
  if (notes.adminCreated) lines.push('', `Administrator account: ${notes.adminCreated}`);
  if (notes.nobody) lines.push('', NOBODY_YET);
  if (isDemoMode(config) && channelSetup(config).missing.length > 0) {
    lines.push(
      '',
      `Demo inbox: email and SMS that no configured channel carries are kept, not sent; read them at ${url}/inbox.`,
    );
  }
  return lines;
}
