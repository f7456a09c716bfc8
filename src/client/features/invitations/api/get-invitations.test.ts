import { expect, test } from 'vitest';
import { invitationsQueryOptions } from './get-invitations';

test('the invitations list is GET /api/invitations, polled every 3000 ms (specification section 9)', () => {
  const options = invitationsQueryOptions();
  expect(options.queryKey).toEqual(['/api/invitations']);
  expect(options.refetchInterval).toBe(3000);
});
