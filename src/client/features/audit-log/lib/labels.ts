/** The status filter's choices (specification section 2), with the labels shown. */
export const STATUS_FILTER_OPTIONS = [
  { value: 'success', label: 'Success' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'missed', label: 'Missed' },
  { value: 'escalated', label: 'Escalated' },
] as const;

const KIND_LABELS: Record<string, string> = {
  take: 'Took on-call',
  pass: 'Passed by hand',
  reassign: 'Reassigned',
  auto: 'Automatic handoff',
  schedule: 'Schedule',
  coverage: 'Coverage started',
  coverage_end: 'Coverage ended',
  member_removed: 'Holder removed from rotation',
};

/** handoffKindLabel says how a handoff came about ('Reassigned', 'Automatic handoff'...). */
export function handoffKindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}
