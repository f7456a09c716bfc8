import { PageHeader } from '@/components/page-header';
import { useAuthOptions } from '@/features/auth/api/get-auth-options';
import { InvitationsTable } from '@/features/invitations/components/invitations-table';
import { InviteUserDialog } from '@/features/invitations/components/invite-user-dialog';
import { NotificationRulesDialog } from '@/features/notification-rules/components/notification-rules-dialog';
import { usePushDevices } from '@/features/push/api/push-devices';
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
          reachOf={(person) => <ReachBadges userId={person.id} />}
          rulesDialog={(person, onClose) => <RulesDialog person={person} onClose={onClose} />}
        />
      ) : null}
      <InvitationsTable />
    </div>
  );
}

/** RulesDialog: someone's rules, knowing their devices for push (decision 253). */
function RulesDialog({
  person,
  onClose,
}: {
  person: Parameters<typeof NotificationRulesDialog>[0]['person'];
  onClose: () => void;
}) {
  const devices = usePushDevices(person.id);
  return (
    <NotificationRulesDialog
      person={person}
      onClose={onClose}
      reach={{ pushDevices: devices.data?.length ?? 0 }}
    />
  );
}
