import { can } from '@shared/domain/permissions';
import { hasRole } from '@shared/domain/roles';
import { CalendarPlus, LayoutList, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { OnCallWeekCard } from '@/features/calendar/components/on-call-week-card';
import { CoverageRequestsPanel } from '@/features/coverage/components/coverage-requests-panel';
import { RecentHandoffsCard } from '@/features/handoffs/components/recent-handoffs';
import { IncidentsForYouCard } from '@/features/incidents/components/incidents-for-you-card';
import { ChannelSetupAlert } from '@/features/outbox/components/channel-setup-alert';
import { PageDeliveryFailuresPanel } from '@/features/paging/components/page-delivery-failures-panel';
import { UnreachableWarning } from '@/features/reach/components/unreachable-warning';
import { useDashboardRotations } from '@/features/rotations/api/get-rotations';
import { useUserRotations } from '@/features/rotations/api/get-user-rotations';
import { EmptyState } from '@/features/rotations/components/empty-state';
import { RotationCard } from '@/features/rotations/components/rotation-card';
import { RotationTable } from '@/features/rotations/components/rotation-table';
import { SuspendedBanner } from '@/features/rotations/components/suspended-banner';
import { UnstaffedBanner } from '@/features/rotations/components/unstaffed-banner';
import { showingAllText } from '@/features/rotations/lib/rotation-view';
import { SetupChecklistCard } from '@/features/setup/components/setup-checklist-card';
import { ShiftNoticesPanel } from '@/features/shift-changes/components/shift-notices-panel';
import { TimeOffWarnings } from '@/features/time-off/components/time-off-warnings';
import { useAuth } from '@/lib/use-auth';

function CardSkeletons() {
  return (
    <div
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
      role="status"
      aria-label="Loading your rotations"
    >
      {[0, 1, 2].map((i) => (
        <div key={i} className="grid gap-4 rounded-xl border p-6">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-4 w-1/3" />
          <div className="flex gap-3">
            <Skeleton className="size-8 rounded-full" />
            <div className="grid flex-1 gap-1.5">
              <Skeleton className="h-3 w-1/3" />
              <Skeleton className="h-4 w-1/2" />
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}

function YourRotations() {
  const rotations = useUserRotations();
  return (
    <section aria-labelledby="your-rotations" className="grid grid-cols-1 gap-4">
      <h2 id="your-rotations" className="font-semibold text-lg tracking-tight">
        Your Rotations
      </h2>
      {rotations.isPending ? (
        <CardSkeletons />
      ) : rotations.isError ? (
        <p role="alert" className="text-destructive text-sm">
          Failed to fetch enhanced rotations
        </p>
      ) : rotations.data.length === 0 ? (
        <EmptyState
          icon={LayoutList}
          title="You're not currently assigned to any rotations"
          action={
            <Button asChild variant="outline" size="sm">
              <Link to="/rotations">View all rotations</Link>
            </Button>
          }
        />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {rotations.data.map((rotation) => (
            <RotationCard key={rotation.id} rotation={rotation} />
          ))}
        </div>
      )}
    </section>
  );
}

function TeamRotations({ canCreate }: { canCreate: boolean }) {
  const rotations = useDashboardRotations();
  const list = rotations.data ?? [];
  const anySuspended = list.some((r) => r.suspended);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>Team Rotations</h2>
        </CardTitle>
        <CardDescription className="flex flex-wrap items-center gap-2">
          <span>{rotations.isPending ? 'Loading rotations...' : showingAllText(list.length)}</span>
          {anySuspended ? <Badge variant="outline">Includes suspended</Badge> : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {rotations.isPending ? (
          <div className="grid gap-2" role="status" aria-label="Loading rotations">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : rotations.isError ? (
          <p role="alert" className="text-destructive text-sm">
            Failed to fetch rotations
          </p>
        ) : list.length === 0 ? (
          <EmptyState
            icon={CalendarPlus}
            title="No rotations found"
            action={
              canCreate ? (
                <Button asChild size="sm">
                  <Link to="/rotations/new">Create your first rotation</Link>
                </Button>
              ) : undefined
            }
          />
        ) : (
          <>
            <SuspendedBanner rotations={list} />
            <UnstaffedBanner rotations={list} />
            <RotationTable rotations={list} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

export function DashboardPage() {
  const { roles, isAdmin } = useAuth();
  const canCreate = can(roles, 'rotation.create');
  return (
    <div className="grid grid-cols-1 gap-8">
      <PageHeader
        className="mb-0"
        title="Dashboard"
        showTimeZone
        description="Manage your on-call rotations and handoffs at a glance."
        actions={
          canCreate ? (
            <Button asChild>
              <Link to="/rotations/new">
                <Plus aria-hidden="true" />
                New Rotation
              </Link>
            </Button>
          ) : null
        }
      />
      <SetupChecklistCard />
      {isAdmin ? <ChannelSetupAlert /> : null}
      <PageDeliveryFailuresPanel />
      <TimeOffWarnings />
      <UnreachableWarning enabled={isAdmin || hasRole(roles, 'manager')} />
      <IncidentsForYouCard />
      <ShiftNoticesPanel />
      <CoverageRequestsPanel />
      <OnCallWeekCard />
      <YourRotations />
      <TeamRotations canCreate={canCreate} />
      <RecentHandoffsCard />
    </div>
  );
}
