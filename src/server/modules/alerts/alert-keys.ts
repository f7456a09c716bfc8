/**
 * Where each monitoring tool puts its integration key (issue 17, decision 211): an
 * `Authorization` header with the vendor's scheme, or `?token=`.
 */

/**
 * keyFromAuthorization returns the credentials of an `Authorization: <scheme> <key>` header when
 * its scheme is one of `schemes` (any case, as HTTP schemes are), or undefined.
 */
export function keyFromAuthorization(
  header: string | string[] | undefined,
  schemes: readonly string[],
): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match) return undefined;
  const [, scheme, key] = match;
  return schemes.some((s) => s.toLowerCase() === scheme.toLowerCase()) ? key : undefined;
}

/** keyFromQuery returns `?token=` when it is given once as text, or undefined. */
export function keyFromQuery(query: unknown, name = 'token'): string | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  const value = (query as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
