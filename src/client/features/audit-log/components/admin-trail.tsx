import {
  ADMIN_ACTION_LABELS,
  ADMIN_ACTIONS,
  AUDIT_LOG_PAGE_SIZE,
  adminActionLabel,
} from '@shared/contracts/audit';
import { Download, Search } from 'lucide-react';
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
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useTimeFormat } from '@/lib/use-time-format';
import { adminEventsParams, useAdminEvents } from '../api/get-admin-events';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { AdminEventDetails } from './admin-event-details';

const ALL_ACTIONS = 'all';

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
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1.5">
            <CardTitle asChild>
              <h2>Administrative Audit Trail</h2>
            </CardTitle>
            <CardDescription>
              Invitations, deleted users, role changes, changes to rotations and their members, and
              pages acknowledged, escalated or resolved.
            </CardDescription>
          </div>
          <Button asChild variant="outline" size="sm">
            <a href={exportHref} download>
              <Download aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="relative flex-1">
            <Label htmlFor="admin-trail-search" className="sr-only">
              Search the audit trail
            </Label>
            <Search
              className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id="admin-trail-search"
              type="search"
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
              placeholder="Search by person, rotation or action"
              className="pl-9"
              maxLength={200}
            />
          </div>
          <Select value={action} onValueChange={setAction}>
            <SelectTrigger className="sm:w-56" aria-label="Filter by action">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_ACTIONS}>All actions</SelectItem>
              {ADMIN_ACTIONS.map((value) => (
                <SelectItem key={value} value={value}>
                  {ADMIN_ACTION_LABELS[value]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
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
              <div className="flex justify-center border-t p-4">
                <Button
                  variant="outline"
                  onClick={() => trail.fetchNextPage()}
                  pending={trail.isFetchingNextPage}
                >
                  {trail.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
