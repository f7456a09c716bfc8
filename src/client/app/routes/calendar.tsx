import { dayKeyOf, gridBounds, monthGrid } from '@shared/domain/calendar';
import { can } from '@shared/domain/permissions';
import { canArrangeCover } from '@shared/domain/permissions-rotation';
import { hasRole, type Role } from '@shared/domain/roles';
import { useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useCalendar } from '@/features/calendar/api/get-calendar';
import { CalendarFeedsCard } from '@/features/calendar/components/calendar-feeds-card';
import { CalendarLegend } from '@/features/calendar/components/calendar-legend';
import {
  DayDetails,
  type ShiftCoverAction,
  type ShiftCoverChoice,
} from '@/features/calendar/components/day-details';
import { MonthGrid } from '@/features/calendar/components/month-grid';
import { TeamTimeline } from '@/features/calendar/components/team-timeline';
import {
  currentMonth,
  type DayShift,
  monthParam,
  neighbours,
  parseMonth,
} from '@/features/calendar/lib/calendar-view';
import {
  CoverPlanDialog,
  type CoverPlanTarget,
} from '@/features/cover-plans/components/cover-plan-dialog';
import { CoverageRequestsPanel } from '@/features/coverage/components/coverage-requests-panel';
import { rotationsListQueryOptions } from '@/features/rotations/api/get-rotations';
import { getErrorMessage } from '@/lib/api-client';
import { formatMonth } from '@/lib/format-time';
import { useAuth } from '@/lib/use-auth';
import { useViewerTimeZone } from '@/lib/use-time-format';

/**
 * useArrangeableRotations: the ids of the rotations, not suspended, where the viewer may arrange
 * cover for someone else (canArrangeCover, the server's rule): read from the rotations list, and
 * only for managers and administrators, whom it can concern.
 */
function useArrangeableRotations(viewerId: number | null, roles: Role[]): Set<number> {
  const mayArrange = viewerId !== null && hasRole(roles, 'manager');
  const list = useQuery({ ...rotationsListQueryOptions(), enabled: mayArrange });
  return useMemo(() => {
    if (viewerId === null || !mayArrange) return new Set<number>();
    const actor = { roles, id: viewerId };
    return new Set(
      (list.data ?? [])
        .filter(
          (r) =>
            !r.suspended &&
            canArrangeCover(actor, {
              createdById: r.createdById,
              memberUserIds: r.members.map((m) => m.userId),
            }),
        )
        .map((r) => r.id),
    );
  }, [mayArrange, list.data, roles, viewerId]);
}

/**
 * CalendarPage (/calendar): a month from Sunday to Saturday with who is on call in each rotation
 * each day, in the signed-in user's time zone; Prev, Today and Next; a rotation filter; a legend;
 * the chosen day's details; open coverage requests (shown only when there are some); and the
 * calendar feed links.
 */
export function CalendarPage() {
  const { user, roles } = useAuth();
  const { timeZone } = useViewerTimeZone();
  const [cover, setCover] = useState<(CoverPlanTarget & { arrange: boolean }) | null>(null);
  const [params, setParams] = useSearchParams();
  const now = new Date();
  const todayKey = dayKeyOf(now, timeZone);
  const shown = parseMonth(params.get('month')) ?? currentMonth(now, timeZone);
  const rotationParam = params.get('rotation');
  const weeks = useMemo(() => monthGrid(shown.year, shown.month), [shown.year, shown.month]);
  const { from, to } = useMemo(() => {
    const bounds = gridBounds(weeks, timeZone);
    return { from: bounds.from.toISOString(), to: bounds.to.toISOString() };
  }, [weeks, timeZone]);
  const calendar = useCalendar(from, to);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);

  const rotations = calendar.data?.rotations ?? [];
  const arrangeable = useArrangeableRotations(user?.id ?? null, roles);
  const rotationId =
    rotationParam && rotations.some((r) => String(r.id) === rotationParam)
      ? Number(rotationParam)
      : null;
  const days = weeks.flat();
  const selected =
    days.find((d) => d.key === selectedKey) ??
    days.find((d) => d.key === todayKey) ??
    days.find((d) => d.inMonth && d.day === 1) ??
    days[0];

  const go = (month: { year: number; month: number } | null) => {
    const next = new URLSearchParams(params);
    if (month) next.set('month', monthParam(month));
    else next.delete('month');
    setParams(next, { replace: true });
    setSelectedKey(month ? null : todayKey);
  };
  const filter = (value: string) => {
    const next = new URLSearchParams(params);
    if (value === 'all') next.delete('rotation');
    else next.set('rotation', value);
    setParams(next, { replace: true });
  };
  const { prev, next } = neighbours(shown);

  // A shift still to come (not a coverage window) offers cover: one's own to ask, anyone's to
  // arrange in the rotations where the viewer may (administrators, managers of the rotation).
  const coverActionOf = (shift: DayShift, rotationId: number): ShiftCoverAction | null => {
    if (shift.shift.end.getTime() <= now.getTime()) return null;
    if (shift.shift.source === 'coverage' || shift.shift.source === 'history') return null;
    if (shift.mine && can(roles, 'baton.hold')) return 'ask';
    return arrangeable.has(rotationId) ? 'arrange' : null;
  };
  const openCover = (choice: ShiftCoverChoice) =>
    setCover({
      rotation: choice.rotation,
      requesterId: choice.userId,
      window: { start: choice.start, end: choice.end },
      arrange: choice.action === 'arrange',
    });
  const coverShifts = (
    cover ? (rotations.find((r) => r.id === cover.rotation.id)?.shifts ?? []) : []
  )
    .filter((s) => s.source === 'rotation' || s.source === 'schedule')
    .map((s) => ({ userId: s.userId, start: new Date(s.start), end: new Date(s.end) }));

  return (
    <div className="space-y-4">
      <PageHeader
        title="Calendar"
        description="Who is on call in each rotation, day by day."
        showTimeZone
      />
      <TeamTimeline rotationId={rotationId} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" size="sm" onClick={() => go(prev)}>
            <ChevronLeft aria-hidden="true" />
            Prev
          </Button>
          <Button variant="outline" size="sm" onClick={() => go(null)}>
            Today
          </Button>
          <Button variant="outline" size="sm" onClick={() => go(next)}>
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
          <h2 className="ml-2 whitespace-nowrap font-semibold text-lg" aria-live="polite">
            {formatMonth(shown)}
          </h2>
        </div>
        <Select value={rotationId === null ? 'all' : String(rotationId)} onValueChange={filter}>
          <SelectTrigger className="sm:w-64" aria-label="Rotation filter">
            <SelectValue placeholder="All rotations" />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">All rotations</SelectItem>
            {rotations.map((r) => (
              <SelectItem key={r.id} value={String(r.id)}>
                {r.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {calendar.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Failed to fetch the calendar</AlertTitle>
          <AlertDescription>
            {getErrorMessage(calendar.error, 'Could not load who is on call. Please try again.')}
          </AlertDescription>
        </Alert>
      ) : null}
      {calendar.isPending ? (
        <Skeleton className="h-5 w-2/3" />
      ) : (
        <CalendarLegend rotations={rotations} rotationId={rotationId} />
      )}
      <div className="relative">
        <MonthGrid
          weeks={weeks}
          calendar={calendar.data}
          timeZone={timeZone}
          todayKey={todayKey}
          selectedKey={selected.key}
          onSelect={(day) => setSelectedKey(day.key)}
          rotationId={rotationId}
          viewerId={user?.id ?? null}
        />
      </div>
      <CoverageRequestsPanel />
      <DayDetails
        day={selected}
        calendar={calendar.data}
        timeZone={timeZone}
        rotationId={rotationId}
        viewerId={user?.id ?? null}
        today={selected.key === todayKey}
        coverActionOf={coverActionOf}
        onCover={openCover}
      />
      {user ? (
        <CoverPlanDialog
          target={cover}
          viewerId={user.id}
          arrange={cover?.arrange ?? false}
          people={calendar.data?.people ?? []}
          shifts={coverShifts}
          onOpenChange={(open) => {
            if (!open) setCover(null);
          }}
        />
      ) : null}
      <CalendarFeedsCard rotations={rotations.map((r) => ({ id: r.id, name: r.name }))} />
    </div>
  );
}
