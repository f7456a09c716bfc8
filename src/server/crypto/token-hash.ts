import { createHash } from 'node:crypto';

/** hashToken returns the SHA-256 of a bearer secret; only hashes are stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
