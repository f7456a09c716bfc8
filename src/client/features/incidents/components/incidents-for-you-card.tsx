import { Siren } from 'lucide-react';
import { Link } from 'react-router';
import { IncidentStatusBadge, SeverityBadge } from '@/components/incident-badges';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useTimeFormat } from '@/lib/use-time-format';
import { useMyIncidents } from '../api/get-my-incidents';
import { stepProgressText } from '../lib/incident-view';
import { IncidentQuickActions } from './incident-actions';

/**
 * IncidentsForYouCard is the dashboard's "Incidents for you": the open incidents that notified
 * the signed-in user, each with Acknowledge and Resolve when allowed and a link to it. Hidden
 * while nothing waits (and while it loads, or when the read fails, so the dashboard does not jump).
 */
export function IncidentsForYouCard() {
  const mine = useMyIncidents();
  const fmt = useTimeFormat();
  const list = mine.data?.incidents ?? [];
  if (list.length === 0) return null;
  const waiting = list.filter((i) => i.status === 'triggered').length;

  return (
    <Card className="gap-0 py-0">
      <CardHeader className="border-b py-5">
        <CardTitle asChild className="flex items-center gap-2">
          <h2>
            <Siren aria-hidden className="size-4 text-muted-foreground" />
            Incidents for you
          </h2>
        </CardTitle>
        <CardDescription>
          {waiting > 0
            ? `${waiting} incident${waiting === 1 ? '' : 's'} waiting for your acknowledgement.`
            : 'Open incidents you were notified of.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="px-0">
        <ul className="divide-y" aria-label="Incidents for you">
          {list.map((incident) => (
            <li key={incident.id} className="grid gap-2 px-6 py-4">
              <div className="flex flex-wrap items-center gap-2">
                <IncidentStatusBadge status={incident.status} />
                <SeverityBadge severity={incident.severity} />
                <time
                  dateTime={incident.createdAt}
                  className="ml-auto text-muted-foreground text-xs"
                >
                  {fmt.dateTime(incident.createdAt)}
                </time>
              </div>
              <Link
                to={`/incidents/${incident.id}`}
                className="break-words font-medium underline-offset-4 hover:underline"
              >
                {incident.title}
              </Link>
              <p className="text-muted-foreground text-xs">
                {incident.rotation ? `${incident.rotation.name} · ` : ''}
                {stepProgressText(incident)} · raised by {incident.raisedBy.name}
              </p>
              {incident.actions.acknowledge || incident.actions.resolve ? (
                <div className="flex flex-wrap gap-2">
                  <IncidentQuickActions incident={incident} label={incident.title} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
