import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { type BearerSecretKind, hashToken, newBearerSecret } from './bearer-secrets';

describe('newBearerSecret', () => {
  test.each<[BearerSecretKind, RegExp]>([
    ['session', /^[A-Za-z0-9_-]{43}$/],
    ['api-token', /^baton_[A-Za-z0-9_-]{43}$/],
    ['invitation', /^[A-Za-z0-9_-]{43}$/],
    ['calendar-feed', /^[A-Za-z0-9_-]{43}$/],
    ['integration-key', /^[0-9a-f]{32}$/],
    ['webhook-secret', /^whsec_[A-Za-z0-9+/]{43}=$/],
  ])('a %s has its shape, and no two are alike', (kind, shape) => {
    const made = Array.from({ length: 200 }, () => newBearerSecret(kind));
    for (const secret of made) expect(secret).toMatch(shape);
    expect(new Set(made).size).toBe(made.length);
  });
});

test('hashToken is the hex SHA-256 of the secret’s UTF-8 bytes', () => {
  const secret = newBearerSecret('api-token');
  expect(hashToken(secret)).toBe(createHash('sha256').update(Buffer.from(secret)).digest('hex'));
  expect(hashToken('é')).toBe(
    createHash('sha256')
      .update(Buffer.from([0xc3, 0xa9]))
      .digest('hex'),
  );
});
