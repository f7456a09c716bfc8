import { AUDIT_LOG_PAGE_SIZE } from '@shared/contracts/audit';
import { History, X } from 'lucide-react';
import { useState } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { handoffHistoryParams, useHandoffHistory } from '../api/get-handoff-history';
import { STATUS_FILTER_OPTIONS } from '../lib/labels';
import { HandoffEntry } from './handoff-entry';
import {
  ExportCsvLink,
  FilterSelect,
  ListHeading,
  LoadMoreButton,
  SearchBox,
} from './list-controls';

const ALL_STATUSES = 'all';
const STATUS_OPTIONS = [{ value: ALL_STATUSES, label: 'All statuses' }, ...STATUS_FILTER_OPTIONS];

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
        <ListHeading
          title="Handoff History"
          description="Every time the baton changed hands, newest first."
          action={canExport ? <ExportCsvLink href={exportHref} /> : null}
        />
        <div className="flex flex-col gap-3 sm:flex-row">
          <SearchBox
            id="audit-search"
            label="Search handoffs"
            placeholder="Search by rotation or person"
            value={searchText}
            onChange={setSearchText}
          />
          <FilterSelect
            label="Filter by status"
            value={status}
            onChange={setStatus}
            options={STATUS_OPTIONS}
            className="sm:w-48"
          />
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
              <LoadMoreButton
                loading={history.isFetchingNextPage}
                onLoadMore={() => history.fetchNextPage()}
              />
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
