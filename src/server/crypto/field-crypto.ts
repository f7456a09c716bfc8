import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Field-level encryption of personal data (users' name, email, phone; invitations' email, name and
 * token; notifications' content). Each stored value is an envelope
 *   v1.<key id>.<96-bit nonce>.<ciphertext>.<128-bit tag>   (base64url parts)
 * sealed with AES-256-GCM under a key derived from ENCRYPTION_KEY. The associated data binds the
 * value to its table, column and row id, so a value copied to another row or column is refused.
 */

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** How many decrypted values a cipher remembers: every user's name, email and phone many times over. */
const OPENED_MAX = 20_000;

export class FieldDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldDecryptionError';
  }
}

/** Where a value lives: its associated data. */
export interface FieldContext {
  table: string;
  column: string;
  rowId: number | string;
}

interface DerivedKey {
  id: string;
  encryptionKey: Buffer;
  indexKey: Buffer;
}

function deriveKey(master: Buffer): DerivedKey {
  if (master.length !== 32) throw new Error('An encryption key must be exactly 32 bytes');
  const derive = (info: string) =>
    Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  const id = createHmac('sha256', derive('baton/key-id/v1'))
    .update('key-id')
    .digest('hex')
    .slice(0, 8);
  return {
    id,
    encryptionKey: derive('baton/field-encryption/v1'),
    indexKey: derive('baton/blind-index/v1'),
  };
}

/** parseMasterKey decodes a base64 ENCRYPTION_KEY and throws unless it is 32 bytes. */
export function parseMasterKey(base64: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error('must be 32 bytes encoded in base64');
  return key;
}

/** generateMasterKey returns a new random 32-byte key in base64. */
export function generateMasterKey(): string {
  return randomBytes(32).toString('base64');
}

/** normalizeEmail returns the form of an address used for lookups: trimmed, NFKC, lower case. */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

function aad(ctx: FieldContext): Buffer {
  return Buffer.from(`baton:${ctx.table}.${ctx.column}:${ctx.rowId}`, 'utf8');
}

export class FieldCipher {
  private readonly current: DerivedKey;
  private readonly byId: Map<string, DerivedKey>;
  /** values already decrypted, by associated data and envelope (bounded; see decrypt) */
  private readonly opened = new Map<string, string>();

  /** The first key encrypts; every key decrypts (previous keys stay readable during rotation). */
  constructor(currentMaster: Buffer, previousMasters: Buffer[] = []) {
    this.current = deriveKey(currentMaster);
    this.byId = new Map([this.current, ...previousMasters.map(deriveKey)].map((k) => [k.id, k]));
  }

  get keyId(): string {
    return this.current.id;
  }

  /** encrypt seals a value for one table, column and row. */
  encrypt(plaintext: string, ctx: FieldContext): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.encryptionKey, nonce, {
      authTagLength: TAG_BYTES,
    });
    cipher.setAAD(aad(ctx));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, this.current.id, b64(nonce), b64(body), b64(tag)].join('.');
  }

  /** encryptNullable encrypts a value, passing null and undefined through as null. */
  encryptNullable(plaintext: string | null | undefined, ctx: FieldContext): string | null {
    return plaintext == null ? null : this.encrypt(plaintext, ctx);
  }

  /**
   * decrypt opens an envelope or throws FieldDecryptionError when it is malformed or tampered with.
   * Opened values are remembered (decision 080): an envelope and its associated data always open
   * to the same text, and a changed value is a new envelope (a fresh nonce), so nothing goes stale.
   */
  decrypt(envelope: string, ctx: FieldContext): string {
    const cacheKey = `${ctx.table}.${ctx.column}:${ctx.rowId}|${envelope}`;
    const known = this.opened.get(cacheKey);
    if (known !== undefined) return known;
    const plaintext = this.open(envelope, ctx);
    if (this.opened.size >= OPENED_MAX) {
      // Forget the oldest entry (a Map iterates in insertion order).
      this.opened.delete(this.opened.keys().next().value as string);
    }
    this.opened.set(cacheKey, plaintext);
    return plaintext;
  }

  private open(envelope: string, ctx: FieldContext): string {
    const parts = envelope.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) {
      throw new FieldDecryptionError(`Malformed encrypted value in ${ctx.table}.${ctx.column}`);
    }
    const [, keyId, nonceB64, bodyB64, tagB64] = parts;
    const key = this.byId.get(keyId);
    if (!key) throw new FieldDecryptionError(`Unknown encryption key id ${keyId}`);
    const nonce = unb64(nonceB64);
    const tag = unb64(tagB64);
    // A truncated tag would weaken GCM's guarantee, so only full 16-byte tags are accepted.
    if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) {
      throw new FieldDecryptionError(`Malformed encrypted value in ${ctx.table}.${ctx.column}`);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.encryptionKey, nonce, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(aad(ctx));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(unb64(bodyB64)), decipher.final()]).toString('utf8');
    } catch {
      throw new FieldDecryptionError(
        `Encrypted value in ${ctx.table}.${ctx.column} failed authentication`,
      );
    }
  }

  /** decryptNullable decrypts a value, passing null through. */
  decryptNullable(envelope: string | null, ctx: FieldContext): string | null {
    return envelope == null ? null : this.decrypt(envelope, ctx);
  }

  /** isCurrent tells whether an envelope is sealed under the current key. */
  isCurrent(envelope: string): boolean {
    return envelope.split('.')[1] === this.current.id;
  }

  /** blindIndex returns the HMAC-SHA256 lookup index of an email address under the current key. */
  blindIndex(email: string): string {
    return indexWith(this.current, email);
  }

  /** blindIndexes returns the lookup index under every known key, current first (for rotation). */
  blindIndexes(email: string): string[] {
    return [...this.byId.values()].map((k) => indexWith(k, email));
  }

  /**
   * phoneIndex returns the keyed hash (HMAC-SHA256 under the blind-index key, apart from emails'
   * by a prefix) of an E.164 phone number under the current key: a number kept only to be
   * matched, never read (SMS reply codes, decision 201).
   */
  phoneIndex(phone: string): string {
    return phoneIndexWith(this.current, phone);
  }

  /** phoneIndexes returns a phone number's keyed hash under every known key, current first. */
  phoneIndexes(phone: string): string[] {
    return [...this.byId.values()].map((k) => phoneIndexWith(k, phone));
  }
}

function phoneIndexWith(key: DerivedKey, phone: string): string {
  return createHmac('sha256', key.indexKey)
    .update(`phone:${phone.replace(/[^0-9+]/g, '')}`, 'utf8')
    .digest('base64url');
}

function indexWith(key: DerivedKey, email: string): string {
  return createHmac('sha256', key.indexKey)
    .update(normalizeEmail(email), 'utf8')
    .digest('base64url');
}

function b64(buf: Buffer): string {
  return buf.toString('base64url');
}

function unb64(s: string): Buffer {
  return Buffer.from(s, 'base64url');
}
