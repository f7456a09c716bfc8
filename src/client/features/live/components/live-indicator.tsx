import { LIVE_FALLBACK_POLL_SECONDS } from '@shared/contracts/live-events';
import { cn } from '@/lib/utils';
import type { LiveStatus } from '../lib/live-connection';

const LABELS: Record<LiveStatus, string> = {
  live: 'Live updates on',
  connecting: 'Connecting to live updates',
  polling: `Updates every ${LIVE_FALLBACK_POLL_SECONDS} seconds`,
};

/**
 * LiveIndicator is the header's small dot and words for the live stream (decision 220): green
 * while live, amber while it connects, grey when the page falls back to polling. The words are
 * visible from small-phone widths up and always read by screen readers, announced politely
 * when they change.
 */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  return (
    <output
      aria-live="polite"
      className="flex items-center gap-1.5 rounded-full px-2 py-1 text-muted-foreground text-xs"
      title={LABELS[status]}
    >
      <span
        aria-hidden="true"
        className={cn(
          'size-2 shrink-0 rounded-full',
          status === 'live' && 'bg-success-foreground',
          status === 'connecting' && 'animate-pulse bg-warning-foreground',
          status === 'polling' && 'bg-muted-foreground',
        )}
      />
      <span className="max-[25rem]:sr-only">{LABELS[status]}</span>
    </output>
  );
}
