import { z } from 'zod';
import { idText } from '../../shared/contracts/primitives';

/**
 * idParams is the `params` schema of a route whose path parameters are row ids: each is the
 * shared `idText`, named after its parameter, so `/api/rotations/abc` answers 400 "id must be
 * a whole number …" before the handler runs (decision 190).
 */
export function idParams<const Name extends string>(...names: Name[]) {
  const shape = Object.fromEntries(names.map((name) => [name, idText({ label: name })]));
  return z.object(shape as Record<Name, ReturnType<typeof idText>>);
}

/** IdParams: a route with one row id in its path, `:id`. */
export const IdParams = idParams('id');

/** TokenParams: a route whose path carries a secret (a link's token); any text is read as one. */
export const TokenParams = z.object({ token: z.string() });
