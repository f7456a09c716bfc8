import { MailWarning } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useNotificationStatus } from '../api/get-notification-status';

/**
 * ChannelSetupAlert tells administrators on the dashboard which notification channel this server
 * is not configured for, naming its settings (decision 163); nothing when both are.
 */
export function ChannelSetupAlert() {
  const status = useNotificationStatus();
  if (!status.data || status.data.missing.length === 0) return null;
  const { noChannel, missing } = status.data;
  return (
    <Alert variant={noChannel ? 'destructive' : 'default'}>
      <MailWarning aria-hidden />
      <AlertTitle>
        {noChannel
          ? 'No notification channel is configured: pages and notices cannot be delivered'
          : 'A notification channel is not configured'}
      </AlertTitle>
      <AlertDescription>
        <ul className="grid gap-1">
          {missing.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p>
          {noChannel
            ? 'Every notification is recorded in the outbox as not sent until an administrator sets them.'
            : 'Notifications go by the other channel until it is set.'}
        </p>
      </AlertDescription>
    </Alert>
  );
}
