import type { Incident, IncidentList as IncidentListAnswer } from '@shared/contracts/incidents';
import { SEVERITIES, SEVERITY_LABELS, type Severity } from '@shared/contracts/incidents';
import { Search, Siren } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { IncidentStatusBadge, SeverityBadge } from '@/components/incident-badges';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useTimeFormat } from '@/lib/use-time-format';
import { cn } from '@/lib/utils';
import { useIncidents } from '../api/get-incidents';
import { useRotationNames } from '../api/get-rotation-names';
import {
  assigneesText,
  type IncidentFilters,
  STATUS_FILTER_LABELS,
  STATUS_FILTERS,
  statusFilterCount,
} from '../lib/incident-view';

const ANY = 'any';
const SEARCH_DEBOUNCE_MS = 300;

/**
 * IncidentList is the /incidents screen's body: status tabs with live counts, severity and
 * rotation filters, a title search, and the incidents newest first, a page at a time. The
 * filters live in the address (`filters`, `onFiltersChange`), so a filtered list can be shared.
 */
export function IncidentList({
  filters,
  onFiltersChange,
}: {
  filters: IncidentFilters;
  onFiltersChange: (filters: IncidentFilters) => void;
}) {
  const [search, setSearch] = useState(filters.q);
  const settled = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  // The typed search reaches the address (and the read) once typing pauses.
  useEffect(() => {
    if (settled !== filters.q) onFiltersChange({ ...filters, q: settled });
  }, [settled, filters, onFiltersChange]);

  const incidents = useIncidents(filters);
  const rotations = useRotationNames();
  const pages = incidents.data?.pages ?? [];
  const counts: IncidentListAnswer['counts'] | undefined = pages[0]?.counts;
  const list = pages.flatMap((page) => page.incidents);

  return (
    <div className="grid gap-4">
      <fieldset className="min-w-0">
        <legend className="sr-only">Status</legend>
        <div className="flex flex-wrap gap-1 rounded-lg bg-muted p-1">
          {STATUS_FILTERS.map((status) => {
            const active = filters.status === status;
            return (
              <Button
                key={status}
                type="button"
                size="sm"
                variant="ghost"
                aria-pressed={active}
                className={cn(
                  'h-8 flex-1 sm:flex-none',
                  active && 'bg-background shadow-sm hover:bg-background dark:bg-input/30',
                )}
                onClick={() => onFiltersChange({ ...filters, status })}
              >
                {STATUS_FILTER_LABELS[status]}
                {counts ? (
                  <span className="rounded-full bg-muted-foreground/15 px-1.5 text-xs tabular-nums">
                    {statusFilterCount(counts, status)}
                  </span>
                ) : null}
              </Button>
            );
          })}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem_14rem]">
        <div className="grid gap-1.5">
          <Label htmlFor="incident-search">Search</Label>
          <div className="relative">
            <Search
              aria-hidden
              className="-translate-y-1/2 absolute top-1/2 left-2.5 size-4 text-muted-foreground"
            />
            <Input
              id="incident-search"
              type="search"
              className="pl-8"
              placeholder="Words in the title"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="incident-severity">Severity</Label>
          <Select
            value={filters.severity ?? ANY}
            onValueChange={(value) =>
              onFiltersChange({ ...filters, severity: value === ANY ? null : (value as Severity) })
            }
          >
            <SelectTrigger id="incident-severity" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Any severity</SelectItem>
              {SEVERITIES.map((s) => (
                <SelectItem key={s} value={s}>
                  {SEVERITY_LABELS[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="incident-rotation">Rotation</Label>
          <Select
            value={filters.rotationId === null ? ANY : String(filters.rotationId)}
            onValueChange={(value) =>
              onFiltersChange({ ...filters, rotationId: value === ANY ? null : Number(value) })
            }
          >
            <SelectTrigger id="incident-rotation" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Every rotation</SelectItem>
              {(rotations.data ?? []).map((r) => (
                <SelectItem key={r.id} value={String(r.id)}>
                  {r.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      {incidents.isPending ? (
        <div className="grid gap-2" role="status" aria-label="Loading incidents">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      ) : incidents.isError ? (
        <Alert variant="destructive">
          <AlertTitle>Failed to fetch incidents</AlertTitle>
          <AlertDescription>Please try again.</AlertDescription>
        </Alert>
      ) : list.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center">
          <Siren aria-hidden className="size-5 text-muted-foreground" />
          <p className="font-medium text-sm">No incidents match</p>
          <p className="text-muted-foreground text-sm">
            {filters.status === 'open' && !filters.q && !filters.severity && !filters.rotationId
              ? 'Nothing is waiting for a person right now.'
              : 'Try another status, severity, rotation or search.'}
          </p>
        </div>
      ) : (
        <>
          <ul className="divide-y rounded-lg border" aria-label="Incidents">
            {list.map((incident) => (
              <IncidentRow key={incident.id} incident={incident} />
            ))}
          </ul>
          {incidents.hasNextPage ? (
            <Button
              variant="outline"
              className="justify-self-center"
              pending={incidents.isFetchingNextPage}
              onClick={() => incidents.fetchNextPage()}
            >
              {incidents.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </Button>
          ) : null}
        </>
      )}
    </div>
  );
}

/** IncidentRow is one incident of the list; its title opens /incidents/{id}. */
function IncidentRow({ incident }: { incident: Incident }) {
  const fmt = useTimeFormat();
  return (
    <li className="relative grid gap-2 px-4 py-3 focus-within:bg-muted/50 hover:bg-muted/50">
      <div className="flex flex-wrap items-center gap-2">
        <IncidentStatusBadge status={incident.status} />
        <SeverityBadge severity={incident.severity} />
        <time dateTime={incident.createdAt} className="ml-auto text-muted-foreground text-xs">
          {fmt.dateTime(incident.createdAt)}
        </time>
      </div>
      <Link
        to={`/incidents/${incident.id}`}
        className="break-words font-medium underline-offset-4 after:absolute after:inset-0 hover:underline"
      >
        {incident.title}
      </Link>
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground text-xs">
        <div className="flex gap-1">
          <dt>Rotation:</dt>
          <dd className="text-foreground">{incident.rotation?.name ?? 'None (policy only)'}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Raised by:</dt>
          <dd className="text-foreground">{incident.raisedBy.name}</dd>
        </div>
        <div className="flex gap-1">
          <dt>With:</dt>
          <dd className="text-foreground">{assigneesText(incident)}</dd>
        </div>
      </dl>
    </li>
  );
}
