import {
  ADMIN_ACTION_LABELS,
  ADMIN_ACTIONS,
  AUDIT_LOG_PAGE_SIZE,
  adminActionLabel,
} from '@shared/contracts/audit';
import { useState } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useTimeFormat } from '@/lib/use-time-format';
import { adminEventsParams, useAdminEvents } from '../api/get-admin-events';
import { AdminEventDetails } from './admin-event-details';
import {
  ExportCsvLink,
  FilterSelect,
  ListHeading,
  LoadMoreButton,
  SearchBox,
} from './list-controls';

const ALL_ACTIONS = 'all';
const ACTION_OPTIONS = [
  { value: ALL_ACTIONS, label: 'All actions' },
  ...ADMIN_ACTIONS.map((value) => ({ value, label: ADMIN_ACTION_LABELS[value] })),
];

/**
 * AdminTrail is the administrative audit trail: who did what to which user, invitation, rotation
 * or page, and when; searched (actor, target, action) and filtered by action on the server,
 * exported as CSV with the same filters, 20 events growing by 20 with 'Load more'.
 */
export function AdminTrail() {
  const fmt = useTimeFormat();
  const [searchText, setSearchText] = useState('');
  const [action, setAction] = useState<string>(ALL_ACTIONS);
  const search = useDebouncedValue(searchText, 300);
  const filter = { search: search.trim(), action: action === ALL_ACTIONS ? '' : action };
  const trail = useAdminEvents(filter);
  const pages = trail.data?.pages ?? [];
  const events = pages.flatMap((page) => page.events);
  const showLoadMore = events.length === pages.length * AUDIT_LOG_PAGE_SIZE && trail.hasNextPage;
  const filtered = Boolean(filter.search || filter.action);
  const exportHref = `/api/audit-log/admin-events.csv?${adminEventsParams(filter)}`;

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="gap-4 border-b py-5">
        <ListHeading
          title="Administrative Audit Trail"
          description="Invitations, deleted users, role changes, changes to rotations and their members, and pages acknowledged, escalated or resolved."
          action={<ExportCsvLink href={exportHref} />}
        />
        <div className="flex flex-col gap-3 sm:flex-row">
          <SearchBox
            id="admin-trail-search"
            label="Search the audit trail"
            placeholder="Search by person, rotation or action"
            value={searchText}
            onChange={setSearchText}
          />
          <FilterSelect
            label="Filter by action"
            value={action}
            onChange={setAction}
            options={ACTION_OPTIONS}
            className="sm:w-56"
          />
        </div>
      </CardHeader>
      <CardContent className="px-0">
        {trail.isPending ? (
          <LoadingState label="Loading audit trail..." className="py-12" />
        ) : trail.isError ? (
          <div className="p-6">
            <Alert variant="destructive">
              <AlertTitle>Failed to fetch the audit trail</AlertTitle>
              <AlertDescription>Please try again.</AlertDescription>
            </Alert>
          </div>
        ) : events.length === 0 ? (
          <div className="px-6 py-12 text-center text-sm">
            <p className={filtered ? 'font-medium' : 'text-muted-foreground'}>
              {filtered ? 'No actions match your search' : 'No administrative actions recorded yet'}
            </p>
            {filtered ? (
              <p className="mt-2 text-muted-foreground">Try another name, rotation or action.</p>
            ) : null}
          </div>
        ) : (
          <>
            <Table aria-label="Administrative actions" aria-busy={trail.isFetching}>
              <TableHeader>
                <TableRow>
                  <TableHead className="pl-6">Time</TableHead>
                  <TableHead>Actor</TableHead>
                  <TableHead>Action</TableHead>
                  <TableHead>Target</TableHead>
                  <TableHead className="pr-6">Details</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {events.map((event) => (
                  <TableRow key={event.id} className="align-top">
                    <TableCell className="pl-6 text-muted-foreground">
                      <time dateTime={event.createdAt}>{fmt.dateTime(event.createdAt)}</time>
                    </TableCell>
                    <TableCell>{event.actor?.name ?? 'Deleted user or system'}</TableCell>
                    <TableCell className="font-medium">{adminActionLabel(event.action)}</TableCell>
                    <TableCell className="whitespace-normal break-words">{event.target}</TableCell>
                    <TableCell className="min-w-56 max-w-md whitespace-normal pr-6 text-muted-foreground">
                      <AdminEventDetails details={event.details} fmt={fmt} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {showLoadMore ? (
              <LoadMoreButton
                loading={trail.isFetchingNextPage}
                onLoadMore={() => trail.fetchNextPage()}
              />
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
