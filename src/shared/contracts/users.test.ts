import { describe, expect, test } from 'vitest';
import { ROLE_UPDATE_MESSAGES, roleUpdateFailureTitle } from './users';

describe('roleUpdateFailureTitle', () => {
  test.each([
    ['A user must have at least one role.', 'Role Required'],
    ['You cannot remove your own admin role.', 'Cannot Remove Admin Role'],
    ['One or more selected roles are invalid.', 'Invalid Role Selection'],
    // Anything else is the generic failure of section 8.
    ['403: Forbidden', 'Update Failed'],
    ['Failed to update roles', 'Update Failed'],
    ['', 'Update Failed'],
    ['toString', 'Update Failed'],
  ])('%j → %s', (message, title) => {
    expect(roleUpdateFailureTitle(message)).toBe(title);
  });

  test('the server’s messages are the specification’s sentences', () => {
    expect(ROLE_UPDATE_MESSAGES).toEqual({
      none: 'A user must have at least one role.',
      ownAdmin: 'You cannot remove your own admin role.',
      invalid: 'One or more selected roles are invalid.',
    });
  });
});
