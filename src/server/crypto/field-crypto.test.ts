import { createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  FieldCipher,
  FieldDecryptionError,
  generateMasterKey,
  normalizeEmail,
  parseMasterKey,
} from './field-crypto';

const key = () => parseMasterKey(generateMasterKey());
const at = { table: 'users', column: 'email', rowId: 1 };

function tamper(envelope: string, part: number, mutate: (b: Buffer) => Buffer): string {
  const parts = envelope.split('.');
  parts[part] = mutate(Buffer.from(parts[part], 'base64url')).toString('base64url');
  return parts.join('.');
}
const flipFirstBit = (b: Buffer) => {
  const c = Buffer.from(b);
  c[0] ^= 1;
  return c;
};

describe('FieldCipher', () => {
  const cipher = new FieldCipher(key());

  test('round-trips a value and never stores it in clear', () => {
    const envelope = cipher.encrypt('ada@example.com', at);
    expect(envelope).not.toContain('ada');
    expect(envelope.split('.')).toHaveLength(5);
    expect(cipher.decrypt(envelope, at)).toBe('ada@example.com');
  });

  test('uses a fresh 96-bit nonce and a 16-byte tag for every value', () => {
    const a = cipher.encrypt('same', at).split('.');
    const b = cipher.encrypt('same', at).split('.');
    expect(Buffer.from(a[2], 'base64url')).toHaveLength(12);
    expect(Buffer.from(a[4], 'base64url')).toHaveLength(16);
    expect(a[2]).not.toBe(b[2]);
    expect(a[3]).not.toBe(b[3]);
  });

  test.each([
    ['a flipped ciphertext bit', (e: string) => tamper(e, 3, flipFirstBit)],
    ['a flipped nonce bit', (e: string) => tamper(e, 2, flipFirstBit)],
    ['a flipped tag bit', (e: string) => tamper(e, 4, flipFirstBit)],
    ['a tag truncated to 12 bytes', (e: string) => tamper(e, 4, (b) => b.subarray(0, 12))],
    ['a tag truncated to 4 bytes', (e: string) => tamper(e, 4, (b) => b.subarray(0, 4))],
    ['a missing tag', (e: string) => e.split('.').slice(0, 4).join('.')],
    ['an unknown key id', (e: string) => e.replace(/^v1\.[^.]+\./, 'v1.deadbeef.')],
    ['another version', (e: string) => e.replace(/^v1\./, 'v2.')],
    ['plain text', () => 'ada@example.com'],
  ])('refuses %s', (_name, mutate) => {
    const envelope = cipher.encrypt('ada@example.com', at);
    expect(() => cipher.decrypt(mutate(envelope), at)).toThrow(FieldDecryptionError);
  });

  test.each([
    ['another row', { ...at, rowId: 2 }],
    ['another column', { ...at, column: 'name' }],
    ['another table', { ...at, table: 'invitations' }],
  ])('refuses a value moved to %s', (_name, elsewhere) => {
    expect(() => cipher.decrypt(cipher.encrypt('ada@example.com', at), elsewhere)).toThrow(
      FieldDecryptionError,
    );
  });

  test('refuses a value sealed under a key it does not know', () => {
    const other = new FieldCipher(key());
    expect(() => cipher.decrypt(other.encrypt('x', at), at)).toThrow(FieldDecryptionError);
  });

  test('reads values under a previous key and writes under the current one', () => {
    const oldKey = key();
    const before = new FieldCipher(oldKey);
    const after = new FieldCipher(key(), [oldKey]);
    const old = before.encrypt('grace', at);
    expect(after.decrypt(old, at)).toBe('grace');
    expect(after.isCurrent(old)).toBe(false);
    expect(after.isCurrent(after.encrypt('grace', at))).toBe(true);
    expect(after.blindIndexes('Grace@Example.com')).toContain(
      before.blindIndex('grace@example.com'),
    );
  });

  test('indexes emails case- and space-insensitively, with a key separate from encryption', () => {
    expect(cipher.blindIndex('  Ada@Example.COM ')).toBe(cipher.blindIndex('ada@example.com'));
    expect(cipher.blindIndex('ada@example.com')).not.toBe(
      new FieldCipher(key()).blindIndex('ada@example.com'),
    );
    expect(normalizeEmail(' A@B.C ')).toBe('a@b.c');
  });

  test('the blind index has its own key, derived apart from the encryption key', () => {
    // The derivation is pinned here: stored envelopes and indexes depend on it.
    const master = key();
    const derived = (info: string) =>
      Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
    const encryptionKey = derived('baton/field-encryption/v1');
    const indexKey = derived('baton/blind-index/v1');
    const own = new FieldCipher(master);

    // That is the encryption key: it opens a value the cipher sealed.
    const [, , nonce, body, tag] = own.encrypt('ada@example.com', at).split('.');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      encryptionKey,
      Buffer.from(nonce, 'base64url'),
      { authTagLength: 16 },
    );
    decipher.setAAD(Buffer.from('baton:users.email:1'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    expect(
      Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(),
    ).toBe('ada@example.com');

    // The index is an HMAC under the other derived key, neither the encryption key nor the secret.
    const hmac = (k: Buffer) =>
      createHmac('sha256', k).update('ada@example.com').digest('base64url');
    const index = own.blindIndex('ada@example.com');
    expect(indexKey.equals(encryptionKey)).toBe(false);
    expect(index).toBe(hmac(indexKey));
    expect(index).not.toBe(hmac(encryptionKey));
    expect(index).not.toBe(hmac(master));
  });

  test('rejects keys that are not 32 bytes', () => {
    expect(() => parseMasterKey(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
