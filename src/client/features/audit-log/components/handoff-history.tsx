import { AUDIT_LOG_PAGE_SIZE } from '@shared/contracts/audit';
import { Download, History, Search, X } from 'lucide-react';
import { useState } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { handoffHistoryParams, useHandoffHistory } from '../api/get-handoff-history';
import { STATUS_FILTER_OPTIONS } from '../lib/labels';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { HandoffEntry } from './handoff-entry';

const ALL_STATUSES = 'all';

/** The rotation the history is limited to (the page's ?rotationId=), with its name once read. */
export type HistoryRotationFilter = { id: number; name: string | null };

/**
 * HandoffHistory is the Audit Log's handoff list: search (rotation, from-person, to-person), the
 * status filter, an optional rotation (a removable 'Rotation: <name>' chip), 20 entries growing by
 * 20 with 'Load more', and the CSV export for admins.
 */
export function HandoffHistory({
  canExport,
  rotation = null,
  onClearRotation,
}: {
  canExport: boolean;
  rotation?: HistoryRotationFilter | null;
  onClearRotation?: () => void;
}) {
  const [searchText, setSearchText] = useState('');
  const [status, setStatus] = useState<string>(ALL_STATUSES);
  const search = useDebouncedValue(searchText, 300);
  const filter = {
    search: search.trim(),
    status: status === ALL_STATUSES ? '' : status,
    rotationId: rotation?.id ?? null,
  };
  const rotationLabel = rotation ? `Rotation: ${rotation.name ?? `#${rotation.id}`}` : '';
  const history = useHandoffHistory(filter);

  const pages = history.data?.pages ?? [];
  const entries = pages.flatMap((page) => page.entries);
  const loadedCount = pages.length * AUDIT_LOG_PAGE_SIZE;
  // Specification section 9: the button shows only while the shown count equals the loaded
  // count; the server's cursor also says whether anything older exists.
  const showLoadMore = entries.length === loadedCount && history.hasNextPage;
  const filtered = Boolean(filter.search || filter.status || filter.rotationId);
  const exportHref = `/api/audit-log/handoffs.csv?${handoffHistoryParams(filter)}`;

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="gap-4 border-b py-5">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1.5">
            <CardTitle asChild>
              <h2>Handoff History</h2>
            </CardTitle>
            <CardDescription>Every time the baton changed hands, newest first.</CardDescription>
          </div>
          {canExport ? (
            <Button asChild variant="outline" size="sm">
              <a href={exportHref} download>
                <Download aria-hidden="true" />
                Export CSV
              </a>
            </Button>
          ) : null}
        </div>
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="relative flex-1">
            <Label htmlFor="audit-search" className="sr-only">
              Search handoffs
            </Label>
            <Search
              className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id="audit-search"
              type="search"
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
              placeholder="Search by rotation or person"
              className="pl-9"
              maxLength={200}
            />
          </div>
          <Select value={status} onValueChange={setStatus}>
            <SelectTrigger className="sm:w-48" aria-label="Filter by status">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_STATUSES}>All statuses</SelectItem>
              {STATUS_FILTER_OPTIONS.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {rotation ? (
          <ul className="flex flex-wrap gap-2" aria-label="Active filters">
            <li className="inline-flex items-center gap-1 rounded-full border bg-secondary py-0.5 pr-1 pl-3 font-medium text-secondary-foreground text-sm">
              {rotationLabel}
              {onClearRotation ? (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-7 rounded-full"
                  aria-label={`Remove filter ${rotationLabel}`}
                  onClick={onClearRotation}
                >
                  <X aria-hidden="true" />
                </Button>
              ) : null}
            </li>
          </ul>
        ) : null}
      </CardHeader>
      <CardContent className="px-0">
        {history.isPending ? (
          <LoadingState label="Loading handoffs..." className="py-12" />
        ) : history.isError ? (
          <div className="p-6">
            <Alert variant="destructive">
              <AlertTitle>Failed to fetch handoffs</AlertTitle>
              <AlertDescription>
                The handoff history could not be loaded. Please try again.
              </AlertDescription>
            </Alert>
          </div>
        ) : entries.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
            <History className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium text-sm">
              {filtered ? 'No handoffs match your search' : 'No handoffs recorded yet'}
            </p>
            {filtered ? (
              <p className="text-muted-foreground text-sm">Try another name, rotation or status.</p>
            ) : null}
          </div>
        ) : (
          <>
            <ul className="divide-y" aria-label="Handoffs" aria-busy={history.isFetching}>
              {entries.map((handoff) => (
                <HandoffEntry key={handoff.id} handoff={handoff} />
              ))}
            </ul>
            {showLoadMore ? (
              <div className="flex justify-center border-t p-4">
                <Button
                  variant="outline"
                  onClick={() => history.fetchNextPage()}
                  pending={history.isFetchingNextPage}
                >
                  {history.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
