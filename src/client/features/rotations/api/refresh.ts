import type { Rotation } from '@shared/contracts/rotations';
import type { QueryClient } from '@tanstack/react-query';
import { rotationQueryKey } from './get-rotation';
import { rotationsQueryKey } from './get-rotations';
import { userRotationsQueryKey } from './get-user-rotations';

/**
 * refreshRotationViews refetches every rotation read (the list, each rotation and its schedule,
 * all under /api/rotations) and the signed-in user's rotations. Used after changes whose refetch
 * the specification leaves open; those it names refetch exactly what it names.
 */
export function refreshRotationViews(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: rotationsQueryKey }),
    queryClient.invalidateQueries({ queryKey: userRotationsQueryKey }),
  ]);
}

/** RECENT_HANDOFFS_KEY_ROOT is the root of the recent-handoffs reads (GET /api/handoffs/recent). */
const RECENT_HANDOFFS_KEY_ROOT = ['/api/handoffs/recent'] as const;

/**
 * HANDOFF_HISTORY_KEY_ROOT is the root of the handoff history reads (GET
 * /api/audit-log/handoffs): the audit log's and the rotation page's own (decision 187).
 */
export const HANDOFF_HISTORY_KEY_ROOT = ['/api/audit-log/handoffs'] as const;

/**
 * refreshHandoffHistories reads again, where they are shown, the lists a new handoff joins: the
 * recent handoffs and the handoff history. Their answers are lists the change's answer is not.
 */
export function refreshHandoffHistories(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: RECENT_HANDOFFS_KEY_ROOT }),
    queryClient.invalidateQueries({ queryKey: HANDOFF_HISTORY_KEY_ROOT }),
  ]);
}

/**
 * writeRotationAnswer puts a baton change's answer (the rotation as it now is, seen by the
 * signed-in user: the shape GET /api/rotations/{id} answers) into every read that shows it: the
 * rotation itself and its entry in /api/rotations and /api/user/rotations, where it is already
 * listed. A baton change moves no membership, so no list gains or loses a rotation; nothing is
 * fetched again (decision 183).
 */
export function writeRotationAnswer(queryClient: QueryClient, rotation: Rotation): void {
  queryClient.setQueryData<Rotation>(rotationQueryKey(rotation.id), rotation);
  const replace = (list: Rotation[] | undefined) =>
    list?.map((r) => (r.id === rotation.id ? rotation : r));
  queryClient.setQueryData<Rotation[]>(rotationsQueryKey, replace);
  queryClient.setQueryData<Rotation[]>(userRotationsQueryKey, replace);
}
