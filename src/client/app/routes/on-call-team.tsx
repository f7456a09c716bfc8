import { PageHeader } from '@/components/page-header';
import { OnCallTeamTable } from '@/features/on-call-team/components/on-call-team-table';
import { useAuth } from '@/lib/use-auth';

export function OnCallTeamPage() {
  const { isAdmin } = useAuth();
  return (
    <>
      <PageHeader
        title="On-Call Team"
        description="Everyone on the team, the rotations they belong to and how they are reached."
      />
      <OnCallTeamTable isAdmin={isAdmin} />
    </>
  );
}
