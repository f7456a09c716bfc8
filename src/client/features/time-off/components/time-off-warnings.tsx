import { CalendarX2 } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { useTimeFormat } from '@/lib/use-time-format';
import { useTimeOffWarnings } from '../api/get-time-off-warnings';

/**
 * TimeOffWarnings warns ahead of what time off does to the rotations (issue 18): each gap of the
 * next two weeks (everyone away: nobody available to hold the baton), naming its window, and each
 * schedule entry whose person is away. Every rotation's on the dashboard; one rotation's on its
 * page (`rotationId`). Nothing shows while there is nothing to warn of.
 */
export function TimeOffWarnings({ rotationId }: { rotationId?: number }) {
  const format = useTimeFormat();
  const warnings = useTimeOffWarnings(rotationId);
  const gaps = warnings.data?.gaps ?? [];
  const collisions = warnings.data?.collisions ?? [];
  if (gaps.length === 0 && collisions.length === 0) return null;
  const named = (name: string, id: number) =>
    rotationId === undefined ? (
      <Link to={`/rotations/${id}`} className="font-medium underline underline-offset-4">
        {name}
      </Link>
    ) : null;
  return (
    <Alert tone="warning">
      <CalendarX2 aria-hidden="true" />
      <AlertTitle className="line-clamp-none">
        {gaps.length > 0
          ? 'Nobody is available for some shifts ahead'
          : 'Time off collides with the schedule'}
      </AlertTitle>
      <AlertDescription>
        <ul className="grid gap-1">
          {gaps.map((g) => (
            <li key={`gap-${g.rotationId}-${g.start}`}>
              {named(g.rotationName, g.rotationId)}
              {rotationId === undefined ? ': ' : ''}
              everyone is away from {format.dateTime(g.start)} to {format.dateTime(g.end)}. Arrange
              cover or change someone&apos;s time off.
            </li>
          ))}
          {collisions.map((c) => (
            <li key={`entry-${c.scheduleEntryId}`}>
              {named(c.rotationName, c.rotationId)}
              {rotationId === undefined ? ': ' : ''}
              {c.person.name} is away ({format.dateTime(c.awayStart)} – {format.dateTime(c.awayEnd)}
              ) during their schedule entry {format.dateTime(c.entryStart)} –{' '}
              {format.dateTime(c.entryEnd)}.
            </li>
          ))}
        </ul>
      </AlertDescription>
    </Alert>
  );
}
