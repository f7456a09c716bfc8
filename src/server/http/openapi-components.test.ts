import { expect, test, vi } from 'vitest';
import { z } from 'zod';

/**
 * The contracts' names live in zod's registry, which is the process's: a test file that re-imports
 * its modules (vi.resetModules, as the client's "before the answer" tests do) makes new contract
 * schemas in the same worker. Naming them again must move each name to the new copy, or every
 * document built after it inlines its schemas (a clean-clone CI run met exactly that).
 */
// As in the server, the document's module (which names the error shape `ApiError`) is loaded
// before the contracts are named.
const load = async () => {
  await import('./openapi');
  return import('./openapi-components');
};

test('a re-imported copy of the contracts takes their names over', async () => {
  const first = await load();
  first.nameContractSchemas();
  const { RotationSchema: before } = await import('../../shared/contracts/rotations');
  expect(z.globalRegistry.get(before)?.id).toBe('Rotation');

  vi.resetModules();
  const second = await load();
  second.nameContractSchemas();
  const { RotationSchema: after } = await import('../../shared/contracts/rotations');
  expect(after).not.toBe(before);
  expect(z.globalRegistry.get(after)?.id).toBe('Rotation');
  expect(z.globalRegistry._idmap.get('Rotation')).toBe(after);
});
