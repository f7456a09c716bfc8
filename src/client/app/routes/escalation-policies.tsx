import { can } from '@shared/domain/permissions';
import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { PolicyList } from '@/features/escalation-policies/components/policy-list';
import { useAuth } from '@/lib/use-auth';

/**
 * EscalationPoliciesPage (/escalation-policies): the policies the viewer may read (all of them
 * for administrators, managers and incident managers; their rotations' for on-call members), with
 * the rotations following each; managers and administrators create one.
 */
export function EscalationPoliciesPage() {
  const { roles } = useAuth();
  return (
    <>
      <PageHeader
        title="Escalation Policies"
        description="Who is notified, in which order, until someone acknowledges a page."
        actions={
          can(roles, 'escalationPolicy.edit') ? (
            <Button asChild>
              <Link to="/escalation-policies/new">
                <Plus aria-hidden="true" /> New policy
              </Link>
            </Button>
          ) : null
        }
      />
      <PolicyList />
    </>
  );
}
