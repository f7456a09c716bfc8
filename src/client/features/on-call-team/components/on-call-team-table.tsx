import {
  matchesTeamSearch,
  type OnCallTeamEntry,
  rotationStatusLabel,
} from '@shared/contracts/on-call-team';
import { Search, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { LoadingState } from '@/components/loading-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { initials } from '@/lib/utils';
import { useOnCallTeam } from '../api/get-on-call-team';
import { notificationPreferenceLabel } from '../lib/labels';

function RotationStatus({ entry }: { entry: OnCallTeamEntry }) {
  const label = rotationStatusLabel(entry);
  const variant =
    entry.rotationCount === 0 ? 'outline' : entry.isInActiveRotation ? 'default' : 'secondary';
  return (
    <div className="space-y-1">
      <Badge variant={variant}>{label}</Badge>
      {entry.rotationAssignments.length > 0 ? (
        <p
          className="max-w-44 truncate text-muted-foreground text-xs"
          title={entry.rotationAssignments.map((a) => a.rotationName).join(', ')}
        >
          {entry.rotationAssignments
            .map((a) => (a.isSuspended ? `${a.rotationName} (suspended)` : a.rotationName))
            .join(', ')}
        </p>
      ) : null}
    </div>
  );
}

/**
 * OnCallTeamTable is the searchable team table (specification section 2): name or email matched
 * case-insensitively; the action reads 'Manage User' for admins and goes to /admin/users, else
 * 'View User' and goes to the person's read-only view, /people/{id} (decision 187).
 */
export function OnCallTeamTable({ isAdmin }: { isAdmin: boolean }) {
  const [search, setSearch] = useState('');
  const team = useOnCallTeam();
  const entries = (team.data ?? []).filter((entry) => matchesTeamSearch(entry, search));

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="border-b py-4">
        <div className="relative max-w-md">
          <Label htmlFor="team-search" className="sr-only">
            Search team members
          </Label>
          <Search
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id="team-search"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search by name or email"
            className="pl-9"
          />
        </div>
      </CardHeader>
      <CardContent className="px-0">
        {team.isPending ? (
          <LoadingState label="Loading team..." className="py-12" />
        ) : team.isError ? (
          <div className="p-6">
            <Alert variant="destructive">
              <AlertTitle>Failed to fetch on-call team</AlertTitle>
              <AlertDescription>Please try again in a moment.</AlertDescription>
            </Alert>
          </div>
        ) : entries.length === 0 ? (
          <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
            <Users className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium text-sm">
              {search.trim() ? 'No team members match your search' : 'No team members yet'}
            </p>
          </div>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="pl-6">Name</TableHead>
                <TableHead className="hidden md:table-cell">Email</TableHead>
                <TableHead>Rotation Status</TableHead>
                <TableHead className="whitespace-normal">Notification Preference</TableHead>
                <TableHead>Timezone</TableHead>
                <TableHead className="pr-6 text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {entries.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell className="pl-6">
                    <div className="flex items-center gap-3">
                      <Avatar className="size-8">
                        <AvatarFallback className="text-foreground text-xs">
                          {initials(entry.name)}
                        </AvatarFallback>
                      </Avatar>
                      <div>
                        <span className="font-medium">{entry.name}</span>
                        <span className="block text-muted-foreground text-xs md:hidden">
                          {entry.email}
                        </span>
                      </div>
                    </div>
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground md:table-cell">
                    {entry.email}
                  </TableCell>
                  <TableCell>
                    <RotationStatus entry={entry} />
                  </TableCell>
                  <TableCell className="whitespace-normal">
                    {notificationPreferenceLabel(entry.notificationPreference)}
                  </TableCell>
                  <TableCell>{entry.timezone}</TableCell>
                  <TableCell className="pr-6 text-right">
                    <Button asChild variant="outline" size="sm">
                      <Link to={isAdmin ? '/admin/users' : `/people/${entry.id}`}>
                        {isAdmin ? 'Manage User' : 'View User'}
                        <span className="sr-only">: {entry.name}</span>
                      </Link>
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
