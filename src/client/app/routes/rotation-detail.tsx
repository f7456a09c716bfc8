import type { Rotation } from '@shared/contracts/rotations';
import { managesDestination, managesIntegration } from '@shared/domain/integrations';
import { can } from '@shared/domain/permissions';
import { canArrangeCover } from '@shared/domain/permissions-rotation';
import type { Role } from '@shared/domain/roles';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useCalendar } from '@/features/calendar/api/get-calendar';
import { UpcomingShiftsCard } from '@/features/calendar/components/upcoming-shifts';
import { CoverPlanCard } from '@/features/cover-plans/components/cover-plan-card';
import { CoverageRequestsPanel } from '@/features/coverage/components/coverage-requests-panel';
import { DestinationsCard } from '@/features/destinations/components/destinations-card';
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
import { RotationTimeline } from '@/features/rotations/components/rotation-timeline';
import { ScheduleSection } from '@/features/rotations/components/schedule-section';
import { TimeOffWarnings } from '@/features/time-off/components/time-off-warnings';
import { ApiRequestError } from '@/lib/api-client';
import { shiftsAheadSpan } from '@/lib/shifts-ahead';
import { timelineSpan } from '@/lib/timeline';
import { useAuth } from '@/lib/use-auth';
import { useViewerTimeZone } from '@/lib/use-time-format';

/**
 * mayAdd tells whether the viewer may add an integration or a destination to the rotation: the
 * server's own rules (managesIntegration, managesDestination; decision 243).
 */
function mayAdd(
  what: 'integration' | 'destination',
  rotation: Rotation,
  roles: Role[],
  userId: number | null,
): boolean {
  if (userId === null) return false;
  const actor = { roles, id: userId };
  const facts = {
    createdById: rotation.createdById,
    memberUserIds: rotation.members.map((m) => m.userId),
  };
  return what === 'integration'
    ? managesIntegration(actor, { rotation: facts })
    : managesDestination(actor, { owner: 'rotation', rotation: facts });
}

/**
 * RotationCoverPlans offers planned cover with the rotation's shifts ahead, as the calendar
 * projects them (the same read the calendar screen makes; `span`: the one "Upcoming shifts" reads,
 * the calendar's widest, from the minute the page opened).
 */
function RotationCoverPlans({
  rotation,
  span,
}: {
  rotation: Rotation;
  span: { from: string; to: string };
}) {
  const { roles, user } = useAuth();
  const viewerId = user?.id ?? null;
  const memberIds = rotation.members.map((m) => m.userId);
  const mayAsk =
    viewerId !== null &&
    memberIds.includes(viewerId) &&
    can(roles, 'baton.hold') &&
    !rotation.suspended;
  const mayArrange =
    viewerId !== null &&
    !rotation.suspended &&
    canArrangeCover(
      { roles, id: viewerId },
      { createdById: rotation.createdById, memberUserIds: memberIds },
    );
  const calendar = useCalendar(span.from, span.to);
  const shifts = useMemo(
    () =>
      (calendar.data?.rotations.find((r) => r.id === rotation.id)?.shifts ?? [])
        .filter((s) => s.source === 'rotation' || s.source === 'schedule')
        .map((s) => ({ userId: s.userId, start: new Date(s.start), end: new Date(s.end) })),
    [calendar.data, rotation.id],
  );
  if (viewerId === null) return null;
  return (
    <CoverPlanCard
      rotation={rotation}
      viewerId={viewerId}
      mayAsk={mayAsk}
      mayArrange={mayArrange}
      shifts={shifts}
    />
  );
}

/**
 * RotationTimelineSection reads the calendar over the viewer's coming two weeks (today's start
 * to fourteen days on, in their zone) for the rotation's timeline.
 */
function RotationTimelineSection({ rotation }: { rotation: Rotation }) {
  const { timeZone } = useViewerTimeZone();
  const span = useMemo(() => timelineSpan(new Date(), timeZone), [timeZone]);
  const calendar = useCalendar(span.from.toISOString(), span.to.toISOString());
  return <RotationTimeline rotation={rotation} calendar={calendar.data} span={span} />;
}

/** Detail lays out one rotation's page; the sections live in the rotations feature. */
function Detail({ rotation }: { rotation: Rotation }) {
  const { roles, user } = useAuth();
  const [dialog, setDialog] = useState<RotationDialogName | null>(null);
  const { holder, mayPass } = useBatonActions(rotation);
  // One read of the shifts ahead for "Upcoming shifts" and the cover plans.
  const [ahead] = useState(() => shiftsAheadSpan(new Date()));

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
      <TimeOffWarnings rotationId={rotation.id} />

      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <CurrentOnCallCard rotation={rotation} onOpen={setDialog} />
        <NextOnCallCard rotation={rotation} />
        <RotationSettingsCard rotation={rotation} onScheduleNeeded={() => setDialog('guide')} />
      </div>

      <RotationTimelineSection rotation={rotation} />
      <UpcomingShiftsCard of={{ rotationId: rotation.id }} name={rotation.name} span={ahead} />
      <ScheduleSection
        rotation={rotation}
        canManage={can(roles, 'schedule.manage')}
        onAddSchedule={() => setDialog('add-schedule')}
        onShowGuide={() => setDialog('guide')}
      />
      <RotationTeamCard rotation={rotation} onAddMember={() => setDialog('add-member')} />
      <IntegrationsCard
        scope={{ rotationId: rotation.id }}
        mayCreate={mayAdd('integration', rotation, roles, user?.id ?? null)}
        description="Monitoring tools raise incidents on this rotation, which then climb its escalation policy, by sending alerts with an integration’s key."
        extra={(integration) => ({
          label: 'Chat and webhooks',
          content: (
            <DestinationsCard
              scope={{ integrationId: integration.id }}
              mayCreate={integration.canManage}
              nested
              title={`Chat and webhooks of ${integration.name}`}
              description="Post this integration’s incidents to a chat channel, or send them as signed webhook events."
            />
          ),
        })}
      />
      <DestinationsCard
        scope={{ rotationId: rotation.id }}
        mayCreate={mayAdd('destination', rotation, roles, user?.id ?? null)}
        description="Post handoffs, cover, incidents and a daily on-call digest to Slack, Mattermost, Discord or Microsoft Teams, or send signed webhook events."
      />
      <RotationCoverPlans rotation={rotation} span={ahead} />
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
