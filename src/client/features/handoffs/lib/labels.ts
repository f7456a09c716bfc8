import type { BadgeTone } from '@/components/ui/badge';

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
