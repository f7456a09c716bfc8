import { describe, expect, test } from 'vitest';
import { passBatonPayload } from './pass-baton';

describe('passBatonPayload', () => {
  test.each([
    [{ rotationId: 1, toUserId: 4 }, { toUserId: 4 }],
    [{ rotationId: 1, toUserId: 4, notes: '' }, { toUserId: 4 }],
    [{ rotationId: 1, toUserId: 4, notes: '   \n ' }, { toUserId: 4 }],
    [
      { rotationId: 1, toUserId: 4, notes: ' Watch db-3 ' },
      { toUserId: 4, notes: 'Watch db-3' },
    ],
    [{ rotationId: 1, toUserId: 4, urgent: false }, { toUserId: 4 }],
    [
      { rotationId: 1, toUserId: 4, notes: 'db-3 down', urgent: true },
      { toUserId: 4, notes: 'db-3 down', urgent: true },
    ],
  ])('%j sends %j', (variables, body) => {
    expect(passBatonPayload(variables)).toEqual(body);
  });
});
