/** The status filter's choices (specification section 2), with the labels shown. */
export const STATUS_FILTER_OPTIONS = [
  { value: 'success', label: 'Success' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'missed', label: 'Missed' },
  { value: 'escalated', label: 'Escalated' },
] as const;
