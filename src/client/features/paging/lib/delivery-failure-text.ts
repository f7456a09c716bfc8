import type { PageDeliveryFailure, PageEvent } from '@shared/contracts/paging';

const CHANNEL_NAMES = { email: 'email', sms: 'SMS', voice: 'phone call' } as const;

/**
 * notDeliveredText says that a notification about a page failed for good: to whom, by which
 * channel, the provider's reason, and the channel it was sent by instead (decision 163).
 */
export function notDeliveredText(failure: {
  to?: { name: string } | null;
  channel?: PageDeliveryFailure['channel'];
  reason?: string | null;
  fallbackChannel?: PageDeliveryFailure['fallbackChannel'];
}): string {
  const to = failure.to?.name ?? 'a deleted user';
  const by = CHANNEL_NAMES[failure.channel ?? 'email'];
  const instead = failure.fallbackChannel
    ? ` Sent by ${CHANNEL_NAMES[failure.fallbackChannel]} instead.`
    : '';
  const reason = (failure.reason ?? 'no reason given').replace(/\.$/, '');
  return `Not delivered to ${to} by ${by}: ${reason}.${instead}`;
}

/** isNotDelivered tells whether a page event is a failed delivery. */
export const isNotDelivered = (event: PageEvent) => event.kind === 'not_delivered';
