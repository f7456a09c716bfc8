import { CalendarDays, type LucideIcon, Mail, Siren, Ticket } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NOT_AVAILABLE_YET } from '../lib/not-available';

/** The calendar apps can already subscribe to Baton's iCalendar feed (decision 057). */
const CALENDAR_FEED = {
  text: 'You can already subscribe to Baton’s iCalendar feed from the',
  to: '/calendar',
  link: 'Calendar page',
};

const INTEGRATIONS: {
  name: string;
  description: string;
  icon: LucideIcon;
  /** what already works in its place: a sentence ending in a link to where it is */
  instead?: { text: string; to: string; link: string };
}[] = [
  {
    name: 'Google calendar',
    description: 'Show your on-call shifts in Google Calendar.',
    icon: CalendarDays,
    instead: CALENDAR_FEED,
  },
  {
    name: 'Outlook',
    description: 'Show your on-call shifts in Outlook.',
    icon: Mail,
    instead: CALENDAR_FEED,
  },
  {
    name: 'PagerDuty',
    description: 'Route PagerDuty incidents to whoever holds the baton.',
    icon: Siren,
    instead: {
      text: 'Monitoring that sends to PagerDuty’s Events API can already raise incidents in Baton through an integration key on a rotation’s page. See',
      to: '/help/moving-from-pagerduty',
      link: 'Moving from PagerDuty',
    },
  },
  {
    name: 'Jira Service Desk',
    description: 'Link service desk tickets to rotations.',
    icon: Ticket,
  },
];

const idOf = (name: string) => `integration-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/**
 * IntegrationsPanel lists the integrations; none is available yet, so each shows 'Not connected'.
 * The two calendar apps point to what already works: the Calendar page's iCalendar feeds; so does
 * PagerDuty: its Events API format comes in through a rotation's integrations (issue 17). The
 * Connect buttons the specification keeps inert are disabled and say 'Not available yet', tied
 * to them by aria-describedby (decision 188).
 */
export function IntegrationsPanel() {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Integrations</h2>
        </CardTitle>
        <CardDescription>
          Connections to other tools. They are not available in this version of Baton yet.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-lg border">
          {INTEGRATIONS.map(({ name, description, icon: Icon, instead }) => (
            <li
              key={name}
              className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="flex items-start gap-3">
                <div className="flex size-9 shrink-0 items-center justify-center rounded-md bg-muted">
                  <Icon className="size-4" aria-hidden="true" />
                </div>
                <div>
                  <h3 className="font-medium text-sm">{name}</h3>
                  <p className="text-muted-foreground text-sm">{description}</p>
                  {instead ? (
                    <p className="mt-1 text-sm">
                      {instead.text}{' '}
                      <Link
                        to={instead.to}
                        className="font-medium text-primary underline underline-offset-4 hover:no-underline"
                      >
                        {instead.link}
                      </Link>
                      .
                    </p>
                  ) : null}
                </div>
              </div>
              <div className="flex flex-wrap items-center gap-3 sm:shrink-0 sm:justify-end">
                <Badge variant="outline">Not connected</Badge>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled
                  aria-label={`Connect ${name}`}
                  aria-describedby={`${idOf(name)}-unavailable`}
                >
                  Connect
                </Button>
                <span id={`${idOf(name)}-unavailable`} className="text-muted-foreground text-xs">
                  {NOT_AVAILABLE_YET}
                </span>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
