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

/** handoffStatusClass returns the colours of a handoff status's badge. */
export function handoffStatusClass(status: string): string {
  switch (status) {
    case 'missed':
    case 'escalated':
      return 'border-transparent bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-300';
    case 'acknowledged':
      return 'border-transparent bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-300';
    default:
      return 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300';
  }
}
