import { Clock, TriangleAlert } from 'lucide-react';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';

/**
 * TimesInZone is the one line under a page's title that names the zone of its times ('Times in
 * Europe/Berlin'). When the browser cannot format the profile's zone it says so, and the times
 * read as UTC.
 */
export function TimesInZone({ className }: { className?: string }) {
  const { timesIn, unsupported } = useTimeFormat();
  const Icon = unsupported ? TriangleAlert : Clock;
  return (
    <p
      className={cn(
        'flex items-center gap-1.5 text-muted-foreground text-sm',
        unsupported && 'text-warning-foreground',
        className,
      )}
    >
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      <span>{timesIn}</span>
    </p>
  );
}
