import { mayManageSomeIntegration } from '@shared/domain/integrations';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { PageHeader } from '@/components/page-header';
import { IntegrationsCard } from '@/features/integrations/components/integrations-card';
import { integrationTargets } from '@/features/integrations/lib/targets';
import { rotationsListQueryOptions } from '@/features/rotations/api/get-rotations';
import { useEscalationPolicies } from '@/lib/escalation-policy-reads';
import { useAuth } from '@/lib/use-auth';

/**
 * IntegrationsPage (/integrations, decision 260): every integration the viewer may see, across
 * rotations and escalation policies, each with where its incidents go, its source and its state;
 * managers and administrators add one here, choosing where it goes and its source.
 */
export function IntegrationsPage() {
  const { user, roles } = useAuth();
  const mayCreate = mayManageSomeIntegration({ roles });
  const rotations = useQuery({ ...rotationsListQueryOptions(), enabled: mayCreate });
  const policies = useEscalationPolicies({ enabled: mayCreate });
  const targets = useMemo(
    () =>
      user && mayCreate
        ? integrationTargets({ id: user.id, roles }, rotations.data ?? [], policies.data ?? [])
        : [],
    [user, roles, mayCreate, rotations.data, policies.data],
  );
  return (
    <>
      <PageHeader
        title="Integrations"
        showTimeZone
        description="The monitoring tools that raise incidents, across every rotation and escalation policy you can see: where each one’s incidents go, the tool it is for, and when it was last used."
      />
      <IntegrationsCard
        scope="all"
        targets={targets}
        mayCreate={mayCreate && targets.length > 0}
        title="All integrations"
        description="Manage each one here or on the page of its rotation or policy."
      />
    </>
  );
}
