import type { Incident } from '@shared/contracts/incidents';
import { URGENCY_LABELS } from '@shared/domain/paging';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { IncidentStatusBadge, SeverityBadge } from '@/components/incident-badges';
import { LinkedText } from '@/components/linked-text';
import { useMinuteClock } from '@/components/timeline-chart';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useTimeFormat } from '@/lib/use-time-format';
import { alertFactsOf, assigneesText, responseTimes, stepProgressText } from '../lib/incident-view';
import { AddNoteForm } from './add-note-form';
import { IncidentActions } from './incident-actions';
import { IncidentAlerts } from './incident-alerts';
import { IncidentTimeline } from './incident-timeline';

const linkClass = 'font-medium underline-offset-4 hover:underline';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-muted-foreground text-xs">{term}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

function TextSection({ title, text }: { title: string; text: string | null }) {
  return (
    <section className="grid gap-1" aria-label={title}>
      <h3 className="font-medium text-muted-foreground text-xs">{title}</h3>
      {text ? (
        <p className="whitespace-pre-wrap break-words text-sm">
          <LinkedText text={text} />
        </p>
      ) : (
        <p className="text-muted-foreground text-sm">Not given</p>
      )}
    </section>
  );
}

/** IncidentHeading is the incident's title with its severity, status and urgency. */
export function IncidentHeading({ incident }: { incident: Incident }) {
  const alerts = alertFactsOf(incident);
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-muted-foreground text-sm tabular-nums">
          Incident #{incident.id}
        </span>
        <SeverityBadge severity={incident.severity} />
        <IncidentStatusBadge status={incident.status} />
        <Badge variant={incident.urgency === 'high' ? 'secondary' : 'outline'}>
          {URGENCY_LABELS[incident.urgency]} urgency
        </Badge>
        {alerts?.storm ? <Badge tone="warning">Alert storm</Badge> : null}
      </div>
      <h1 className="break-words font-semibold text-2xl tracking-tight">{incident.title}</h1>
    </div>
  );
}

/**
 * IncidentDetail is the body of /incidents/{id}: what the viewer may do, the incident's fields,
 * its timeline with the note box, and beside them where it is on its policy and who has it.
 */
export function IncidentDetail({ incident }: { incident: Incident }) {
  const fmt = useTimeFormat();
  const times = responseTimes(incident, useMinuteClock());
  const open = incident.status !== 'resolved';
  const policy = incident.escalationPolicy;
  const alerts = alertFactsOf(incident);
  return (
    <div className="grid gap-6">
      <IncidentActions incident={incident} />
      <dl className="grid grid-cols-2 gap-3 rounded-lg border bg-card px-4 py-3 sm:w-fit sm:grid-cols-[auto_auto] sm:gap-x-10">
        <Fact term="Time to acknowledge">{times.toAcknowledge}</Fact>
        <Fact term="Time to resolve">{times.toResolve}</Fact>
      </dl>
      {incident.resolutionNote ? (
        <Alert tone="success">
          <AlertTitle>Resolution note</AlertTitle>
          <AlertDescription>
            <p className="whitespace-pre-wrap break-words">
              <LinkedText text={incident.resolutionNote} />
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      {alerts?.storm ? (
        <Alert tone="warning">
          <AlertTitle>Alert storm</AlertTitle>
          <AlertDescription>
            {alerts.integration?.name ?? 'The integration'} raised more new incidents in a minute
            than its limit, so its further alerts were folded into this one incident instead of
            paging for each. Every alert is listed below.
          </AlertDescription>
        </Alert>
      ) : null}
      {/* Narrow: details, escalation, timeline; wide: escalation beside the other two. */}
      <div
        className={
          alerts
            ? 'grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_auto_1fr]'
            : 'grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_1fr]'
        }
      >
        <Card className="min-w-0 gap-4 lg:col-start-1">
          <CardHeader>
            <CardTitle asChild>
              <h2>Details</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            <TextSection title="Description" text={incident.description} />
            <TextSection title="Impact" text={incident.impact} />
            <TextSection title="Troubleshooting steps" text={incident.troubleshootingSteps} />
          </CardContent>
        </Card>
        <Card
          className={
            alerts
              ? 'gap-4 self-start lg:col-start-2 lg:row-span-3 lg:row-start-1'
              : 'gap-4 self-start lg:col-start-2 lg:row-span-2 lg:row-start-1'
          }
        >
          <CardHeader>
            <CardTitle asChild>
              <h2>Escalation</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3">
              <Fact term="Rotation">
                {incident.rotation ? (
                  <Link to={`/rotations/${incident.rotation.id}`} className={linkClass}>
                    {incident.rotation.name}
                  </Link>
                ) : (
                  'None: raised on a policy'
                )}
              </Fact>
              <Fact term="Escalation policy">
                {policy.id !== null ? (
                  <Link to={`/escalation-policies/${policy.id}`} className={linkClass}>
                    {policy.name}
                  </Link>
                ) : (
                  `${policy.name} (deleted; this incident keeps its copy)`
                )}
              </Fact>
              <Fact term="Current step">{stepProgressText(incident)}</Fact>
              {open ? (
                <Fact term="Next step">
                  {incident.nextStepAt ? (
                    <time dateTime={incident.nextStepAt}>{fmt.dateTime(incident.nextStepAt)}</time>
                  ) : incident.status === 'acknowledged' ? (
                    'None: acknowledged'
                  ) : incident.exhaustedAt ? (
                    'None: the policy ran out'
                  ) : (
                    'None'
                  )}
                </Fact>
              ) : null}
              <Fact term="With">{assigneesText(incident)}</Fact>
              {alerts ? (
                <>
                  <Fact term="Integration">
                    {alerts.integration?.name ?? `${incident.raisedBy.name} (deleted)`}
                  </Fact>
                  <Fact term="Alerts">
                    {alerts.alertCount === 1
                      ? '1 alert event'
                      : `${alerts.alertCount} alert events`}
                  </Fact>
                </>
              ) : null}
              <Fact term="Raised by">
                {incident.raisedBy.name},{' '}
                <time dateTime={incident.createdAt}>{fmt.dateTime(incident.createdAt)}</time>
              </Fact>
              {incident.acknowledgedAt ? (
                <Fact term="Acknowledged">
                  {incident.acknowledgedBySource?.name ?? 'a deleted user'},{' '}
                  <time dateTime={incident.acknowledgedAt}>
                    {fmt.dateTime(incident.acknowledgedAt)}
                  </time>
                </Fact>
              ) : null}
              {incident.resolvedAt ? (
                <Fact term="Resolved">
                  {incident.resolvedBySource?.name ?? 'a deleted user'},{' '}
                  <time dateTime={incident.resolvedAt}>{fmt.dateTime(incident.resolvedAt)}</time>
                </Fact>
              ) : null}
            </dl>
          </CardContent>
        </Card>
        {alerts ? (
          <div className="min-w-0 lg:col-start-1">
            <IncidentAlerts incidentId={incident.id} alertCount={alerts.alertCount} open={open} />
          </div>
        ) : null}
        <Card className="min-w-0 gap-4 self-start lg:col-start-1">
          <CardHeader>
            <CardTitle asChild>
              <h2>Timeline</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-6">
            <IncidentTimeline events={incident.timeline ?? []} />
            {incident.actions.addNote ? <AddNoteForm incidentId={incident.id} /> : null}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
