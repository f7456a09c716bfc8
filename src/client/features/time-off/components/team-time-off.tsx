import { CalendarOff } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { useTimeFormat } from '@/lib/use-time-format';
import { useTeamTimeOff } from '../api/get-team-time-off';

/**
 * TeamTimeOff lists, in one place, the time off under way or to come of the people whose time off
 * the viewer manages (decision 256): a manager's, the people in the rotations they manage; an
 * administrator's, everyone. Each person links to their page, where it is changed.
 */
export function TeamTimeOff() {
  const format = useTimeFormat();
  const team = useTeamTimeOff();
  const entries = team.data?.entries ?? [];
  const now = Date.now();
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Team time off</h2>
        </CardTitle>
        <CardDescription>
          Time off of the people in the rotations you manage, now and ahead. {format.timesIn}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {team.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : team.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {getErrorMessage(team.error, 'Failed to fetch time off')}
          </p>
        ) : entries.length === 0 ? (
          <p className="flex items-center gap-2 text-muted-foreground text-sm">
            <CalendarOff className="size-4" aria-hidden="true" />
            Nobody in your rotations has time off planned.
          </p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Team time off">
            {entries.map((entry) => (
              <li
                key={entry.id}
                className="flex flex-col gap-1 p-3 text-sm sm:flex-row sm:items-start sm:justify-between"
              >
                <div className="min-w-0">
                  <Link
                    to={`/people/${entry.person.id}`}
                    className="font-medium underline-offset-4 hover:underline"
                  >
                    {entry.person.name}
                  </Link>
                  {entry.note ? (
                    <p className="mt-0.5 break-words text-muted-foreground">{entry.note}</p>
                  ) : null}
                </div>
                <p className="shrink-0 text-muted-foreground sm:text-right">
                  {format.dateTime(entry.startTime)} – {format.dateTime(entry.endTime)}
                  {Date.parse(entry.startTime) <= now ? (
                    <Badge tone="info" className="ml-2">
                      Under way
                    </Badge>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
