import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiRequestError } from '@/lib/api-client';
import { fetchRotations } from './get-rotations';

type Answer = { status: number; body: string };

/** stubServer answers each path with a fixed status and body, and records what was asked. */
function stubServer(answers: Record<string, Answer>) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://baton.test').pathname;
      asked.push(path);
      const answer = answers[path] ?? { status: 404, body: '{"message":"Not found"}' };
      return new Response(answer.body || null, { status: answer.status });
    }),
  );
  return asked;
}

const signedIn: Answer = { status: 200, body: '{"user":{"id":1}}' };
const rotation = { id: 7, name: 'Platform Primary' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchRotations', () => {
  test('asks who is signed in first, then reads the list', async () => {
    const asked = stubServer({
      '/api/auth/user': signedIn,
      '/api/rotations': { status: 200, body: JSON.stringify([rotation]) },
    });
    await expect(fetchRotations()).resolves.toEqual([rotation]);
    expect(asked).toEqual(['/api/auth/user', '/api/rotations']);
  });

  test.each([
    ['signed out', { status: 401, body: '{"message":"Sign in first"}' }],
    ['server error', { status: 500, body: '' }],
  ])(
    'is empty when the current-user check fails (%s), without reading the list',
    async (_, auth) => {
      const asked = stubServer({ '/api/auth/user': auth });
      await expect(fetchRotations()).resolves.toEqual([]);
      expect(asked).toEqual(['/api/auth/user']);
    },
  );

  test.each([
    ['an object', '{"rotations":[]}'],
    ['null', 'null'],
    ['a string', '"nope"'],
    ['no body', ''],
    ['not JSON', '<html>oops</html>'],
  ])('counts %s as empty', async (_, body) => {
    stubServer({ '/api/auth/user': signedIn, '/api/rotations': { status: 200, body } });
    await expect(fetchRotations()).resolves.toEqual([]);
  });

  test('a failed list read is an error, not an empty list', async () => {
    stubServer({
      '/api/auth/user': signedIn,
      '/api/rotations': { status: 500, body: '{"message":"Internal error"}' },
    });
    await expect(fetchRotations()).rejects.toBeInstanceOf(ApiRequestError);
  });
});
