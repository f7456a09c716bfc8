/**
 * How each kind of handoff came about, in the words every screen uses for it (the rotation's
 * history, the dashboard's recent handoffs, the audit log): one table, so a handoff reads the same
 * wherever it is listed.
 */
const HANDOFF_KIND_LABELS: Record<string, string> = {
  take: 'Took on-call',
  start: 'First on call',
  pass: 'Passed by hand',
  reassign: 'Reassigned',
  auto: 'Automatic handoff',
  schedule: 'Scheduled handoff',
  coverage: 'Coverage started',
  coverage_end: 'Coverage ended',
  member_removed: 'Holder removed from rotation',
};

/**
 * handoffKindLabel says how a handoff came about; a kind this client does not know yet reads
 * "Handoff".
 */
export function handoffKindLabel(kind: string): string {
  return HANDOFF_KIND_LABELS[kind] ?? 'Handoff';
}
