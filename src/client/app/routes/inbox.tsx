import { PageHeader } from '@/components/page-header';
import { InboxView } from '@/features/inbox/components/inbox-view';
import { useAuth } from '@/lib/use-auth';

/** InboxPage is the demo inbox at /inbox (decision 186): each person's own, and everyone's for administrators. */
export function InboxPage() {
  const { isAdmin } = useAuth();
  return (
    <>
      <PageHeader
        title="Inbox"
        showTimeZone
        description="The emails and SMS Baton would have sent, as their recipients would read them."
      />
      <InboxView isAdmin={isAdmin} />
    </>
  );
}
