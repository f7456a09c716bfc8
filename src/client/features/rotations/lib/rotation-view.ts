import type { Rotation } from '@shared/contracts/rotations';
import { canManageRotation, canPageRotation } from '@shared/domain/permissions-rotation';
import type { Role } from '@shared/domain/roles';
import { MEMBER_STATUS_LABELS, memberStatus } from '@shared/domain/rotation';

/*
 * What the rotation screens show, built on the shared rules of src/shared/domain/rotation.ts
 * (the same ones the server enforces): labels, badges, tabs and banner texts.
 */

/** cadenceLabel returns 'Weekly' for weekly rotations and 'Daily' otherwise. */
export function cadenceLabel(cadence: string): 'Weekly' | 'Daily' {
  return cadence === 'weekly' ? 'Weekly' : 'Daily';
}

type Shape = Pick<Rotation, 'cadence' | 'type' | 'layered' | 'pattern'>;

/**
 * rotationKindText returns what kind of rotation it is in a few words (decision 249): the
 * specification's 'Weekly rotation' / 'Daily rotation' for a fixed rotation of its fields, the
 * pattern in words for a layered one ('12-hour shifts at 08:00 and 20:00'), and 'Scheduled
 * rotation' for a scheduled one, whose entries, not a cadence, say who is on call.
 */
export function rotationKindText(rotation: Shape): string {
  if (rotation.type === 'scheduled') return 'Scheduled rotation';
  if (rotation.layered) return rotation.pattern;
  return `${cadenceLabel(rotation.cadence)} rotation`;
}

/** rotationSummary returns the description, or rotationKindText ('Weekly rotation' …). */
export function rotationSummary(rotation: Pick<Rotation, 'description'> & Shape): string {
  return rotation.description?.trim() || rotationKindText(rotation);
}

/**
 * patternLine returns the pattern in words to show beside `shown` (the summary or kind line), or
 * null when it would say nothing more: a scheduled rotation's 'Scheduled entries', or a pattern
 * already shown.
 */
export function patternLine(rotation: Pick<Rotation, 'type' | 'pattern'>, shown: string) {
  if (rotation.type === 'scheduled' || rotation.pattern === shown) return null;
  return rotation.pattern;
}

/**
 * nobodyOnCallNow tells whether a layered rotation has nobody on call now because no layer is on
 * duty (a weekend-only rotation on a Wednesday): it says so, and who comes next, rather than
 * 'No one assigned'.
 */
export function nobodyOnCallNow(
  rotation: Pick<Rotation, 'layered' | 'suspended' | 'currentOnCallUserId' | 'type'>,
): boolean {
  return (
    rotation.layered &&
    rotation.type === 'fixed' &&
    !rotation.suspended &&
    rotation.currentOnCallUserId === null
  );
}

/** What the Current On-Call slot says of a layered rotation with no layer on duty now. */
export const NO_ONE_ON_CALL_NOW = 'No one on call now';

/**
 * nobodyNowText returns the words of a layered rotation's empty Current On-Call slot when no layer
 * is on duty (decision 249): 'No one on call now', and who comes next and when ('Lia London from
 * March 6, 2027 at 7:00 AM'); null for any other rotation, which keeps 'No one assigned'.
 */
export function nobodyNowText(
  rotation: Pick<
    Rotation,
    'layered' | 'suspended' | 'currentOnCallUserId' | 'type' | 'nextOnCall' | 'nextHandoffTime'
  >,
  dateTime: (value: string) => string,
): { empty: string; when: string | null } | null {
  if (!nobodyOnCallNow(rotation)) return null;
  const at = rotation.nextHandoffTime;
  if (!at) return { empty: NO_ONE_ON_CALL_NOW, when: null };
  return {
    empty: NO_ONE_ON_CALL_NOW,
    when: rotation.nextOnCall
      ? `${rotation.nextOnCall.name} from ${dateTime(at)}`
      : `Until ${dateTime(at)}`,
  };
}

/** memberStatusLabel returns 'Currently On-Call', 'Next On-Call' or 'In Rotation'. */
export function memberStatusLabel(
  rotation: Pick<Rotation, 'currentOnCallUserId' | 'nextOnCall'>,
  userId: number,
): string {
  return MEMBER_STATUS_LABELS[memberStatus(rotation, userId)];
}

/**
 * canPage tells whether the user may page the rotation's holder: incident managers and admins any
 * rotation, managers those they manage (created, or are a member of).
 */
export function canPage(
  rotation: Pick<Rotation, 'createdById' | 'members'>,
  userId: number,
  roles: readonly Role[],
): boolean {
  return canPageRotation(
    { roles, id: userId },
    { createdById: rotation.createdById, memberUserIds: rotation.members.map((m) => m.userId) },
  );
}

/**
 * canManage tells whether the user may edit the rotation, change its members and reassign its
 * baton: administrators any rotation, managers those they manage (decision 233).
 */
export function canManage(
  rotation: Pick<Rotation, 'createdById' | 'members'>,
  userId: number | null,
  roles: readonly Role[],
): boolean {
  if (userId === null) return false;
  return canManageRotation(
    { roles, id: userId },
    { createdById: rotation.createdById, memberUserIds: rotation.members.map((m) => m.userId) },
  );
}

export type CardBadge = 'Active' | 'Up next' | 'Member';

/** cardBadge returns the rotation card's badge for the signed-in user. */
export function cardBadge(
  rotation: Pick<Rotation, 'currentOnCallUserId' | 'nextOnCall'>,
  userId: number,
): CardBadge {
  if (rotation.currentOnCallUserId === userId) return 'Active';
  if (rotation.nextOnCall?.id === userId) return 'Up next';
  return 'Member';
}

export type RotationTab = 'all' | 'active' | 'suspended' | 'on-call';

/** rotationsInTab returns the rotations a list tab shows. */
export function rotationsInTab<R extends Pick<Rotation, 'suspended' | 'currentOnCallUserId'>>(
  rotations: readonly R[],
  tab: RotationTab,
): R[] {
  switch (tab) {
    case 'active':
      return rotations.filter((r) => !r.suspended);
    case 'suspended':
      return rotations.filter((r) => r.suspended);
    case 'on-call':
      return rotations.filter((r) => r.currentOnCallUserId !== null);
    default:
      return [...rotations];
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** showingAllText returns the dashboard's count line, 'Showing all N rotations'. */
export function showingAllText(count: number): string {
  return `Showing all ${plural(count, 'rotation')}`;
}

/**
 * suspendedBannerText returns the suspended banner's line, or null when none is suspended:
 * 'All rotations are currently suspended', or 'Showing N suspended rotation(s) and M active
 * rotation(s)' with the plural spelled out.
 */
export function suspendedBannerText(
  rotations: readonly Pick<Rotation, 'suspended'>[],
): string | null {
  const suspended = rotations.filter((r) => r.suspended).length;
  if (suspended === 0) return null;
  const active = rotations.length - suspended;
  if (active === 0) return 'All rotations are currently suspended';
  return `Showing ${plural(suspended, 'suspended rotation')} and ${plural(active, 'active rotation')}`;
}

/**
 * unstaffedRotations returns the rotations the viewer manages that have members and nobody on
 * call (decision 263): active rotations that pass the baton by hand and by the clock (neither
 * scheduled nor layered, whose empty hours are their schedule's and said by their own screens).
 */
export function unstaffedRotations<
  R extends Pick<
    Rotation,
    | 'suspended'
    | 'type'
    | 'layered'
    | 'currentOnCallUserId'
    | 'members'
    | 'createdById'
    | 'id'
    | 'name'
  >,
>(rotations: readonly R[], userId: number | null, roles: readonly Role[]): R[] {
  return rotations.filter(
    (r) =>
      !r.suspended &&
      r.type === 'fixed' &&
      !r.layered &&
      r.currentOnCallUserId === null &&
      r.members.length > 0 &&
      canManage(r, userId, roles),
  );
}

/** unstaffedText is the flag's line: "Nobody is on call for Payments" or "…for 2 rotations". */
export function unstaffedText(rotations: readonly Pick<Rotation, 'name'>[]): string | null {
  if (rotations.length === 0) return null;
  if (rotations.length === 1)
    return `Nobody is on call for ${rotations[0].name}, though it has members`;
  return `Nobody is on call for ${rotations.length} rotations you manage, though they have members`;
}

/** reorderPayload returns the complete reorder body: every member id with its new position. */
export function reorderPayload(memberIds: readonly number[]): { id: number; order: number }[] {
  return memberIds.map((id, order) => ({ id, order }));
}

/** moveItem returns a copy of the list with the item at `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (from < 0 || from >= next.length || to < 0 || to >= next.length) return next;
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** SCHEDULE_NEEDED_FRAGMENT is what the server's refusal to go scheduled without entries says. */
const SCHEDULE_NEEDED_FRAGMENT = 'without at least one schedule entry';

/** needsScheduleFirst tells whether an error message is the server's 'no schedule entry' refusal. */
export function needsScheduleFirst(message: string | undefined | null): boolean {
  return Boolean(message?.includes(SCHEDULE_NEEDED_FRAGMENT));
}
