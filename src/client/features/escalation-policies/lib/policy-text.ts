import type {
  EscalationPreview,
  EscalationTargetType,
  StepAssignment,
} from '@shared/contracts/escalation-policies';

/** How each target type reads in the editor's choice and in the preview. */
export const TARGET_TYPE_LABELS: Record<EscalationTargetType, string> = {
  'rotation-holder': "A rotation's holder",
  'rotation-next': "A rotation's next on call",
  'rotation-backup': "A rotation's backup (the previous holder)",
  'rotation-members': 'Every member of a rotation',
  user: 'A person',
};

export const ASSIGNMENT_LABELS: Record<StepAssignment, string> = {
  everyone: 'Everyone at once',
  'round-robin': 'One at a time, in turn (round robin)',
};

export const DAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export const DAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

const CHANNEL_NAMES = { sms: 'SMS', email: 'email' } as const;

type Recipient = EscalationPreview['steps'][number]['recipients'][number];

/** listInWords joins ['a', 'b', 'c'] as 'a, b and c'. */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** recipientText reads 'Priya Shah (holder), by SMS and email'. */
export function recipientText(recipient: Recipient): string {
  const channels = listInWords(recipient.channels.map((channel) => CHANNEL_NAMES[channel]));
  return `${recipient.name} (${recipient.reasons.join(', ')}), by ${channels}`;
}

/** targetText names what a target reaches: "Database On-Call's holder", 'Sam Lee'. */
export function targetText(type: EscalationTargetType, name: string): string {
  switch (type) {
    case 'rotation-holder':
      return `${name}'s holder`;
    case 'rotation-next':
      return `${name}'s next on call`;
    case 'rotation-backup':
      return `${name}'s backup`;
    case 'rotation-members':
      return `every member of ${name}`;
    case 'user':
      return name;
  }
}

/** delayText reads 15 as '15 minutes' and 1 as '1 minute'. */
export function delayText(minutes: number): string {
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}
