import type { PersonDetail } from '@shared/contracts/users';
import { hasRole } from '@shared/domain/roles';
import { ArrowLeft, CircleAlert, UserRoundCog } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { UpcomingShiftsCard } from '@/features/calendar/components/upcoming-shifts';
import { NotificationRulesCard } from '@/features/notification-rules/components/notification-rules-card';
import { usePerson } from '@/features/people/api/get-person';
import {
  PersonContact,
  PersonCovering,
  PersonRotations,
} from '@/features/people/components/person-view';
import { usePushDevices } from '@/features/push/api/push-devices';
import { SendTestCard } from '@/features/reach/components/send-test-card';
import { WorkingHoursCard } from '@/features/reach/components/working-hours-card';
import { TimeOffSection } from '@/features/time-off/components/time-off-section';
import { ApiRequestError } from '@/lib/api-client';
import { useAuth } from '@/lib/use-auth';

function BackButton() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 mb-2 w-fit text-muted-foreground">
      <Link to="/on-call-team">
        <ArrowLeft aria-hidden="true" />
        Back to On-Call Team
      </Link>
    </Button>
  );
}

function PersonNotFound() {
  return (
    <div className="flex flex-col items-center justify-center gap-4 py-20 text-center">
      <CircleAlert className="size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="font-semibold text-2xl tracking-tight">Person Not Found</h1>
      <p className="max-w-md text-muted-foreground">
        This person could not be found. Their account may have been deleted.
      </p>
      <Button asChild>
        <Link to="/on-call-team">
          <ArrowLeft aria-hidden="true" />
          Return to On-Call Team
        </Link>
      </Button>
    </div>
  );
}

/**
 * HowBatonReaches: an administrator's view of how Baton reaches someone else (decision 265): their
 * notification rules, their working hours and a test by each way, with the profile's own
 * editor and cards speaking of the person. One's own are edited on the profile.
 */
function HowBatonReaches({ person }: { person: PersonDetail }) {
  const devices = usePushDevices(person.id);
  return (
    <section aria-label={`How Baton reaches ${person.name}`} className="grid gap-4 lg:col-span-2">
      <NotificationRulesCard
        person={{ id: person.id, name: person.name, phone: person.phone }}
        own={false}
        reach={{ pushDevices: devices.data?.length ?? 0 }}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <WorkingHoursCard userId={person.id} name={person.name} />
        <SendTestCard
          person={{ id: person.id, email: person.email, phone: person.phone }}
          name={person.name}
          devices={devices.data ?? []}
          onDevicesChanged={() => void devices.refetch()}
        />
      </div>
    </section>
  );
}

/**
 * PersonPage is /people/{id}: a teammate's read-only view, opened from the On-Call Team by every
 * member (decision 187). Administrators also get 'Manage User', to User Management, and for
 * someone else how Baton reaches them: rules, working hours and tests (decision 265).
 */
export function PersonPage() {
  const { id } = useParams();
  const personId = Number(id);
  const valid = Number.isInteger(personId) && personId > 0;
  const person = usePerson(personId, { enabled: valid });
  const { isAdmin, user, roles } = useAuth();
  // The person's time off: theirs, their rotations' managers' and administrators' to see.
  const mayManage = isAdmin || hasRole(roles, 'manager') || user?.id === personId;

  if (!valid) return <PersonNotFound />;
  if (person.isPending) {
    return (
      <div className="grid gap-6" role="status" aria-label="Loading person">
        <Skeleton className="h-8 w-48" />
        <div className="grid gap-4 lg:grid-cols-2">
          <Skeleton className="h-48 rounded-xl" />
          <Skeleton className="h-48 rounded-xl" />
        </div>
      </div>
    );
  }
  if (person.isError) {
    const status = person.error instanceof ApiRequestError ? person.error.status : 0;
    if (status === 404 || status === 400) return <PersonNotFound />;
    return (
      <div className="grid gap-6">
        <BackButton />
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>Failed to fetch this person</AlertTitle>
          <AlertDescription>
            <Button variant="outline" size="sm" onClick={() => person.refetch()}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      </div>
    );
  }
  const data = person.data;
  return (
    <>
      <BackButton />
      <PageHeader
        title={data.name}
        description="A teammate's contact details, rotations, upcoming shifts and the coverage they give."
        showTimeZone
        actions={
          isAdmin ? (
            <Button asChild variant="outline">
              <Link to="/admin/users">
                <UserRoundCog aria-hidden="true" />
                Manage User
              </Link>
            </Button>
          ) : null
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <PersonContact person={data} />
        <PersonRotations person={data} />
        <div className="lg:col-span-2">
          <UpcomingShiftsCard
            of={{ personId: data.id, own: user?.id === data.id }}
            name={data.name}
          />
        </div>
        <div className="lg:col-span-2">
          <PersonCovering person={data} />
        </div>
        {isAdmin && user?.id !== data.id ? <HowBatonReaches person={data} /> : null}
        {mayManage ? (
          <div className="lg:col-span-2">
            <TimeOffSection
              personId={data.id}
              personName={data.name}
              own={user?.id === data.id}
              hideWhenForbidden
            />
          </div>
        ) : null}
      </div>
    </>
  );
}
