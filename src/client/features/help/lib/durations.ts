import { URGENCIES } from '@shared/contracts/rotations';
import { URGENCY_LABELS, URGENCY_POLICY, type UrgencyPolicy } from '@shared/domain/paging';

const MINUTE = 60_000;

/** minutesText writes a duration for the help pages: '1 minute', '45 minutes', '2 hours', '1 day'. */
export function minutesText(minutes: number): string {
  if (minutes > 0 && minutes % 1440 === 0) {
    const days = minutes / 1440;
    return `${days} ${days === 1 ? 'day' : 'days'}`;
  }
  if (minutes >= 120 && minutes % 60 === 0) return `${minutes / 60} hours`;
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** msText writes a duration given in milliseconds (the shared constants' unit). */
export function msText(ms: number): string {
  return minutesText(Math.round(ms / MINUTE));
}

/**
 * urgenciesWhere names the urgencies whose policy has a property, for a sentence: 'High',
 * 'High and medium', or null when none has it.
 */
export function urgenciesWhere(has: (policy: UrgencyPolicy) => boolean): string | null {
  const names = [...URGENCIES]
    .reverse()
    .filter((u) => has(URGENCY_POLICY[u]))
    .map((u, i) => (i === 0 ? URGENCY_LABELS[u] : URGENCY_LABELS[u].toLowerCase()));
  if (names.length === 0) return null;
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
