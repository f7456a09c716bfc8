import type { Person, Rotation } from '@shared/contracts/rotations';
import type { QueryClient } from '@tanstack/react-query';
import { rotationQueryKey } from './get-rotation';
import { rotationsQueryKey } from './get-rotations';
import { userRotationsQueryKey } from './get-user-rotations';

/*
 * Changes shown before the server answers (issue 35, "pages that feel instant"): a baton passed or
 * a member added shows on the rotation's card, page and lists at once, and is put back if the
 * server refuses. The server's answer then replaces the guess (writeRotationAnswer, or a refetch).
 */

/** withHolder is the rotation as a pass of the baton to `toUserId` leaves it, at `now`. */
export function withHolder(rotation: Rotation, toUserId: number, now: Date): Rotation {
  const member = rotation.members.find((m) => m.userId === toUserId);
  if (!member) return rotation;
  return {
    ...rotation,
    currentOnCallUserId: toUserId,
    currentOnCall: member.user,
    holderSince: now.toISOString(),
  };
}

/**
 * withMember is the rotation with `person` added at `order` (the end). Its membership id is not
 * known yet: a negative stand-in, never sent back, until the server's answer replaces it.
 */
export function withMember(rotation: Rotation, person: Person, order: number): Rotation {
  if (rotation.members.some((m) => m.userId === person.id)) return rotation;
  return {
    ...rotation,
    members: [...rotation.members, { id: -person.id, userId: person.id, order, user: person }],
  };
}

/**
 * foreseeRotation applies `change` to the rotation wherever it is shown (the rotation's read and
 * its entry in /api/rotations and /api/user/rotations), after stopping reads in flight that would
 * overwrite it, and returns the undo, which puts back what each read held.
 */
export async function foreseeRotation(
  queryClient: QueryClient,
  rotationId: number,
  change: (rotation: Rotation) => Rotation,
): Promise<() => void> {
  const keys = [rotationQueryKey(rotationId), rotationsQueryKey, userRotationsQueryKey];
  await Promise.all(keys.map((queryKey) => queryClient.cancelQueries({ queryKey, exact: true })));
  const before = keys.map((key) => [key, queryClient.getQueryData(key)] as const);
  queryClient.setQueryData<Rotation>(rotationQueryKey(rotationId), (r) => r && change(r));
  const replace = (list: Rotation[] | undefined) =>
    list?.map((r) => (r.id === rotationId ? change(r) : r));
  queryClient.setQueryData<Rotation[]>(rotationsQueryKey, replace);
  queryClient.setQueryData<Rotation[]>(userRotationsQueryKey, replace);
  return () => {
    for (const [key, data] of before) queryClient.setQueryData(key, data);
  };
}
