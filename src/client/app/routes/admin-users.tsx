import { PageHeader } from '@/components/page-header';
import { useAuthOptions } from '@/features/auth/api/get-auth-options';
import { InvitationsTable } from '@/features/invitations/components/invitations-table';
import { InviteUserDialog } from '@/features/invitations/components/invite-user-dialog';
import { NotificationRulesDialog } from '@/features/notification-rules/components/notification-rules-dialog';
import { ReachBadges } from '@/features/reach/components/reach-badges';
import { UsersTable } from '@/features/users/components/users-table';
import { useAuth } from '@/lib/use-auth';

export function UserManagementPage() {
  const { user } = useAuth();
  const options = useAuthOptions();
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <PageHeader
        title="User Management"
        description="Invite people, manage their roles and remove accounts."
        className="mb-0"
        actions={
          options.data ? <InviteUserDialog companyDomain={options.data.companyDomain} /> : null
        }
      />
      {user ? (
        <UsersTable
          currentUserId={user.id}
          rulesDialog={(person, onClose) => (
            <NotificationRulesDialog person={person} onClose={onClose} />
          )}
          reachOf={(person) => <ReachBadges userId={person.id} />}
        />
      ) : null}
      <InvitationsTable />
    </div>
  );
}
