import { createHash, randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX } from '../../shared/contracts/api-tokens';

/**
 * The secrets Baton makes and hands out once: whoever holds one is let in, so each is random,
 * shown (or sent, or set as a cookie) the one time it is made, and kept afterwards only as its
 * hash (`hashToken`) or, where Baton itself must use it again, sealed with the field cipher.
 * One table of their shapes, so a new kind of secret is a row here rather than another
 * `randomBytes` call with its own length and alphabet.
 */
const SHAPES = {
  /** a sign-in session's cookie: 256 bits */
  session: { bytes: 32, encoding: 'base64url', prefix: '' },
  /** a personal API token (decision 223): `baton_` and 256 bits, 49 characters */
  'api-token': { bytes: 32, encoding: 'base64url', prefix: API_TOKEN_PREFIX },
  /** an invitation link's token (decision 110) */
  invitation: { bytes: 32, encoding: 'base64url', prefix: '' },
  /** the secret in a person's calendar feed links */
  'calendar-feed': { bytes: 32, encoding: 'base64url', prefix: '' },
  /**
   * an integration key: 128 bits as 32 lowercase hex characters, the shape of a PagerDuty
   * integration key, so tools that check a routing key's form take it, and so it can stand as an
   * email address's local part (`<key>@…`) in any case
   */
  'integration-key': { bytes: 16, encoding: 'hex', prefix: '' },
  /** a webhook destination's Standard Webhooks signing secret: `whsec_` and 256 bits, base64 */
  'webhook-secret': { bytes: 32, encoding: 'base64', prefix: 'whsec_' },
} as const satisfies Record<string, { bytes: number; encoding: BufferEncoding; prefix: string }>;

export type BearerSecretKind = keyof typeof SHAPES;

/** newBearerSecret makes a new secret of the given kind. */
export function newBearerSecret(kind: BearerSecretKind): string {
  const shape = SHAPES[kind];
  return `${shape.prefix}${randomBytes(shape.bytes).toString(shape.encoding)}`;
}

/** hashToken returns the SHA-256 of a bearer secret, hex: what is stored of it. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
