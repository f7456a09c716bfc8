import { PageHeader } from '@/components/page-header';
import { OutboxTable } from '@/features/outbox/components/outbox-table';

/** AdminNotificationsPage is the outbox view at /admin/notifications (administrators). */
export function AdminNotificationsPage() {
  return (
    <>
      <PageHeader
        title="Notifications"
        showTimeZone
        description="Every email and SMS Baton has sent or will send, with its delivery state and the provider's answer."
      />
      <OutboxTable />
    </>
  );
}
