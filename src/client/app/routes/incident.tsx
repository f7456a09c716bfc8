import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { LoadingState } from '@/components/loading-state';
import { PageHeader } from '@/components/page-header';
import { TimesInZone } from '@/components/times-in-zone';
import { Button } from '@/components/ui/button';
import { useIncident } from '@/features/incidents/api/get-incident';
import { IncidentDetail, IncidentHeading } from '@/features/incidents/components/incident-detail';
import { ApiRequestError } from '@/lib/api-client';

function BackLink() {
  return (
    <Button variant="ghost" size="sm" className="w-fit" asChild>
      <Link to="/incidents">
        <ArrowLeft aria-hidden="true" /> Incidents
      </Link>
    </Button>
  );
}

/** IncidentPage (/incidents/:id): one incident, its timeline and what the viewer may do. */
export function IncidentPage() {
  const incidentId = Number(useParams().id);
  const valid = Number.isSafeInteger(incidentId) && incidentId > 0;
  return (
    <div className="grid gap-4">
      <BackLink />
      {valid ? <Loaded incidentId={incidentId} /> : <PageHeader title="Incident not found" />}
    </div>
  );
}

function Loaded({ incidentId }: { incidentId: number }) {
  const incident = useIncident(incidentId);
  if (incident.isPending) return <LoadingState />;
  if (incident.isError) {
    const status = incident.error instanceof ApiRequestError ? incident.error.status : 0;
    return (
      <PageHeader
        title={
          status === 404 ? 'Incident not found' : status === 403 ? 'Not your incident' : 'Error'
        }
        description={
          status === 403
            ? 'You can only view the incidents of your rotations.'
            : status === 404
              ? 'This incident does not exist.'
              : 'The incident could not be loaded.'
        }
      />
    );
  }
  return (
    <>
      <div className="grid gap-1">
        <IncidentHeading incident={incident.data} />
        <TimesInZone />
      </div>
      <IncidentDetail incident={incident.data} />
    </>
  );
}
