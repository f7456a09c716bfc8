import type { BadgeTone } from '@/components/ui/badge';

const KIND_LABELS: Record<string, string> = {
  take: 'Took on-call',
  pass: 'Passed',
  reassign: 'Reassigned',
  auto: 'Automatic',
  schedule: 'Scheduled',
  coverage: 'Coverage',
  coverage_end: 'Coverage ended',
  member_removed: 'Member removed',
};

/** handoffKindLabel says how a handoff came about, as the handoff lists say it. */
export function handoffKindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? 'Handoff';
}

/** The badge of each handoff status. */
export const STATUS_LABELS: Record<string, string> = {
  success: 'Success',
  acknowledged: 'Acknowledged',
  missed: 'Missed',
  escalated: 'Escalated',
};

/** handoffStatusTone returns the tone of a handoff status's badge. */
export function handoffStatusTone(status: string): BadgeTone {
  switch (status) {
    case 'missed':
    case 'escalated':
      return 'warning';
    case 'acknowledged':
      return 'info';
    default:
      return 'success';
  }
}
