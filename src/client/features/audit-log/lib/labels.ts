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

const ACTION_LABELS: Record<string, string> = {
  'user.invited': 'Invited a user',
  'invitation.deleted': 'Deleted an invitation',
  'user.deleted': 'Deleted a user',
  'user.roles_changed': 'Changed roles',
  'rotation.created': 'Created a rotation',
  'rotation.updated': 'Edited a rotation',
  'rotation.deleted': 'Deleted a rotation',
  'rotation.suspended': 'Suspended a rotation',
  'rotation.activated': 'Activated a rotation',
  'rotation.type_changed': 'Changed rotation type',
  'rotation.member_added': 'Added a member',
  'rotation.member_removed': 'Removed a member',
  'rotation.members_reordered': 'Reordered members',
  'rotation.schedule_added': 'Added a schedule entry',
  'rotation.schedule_deleted': 'Deleted a schedule entry',
};

/** adminActionLabel returns a readable name for an audit trail action such as 'user.invited'. */
export function adminActionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const words = action.replace(/[._-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : action;
}

/** detailsSummary turns an audit event's details into one short line ('from: fixed, to: scheduled'). */
export function detailsSummary(details: Record<string, unknown>): string {
  return (
    Object.entries(details)
      .filter(([, value]) => value !== null && value !== undefined && value !== '')
      // The server adds userName beside userId (and so on): show the name, not the id.
      .filter(([key]) => !(/Ids?$/.test(key) && key.replace(/Id(s?)$/, 'Name$1') in details))
      .map(([key, value]) => {
        const shown = Array.isArray(value)
          ? value.join(', ')
          : typeof value === 'object'
            ? JSON.stringify(value)
            : String(value);
        return `${key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}: ${shown}`;
      })
      .join('; ')
  );
}
