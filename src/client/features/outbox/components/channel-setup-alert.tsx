import { Inbox, MailWarning } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useNotificationStatus } from '../api/get-notification-status';

/**
 * ChannelSetupAlert tells administrators on the dashboard which notification channel this server
 * is not configured for, naming its settings (decision 163); nothing when both are. In demo mode
 * what such a channel would carry is kept in the demo inbox (decision 186), and it says so.
 */
export function ChannelSetupAlert() {
  const status = useNotificationStatus();
  if (!status.data || status.data.missing.length === 0) return null;
  const { noChannel, missing, demoInbox } = status.data;
  // In demo mode nothing is lost: a missing channel's messages wait in the demo inbox.
  const failing = noChannel && !demoInbox;
  return (
    <Alert variant={failing ? 'destructive' : 'default'}>
      {demoInbox ? <Inbox aria-hidden /> : <MailWarning aria-hidden />}
      <AlertTitle>
        {!noChannel
          ? 'A notification channel is not configured'
          : demoInbox
            ? 'No notification channel is configured: messages are kept in the demo inbox'
            : 'No notification channel is configured: pages and notices cannot be delivered'}
      </AlertTitle>
      <AlertDescription>
        <ul className="grid gap-1">
          {missing.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {demoInbox ? (
          <p>
            Demo mode keeps what Baton would send by {noChannel ? 'email and SMS' : 'it'} instead:{' '}
            <Link to="/inbox" className="font-medium underline underline-offset-4">
              open the Inbox
            </Link>
            .
          </p>
        ) : (
          <p>
            {noChannel
              ? 'Every notification is recorded in the outbox as not sent until an administrator sets them.'
              : 'Notifications go by the other channel until it is set.'}
          </p>
        )}
      </AlertDescription>
    </Alert>
  );
}
