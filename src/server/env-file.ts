import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './core/config';

/**
 * loadEnvFile reads `file` (default `.env` in the working directory), when there is one, into
 * `process.env` with Node's own parser (`process.loadEnvFile`): KEY=value lines, # comments,
 * quoted values. A variable already set in the environment wins over the file. Answers the
 * file's path when it read one; a file it cannot read stops start-up with ConfigError.
 */
export function loadEnvFile(file = '.env'): string | null {
  const resolved = path.resolve(file);
  if (!existsSync(resolved)) return null;
  try {
    process.loadEnvFile(resolved);
  } catch (err) {
    throw new ConfigError(
      `Could not read the settings file ${resolved}: ${(err as Error).message}`,
    );
  }
  return resolved;
}
