/*
 * The query keys of the API token reads, keyed by their API paths. A create or a revoke reads
 * both again: one's own list and, for an administrator, everyone's.
 */
export const apiTokensQueryKey = ['/api/user/tokens'] as const;
export const allApiTokensQueryKey = ['/api/admin/api-tokens'] as const;
