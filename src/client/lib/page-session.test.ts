import { describe, expect, test } from 'vitest';
import { sessionFromPage } from './page-session';

describe('the signed-in user the page came with', () => {
  const answer = { user: { id: 3, name: 'Olivia Ortiz', roles: ['on-call'] } };

  test('is the answer of GET /api/auth/user the block holds', () => {
    expect(sessionFromPage(JSON.stringify(answer))).toEqual(answer);
  });

  test.each([
    ['no block', null],
    ['an empty block', ''],
    ['damaged JSON', '{"user":'],
    ['null', 'null'],
    ['no user', '{}'],
    ['a user without an id', '{"user":{"name":"x","roles":[]}}'],
    ['a user without roles', '{"user":{"id":3}}'],
  ])('%s: none, and the user is read from the API', (_, text) => {
    expect(sessionFromPage(text)).toBeNull();
  });
});
