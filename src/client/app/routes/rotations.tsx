import { can } from '@shared/domain/permissions';
import {
  CalendarPlus,
  CirclePause,
  CirclePlay,
  LayoutList,
  type LucideIcon,
  Plus,
  UserCheck,
} from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useRotationsList } from '@/features/rotations/api/get-rotations';
import { CreateRotationDialog } from '@/features/rotations/components/create-rotation-dialog';
import { EmptyState } from '@/features/rotations/components/empty-state';
import { RotationTable } from '@/features/rotations/components/rotation-table';
import { type RotationTab, rotationsInTab } from '@/features/rotations/lib/rotation-view';
import { statusLine } from '@/lib/api-client';
import { useAuth } from '@/lib/use-auth';

const TABS: { value: RotationTab; label: string; empty: { title: string; text: string } }[] = [
  {
    value: 'all',
    label: 'All Rotations',
    empty: {
      title: 'No rotations yet',
      text: 'Get started by creating your first on-call rotation',
    },
  },
  {
    value: 'active',
    label: 'Active Status',
    empty: {
      title: 'No active status rotations',
      text: 'There are no rotations with active status',
    },
  },
  {
    value: 'suspended',
    label: 'Suspended',
    empty: { title: 'No suspended rotations', text: 'There are no suspended rotations' },
  },
  {
    value: 'on-call',
    label: 'With On-Call',
    empty: {
      title: 'No active on-call rotations',
      text: 'There are no rotations with an active on-call engineer',
    },
  },
];

const EMPTY_ICONS: Record<RotationTab, LucideIcon> = {
  all: CalendarPlus,
  active: CirclePlay,
  suspended: CirclePause,
  'on-call': UserCheck,
};

function SummaryStat({
  label,
  value,
  icon: Icon,
}: {
  label: string;
  value: number;
  icon: LucideIcon;
}) {
  return (
    <Card className="flex-row items-center gap-4 px-5 py-4">
      <div className="flex size-10 items-center justify-center rounded-lg bg-muted">
        <Icon className="size-5 text-muted-foreground" aria-hidden="true" />
      </div>
      <div>
        <p className="text-muted-foreground text-sm">{label}</p>
        <p className="font-semibold text-2xl tabular-nums">{value}</p>
      </div>
    </Card>
  );
}

function ListSkeleton() {
  return (
    <div className="grid gap-4" role="status" aria-label="Loading rotations">
      <div className="grid gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-[74px] rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-9 w-full max-w-xl" />
      <div className="grid gap-2 rounded-xl border p-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    </div>
  );
}

/**
 * RotationsPage is the rotations list: summary strip, four tabs with counts, and the 'Create New
 * Rotation' dialog, open from the start when `createOpen` (the /rotations/new screen).
 */
export function RotationsPage({ createOpen = false }: { createOpen?: boolean }) {
  const { roles } = useAuth();
  const navigate = useNavigate();
  const canCreate = can(roles, 'rotation.create');
  const rotations = useRotationsList();
  const [dialogOpen, setDialogOpen] = useState(createOpen && canCreate);
  const [tab, setTab] = useState<RotationTab>('all');
  const list = rotations.data ?? [];

  const setCreateOpen = (open: boolean) => {
    setDialogOpen(open);
    // Closing the dialog on /rotations/new leaves that address for the list's own.
    if (!open && createOpen) navigate('/rotations', { replace: true });
  };

  const createButton = (label: string) => (
    <Button onClick={() => setCreateOpen(true)}>
      <Plus aria-hidden="true" />
      {label}
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Rotations"
        description="Manage on-call rotation schedules and team assignments"
        actions={canCreate ? createButton('New Rotation') : null}
      />
      {rotations.isPending ? (
        <ListSkeleton />
      ) : rotations.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {`Failed to fetch rotations: ${statusLine(rotations.error)}`}
        </p>
      ) : (
        <div className="grid grid-cols-1 gap-6">
          {list.length > 0 ? (
            <section aria-label="Summary" className="grid gap-4 sm:grid-cols-3">
              <SummaryStat label="All Rotations" value={list.length} icon={LayoutList} />
              <SummaryStat
                label="Active"
                value={rotationsInTab(list, 'active').length}
                icon={CirclePlay}
              />
              <SummaryStat
                label="Suspended"
                value={rotationsInTab(list, 'suspended').length}
                icon={CirclePause}
              />
            </section>
          ) : null}
          <Tabs value={tab} onValueChange={(v) => setTab(v as RotationTab)}>
            <TabsList className="h-auto w-full flex-wrap justify-start sm:w-fit">
              {TABS.map((t) => {
                const count = rotationsInTab(list, t.value).length;
                return (
                  <TabsTrigger key={t.value} value={t.value} className="flex-none">
                    {t.label}
                    {count > 0 ? (
                      <span className="ml-1 rounded-full bg-muted-foreground/15 px-1.5 py-px font-medium text-[11px] tabular-nums">
                        {count}
                      </span>
                    ) : null}
                  </TabsTrigger>
                );
              })}
            </TabsList>
            {TABS.map((t) => {
              const shown = rotationsInTab(list, t.value);
              return (
                <TabsContent key={t.value} value={t.value} className="mt-2">
                  {shown.length === 0 ? (
                    <EmptyState
                      icon={EMPTY_ICONS[t.value]}
                      title={t.empty.title}
                      description={t.empty.text}
                      action={
                        t.value === 'all' && canCreate ? createButton('Create Rotation') : undefined
                      }
                    />
                  ) : (
                    <Card className="py-2">
                      <div className="px-4">
                        <RotationTable rotations={shown} />
                      </div>
                    </Card>
                  )}
                </TabsContent>
              );
            })}
          </Tabs>
        </div>
      )}
      {canCreate ? <CreateRotationDialog open={dialogOpen} onOpenChange={setCreateOpen} /> : null}
    </>
  );
}
