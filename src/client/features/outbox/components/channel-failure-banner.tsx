import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useTimeFormat } from '@/lib/use-time-format';
import { useNotificationStatus } from '../api/get-notification-status';

const CHANNEL_NAMES = { email: 'Email', sms: 'SMS' } as const;

/**
 * ChannelFailureBanner shows administrators, on every screen, each channel that failed for good
 * in the last hour (decision 163): how many, when last and why, with a link to the outbox.
 */
export function ChannelFailureBanner() {
  const fmt = useTimeFormat();
  const status = useNotificationStatus();
  const failures = status.data?.recentFailures ?? [];
  if (failures.length === 0) return null;
  return (
    <Alert variant="destructive" className="mb-6" aria-labelledby="channel-failure-title">
      <TriangleAlert aria-hidden />
      <AlertTitle id="channel-failure-title">Notifications are failing</AlertTitle>
      <AlertDescription>
        <ul className="grid gap-1">
          {failures.map((f) => (
            <li key={f.channel}>
              <span className="font-medium">{CHANNEL_NAMES[f.channel]}</span>: {f.count}{' '}
              {f.count === 1 ? 'notification' : 'notifications'} failed in the last hour, the latest
              at <time dateTime={f.lastAt}>{fmt.dateTime(f.lastAt)}</time>
              {f.lastReason ? `: ${f.lastReason}` : ''}
            </li>
          ))}
        </ul>
        <Link to="/admin/notifications" className="font-medium underline underline-offset-4">
          Open the outbox
        </Link>
      </AlertDescription>
    </Alert>
  );
}
