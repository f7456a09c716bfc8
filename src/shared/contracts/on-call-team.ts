import { z } from 'zod';
import { NOTIFICATION_PREFERENCES } from '../domain/notification-routing';

/** RotationAssignmentSchema is one rotation a team member belongs to. */
export const RotationAssignmentSchema = z.object({
  rotationId: z.number().int(),
  rotationName: z.string(),
  isSuspended: z.boolean(),
});
export type RotationAssignment = z.infer<typeof RotationAssignmentSchema>;

/** OnCallTeamEntrySchema is one person as GET /api/on-call-team answers (specification section 3). */
export const OnCallTeamEntrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  notificationPreference: z.enum(NOTIFICATION_PREFERENCES),
  timezone: z.string(),
  rotationCount: z.number().int(),
  activeRotationCount: z.number().int(),
  isInActiveRotation: z.boolean(),
  rotationAssignments: z.array(RotationAssignmentSchema),
});
export type OnCallTeamEntry = z.infer<typeof OnCallTeamEntrySchema>;

export const OnCallTeamSchema = z.array(OnCallTeamEntrySchema);

/**
 * rotationStatusLabel returns the On-Call Team's Rotation Status: 'Not Assigned' without
 * rotations, 'Active (n)' when in at least one active rotation, otherwise 'Suspended'.
 */
export function rotationStatusLabel(
  entry: Pick<OnCallTeamEntry, 'rotationCount' | 'activeRotationCount' | 'isInActiveRotation'>,
): string {
  if (entry.rotationCount === 0) return 'Not Assigned';
  if (entry.isInActiveRotation) return `Active (${entry.activeRotationCount})`;
  return 'Suspended';
}

/** matchesTeamSearch tells whether a person's name or email contains the term, ignoring case. */
export function matchesTeamSearch(entry: Pick<OnCallTeamEntry, 'name' | 'email'>, term: string) {
  const needle = term.trim().toLocaleLowerCase();
  if (!needle) return true;
  return (
    entry.name.toLocaleLowerCase().includes(needle) ||
    entry.email.toLocaleLowerCase().includes(needle)
  );
}
