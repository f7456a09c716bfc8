import { AUDIT_LOG_PAGE_SIZE } from '@shared/contracts/audit';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useTimeFormat } from '@/lib/use-time-format';
import { useAdminEvents } from '../api/get-admin-events';
import { adminActionLabel, detailsSummary } from '../lib/labels';

/** AdminTrail is the administrative audit trail: who did what to which user or rotation, and when. */
export function AdminTrail() {
  const fmt = useTimeFormat();
  const trail = useAdminEvents();
  const pages = trail.data?.pages ?? [];
  const events = pages.flatMap((page) => page.events);
  const showLoadMore = events.length === pages.length * AUDIT_LOG_PAGE_SIZE && trail.hasNextPage;

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="border-b py-5">
        <CardTitle asChild>
          <h2>Administrative Audit Trail</h2>
        </CardTitle>
        <CardDescription>
          Invitations, deleted users, role changes and changes to rotations and their members.
        </CardDescription>
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
          <p className="px-6 py-12 text-center text-muted-foreground text-sm">
            No administrative actions recorded yet
          </p>
        ) : (
          <>
            <Table>
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
                  <TableRow key={event.id}>
                    <TableCell className="pl-6 text-muted-foreground">
                      <time dateTime={event.createdAt}>{fmt.dateTime(event.createdAt)}</time>
                    </TableCell>
                    <TableCell>{event.actor?.name ?? 'Deleted user or system'}</TableCell>
                    <TableCell className="font-medium">{adminActionLabel(event.action)}</TableCell>
                    <TableCell>{event.target}</TableCell>
                    <TableCell className="max-w-xs truncate pr-6 text-muted-foreground">
                      {detailsSummary(event.details) || '—'}
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
