import { mayManageSomeDestination, mayManageSomeIntegration } from '@shared/domain/integrations';
import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { LoadingState } from '@/components/loading-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { DestinationsCard } from '@/features/destinations/components/destinations-card';
import { useEscalationPolicy } from '@/features/escalation-policies/api/policies';
import { PolicyEditor } from '@/features/escalation-policies/components/policy-editor';
import { IntegrationsCard } from '@/features/integrations/components/integrations-card';
import { ApiRequestError } from '@/lib/api-client';
import { useAuth } from '@/lib/use-auth';

function BackLink() {
  return (
    <Button variant="ghost" size="sm" className="w-fit" asChild>
      <Link to="/escalation-policies">
        <ArrowLeft aria-hidden="true" /> Escalation policies
      </Link>
    </Button>
  );
}

/** NewEscalationPolicyPage (/escalation-policies/new): the editor for a policy not yet saved. */
export function NewEscalationPolicyPage() {
  return (
    <div className="grid gap-4">
      <BackLink />
      <PageHeader title="New escalation policy" />
      <PolicyEditor policy={null} />
    </div>
  );
}

/** EscalationPolicyPage (/escalation-policies/:id): one policy's editor and live preview. */
export function EscalationPolicyPage() {
  const policyId = Number(useParams().id);
  const valid = Number.isSafeInteger(policyId) && policyId > 0;
  return (
    <div className="grid gap-4">
      <BackLink />
      {valid ? <Loaded policyId={policyId} /> : <PageHeader title="Policy not found" />}
    </div>
  );
}

function Loaded({ policyId }: { policyId: number }) {
  const policy = useEscalationPolicy(policyId);
  const { roles } = useAuth();
  if (policy.isPending) return <LoadingState />;
  if (policy.isError) {
    const status = policy.error instanceof ApiRequestError ? policy.error.status : 0;
    return (
      <PageHeader
        title={status === 404 ? 'Policy not found' : status === 403 ? 'Not your policy' : 'Error'}
        description={
          status === 403
            ? 'You may read only the policies of rotations you are a member of.'
            : status === 404
              ? 'This escalation policy does not exist.'
              : 'The policy could not be loaded.'
        }
      />
    );
  }
  return (
    <>
      <PageHeader
        title={policy.data.name}
        description={
          policy.data.rotations.length === 0
            ? 'No rotation follows this policy.'
            : `Followed by ${policy.data.rotations.map((r) => r.name).join(', ')}.`
        }
      />
      <PolicyEditor key={policy.data.id} policy={policy.data} />
      {/* Managers and administrators; the server's finer rule (managesPolicy) answers the rest. */}
      <IntegrationsCard
        scope={{ escalationPolicyId: policy.data.id }}
        mayCreate={mayManageSomeIntegration({ roles })}
        description="Monitoring tools raise incidents that climb this policy by itself, on no rotation, by sending alerts with an integration’s key. For a rotation’s alerts, add the integration on the rotation’s page."
      />
      <DestinationsCard
        scope={{ escalationPolicyId: policy.data.id }}
        mayCreate={mayManageSomeDestination({ roles })}
        description="Post the incidents of this policy (raised, acknowledged, escalated, resolved) to a chat channel, or send them as signed webhook events."
      />
    </>
  );
}
