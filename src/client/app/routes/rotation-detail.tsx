import type { Rotation } from '@shared/contracts/rotations';
import { can } from '@shared/domain/permissions';
import { managesRotation } from '@shared/domain/permissions-rotation';
import { hasRole, type Role } from '@shared/domain/roles';
import { useState } from 'react';
import { useParams } from 'react-router';
import { CoverageRequestsPanel } from '@/features/coverage/components/coverage-requests-panel';
import { RotationHandoffHistory } from '@/features/handoffs/components/rotation-handoff-history';
import { IntegrationsCard } from '@/features/integrations/components/integrations-card';
import { RotationPageHistory } from '@/features/paging/components/rotation-page-history';
import { useRotation } from '@/features/rotations/api/get-rotation';
import { HandoffAcknowledgementNotice } from '@/features/rotations/components/acknowledge-handoff';
import { HandoffDueNotice } from '@/features/rotations/components/handoff-due';
import {
  CurrentOnCallCard,
  NextOnCallCard,
  useBatonActions,
} from '@/features/rotations/components/on-call-cards';
import {
  RotationBackButton,
  RotationDetailSkeleton,
  RotationLoadFailed,
  RotationNotFound,
} from '@/features/rotations/components/rotation-detail-states';
import {
  type RotationDialogName,
  RotationDialogs,
} from '@/features/rotations/components/rotation-dialogs';
import {
  RotationHeader,
  RotationSuspendedNotice,
} from '@/features/rotations/components/rotation-header';
import { RotationSettingsCard } from '@/features/rotations/components/rotation-settings-card';
import { RotationTeamCard } from '@/features/rotations/components/rotation-team-card';
import { ScheduleSection } from '@/features/rotations/components/schedule-section';
import { ApiRequestError } from '@/lib/api-client';
import { useAuth } from '@/lib/use-auth';

/**
 * mayAddIntegration: administrators on any rotation, managers on the rotations they manage (the
 * server's rule; it answers anyone else with its message).
 */
function mayAddIntegration(rotation: Rotation, roles: Role[], userId: number | null): boolean {
  if (hasRole(roles, 'admin')) return true;
  if (!hasRole(roles, 'manager') || userId === null) return false;
  return managesRotation(
    { roles, userId },
    { createdById: rotation.createdById, memberUserIds: rotation.members.map((m) => m.userId) },
  );
}

/** Detail lays out one rotation's page; the sections live in the rotations feature. */
function Detail({ rotation }: { rotation: Rotation }) {
  const { roles, user } = useAuth();
  const [dialog, setDialog] = useState<RotationDialogName | null>(null);
  const { holder, mayPass } = useBatonActions(rotation);

  return (
    <div className="grid grid-cols-1 gap-6">
      <RotationBackButton />
      <RotationHeader
        rotation={rotation}
        onEdit={() => setDialog('edit')}
        onDelete={() => setDialog('delete')}
      />
      <RotationSuspendedNotice rotation={rotation} />
      <HandoffAcknowledgementNotice rotation={rotation} />
      <HandoffDueNotice
        rotation={rotation}
        holder={holder}
        onPass={mayPass ? () => setDialog('pass') : undefined}
      />

      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <CurrentOnCallCard rotation={rotation} onOpen={setDialog} />
        <NextOnCallCard rotation={rotation} />
        <RotationSettingsCard rotation={rotation} onScheduleNeeded={() => setDialog('guide')} />
      </div>

      <ScheduleSection
        rotation={rotation}
        canManage={can(roles, 'schedule.manage')}
        onAddSchedule={() => setDialog('add-schedule')}
        onShowGuide={() => setDialog('guide')}
      />
      <RotationTeamCard rotation={rotation} onAddMember={() => setDialog('add-member')} />
      <IntegrationsCard
        scope={{ rotationId: rotation.id }}
        mayCreate={mayAddIntegration(rotation, roles, user?.id ?? null)}
        description="Monitoring tools raise incidents on this rotation, which then climb its escalation policy, by sending alerts with an integration’s key."
      />
      <CoverageRequestsPanel rotationId={rotation.id} />
      <RotationHandoffHistory rotationId={rotation.id} />
      {can(roles, 'page.viewHistory') ? <RotationPageHistory rotationId={rotation.id} /> : null}

      <RotationDialogs rotation={rotation} open={dialog} onOpen={setDialog} />
    </div>
  );
}

/** RotationDetailPage is /rotations/{id}: the rotation, its schedule and its team. */
export function RotationDetailPage() {
  const { id } = useParams();
  const rotationId = Number(id);
  const valid = Number.isInteger(rotationId) && rotationId > 0;
  const rotation = useRotation(rotationId, { enabled: valid });

  if (!valid) return <RotationNotFound />;
  if (rotation.isPending) return <RotationDetailSkeleton />;
  if (rotation.isError) {
    const status = rotation.error instanceof ApiRequestError ? rotation.error.status : 0;
    if (status === 404 || status === 400) return <RotationNotFound />;
    return <RotationLoadFailed onRetry={() => rotation.refetch()} />;
  }
  return <Detail rotation={rotation.data} />;
}
