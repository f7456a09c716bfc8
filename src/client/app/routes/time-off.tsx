import { hasRole } from '@shared/domain/roles';
import { PageHeader } from '@/components/page-header';
import { TeamTimeOff } from '@/features/time-off/components/team-time-off';
import { TimeOffSection } from '@/features/time-off/components/time-off-section';
import { useAuth } from '@/lib/use-auth';

/**
 * TimeOffPage is time off in one place (issue 35, decision 256): the viewer's own, with the dialog
 * that shows its impact before saving, and, for managers and administrators, their team's.
 */
export function TimeOffPage() {
  const { user, isAdmin, roles } = useAuth();
  if (!user) return null;
  const manages = isAdmin || hasRole(roles, 'manager');
  return (
    <>
      <PageHeader
        title="Time off"
        description="While someone is away, the next available member covers each of their shifts; nobody else's shifts move."
      />
      <div className="grid gap-4">
        <TimeOffSection personId={user.id} personName={user.name} own />
        {manages ? <TeamTimeOff /> : null}
      </div>
    </>
  );
}
