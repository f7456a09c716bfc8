import { describe, expect, test } from 'vitest';
import { keyFromAuthorization, keyFromQuery } from './alert-keys';

describe('keyFromAuthorization', () => {
  test.each([
    ['GenieKey abc123', ['GenieKey'], 'abc123'],
    ['geniekey abc123', ['GenieKey'], 'abc123'],
    ['  Bearer   abc123 ', ['Bearer'], 'abc123'],
    ['Bearer abc123', ['GenieKey'], undefined],
    ['Basic dXNlcjpwYXNz', ['Bearer'], undefined],
    ['Bearer', ['Bearer'], undefined],
    ['Bearer a b', ['Bearer'], undefined],
    ['', ['Bearer'], undefined],
  ] as const)('%j with %j → %j', (header, schemes, key) => {
    expect(keyFromAuthorization(header, schemes)).toBe(key);
  });

  test('no header, or a repeated one, gives no key', () => {
    expect(keyFromAuthorization(undefined, ['Bearer'])).toBeUndefined();
    expect(keyFromAuthorization(['Bearer a', 'Bearer b'], ['Bearer'])).toBeUndefined();
  });
});

test('keyFromQuery takes ?token= given once as text', () => {
  expect(keyFromQuery({ token: 'abc' })).toBe('abc');
  expect(keyFromQuery({ token: ['a', 'b'] })).toBeUndefined();
  expect(keyFromQuery({ token: '' })).toBeUndefined();
  expect(keyFromQuery({})).toBeUndefined();
  expect(keyFromQuery(undefined)).toBeUndefined();
});
