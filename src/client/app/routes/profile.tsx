import { LoadingState } from '@/components/loading-state';
import { PageHeader } from '@/components/page-header';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiTokensCard } from '@/features/api-tokens/components/api-tokens-card';
import { UpcomingShiftsCard } from '@/features/calendar/components/upcoming-shifts';
import { NotificationRulesCard } from '@/features/notification-rules/components/notification-rules-card';
import { NotificationStatusNote } from '@/features/outbox/components/notification-status-note';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { usePushDevices } from '@/features/push/api/push-devices';
import { PushDevicesCard } from '@/features/push/components/push-devices-card';
import { SendTestCard } from '@/features/reach/components/send-test-card';
import { WorkingHoursCard } from '@/features/reach/components/working-hours-card';
import { TimeOffSection } from '@/features/time-off/components/time-off-section';
import { useAuth } from '@/lib/use-auth';
import { initials } from '@/lib/utils';

export function ProfilePage() {
  const { user } = useAuth();
  if (!user) return <LoadingState />;
  return <Profile user={user} />;
}

function Profile({ user }: { user: NonNullable<ReturnType<typeof useAuth>['user']> }) {
  // A push rule reaches the person when they have a device for it (decision 253).
  const devices = usePushDevices(user.id);
  return (
    <div className="mx-auto w-full max-w-2xl">
      <PageHeader title="Your Profile" description="Your details and how Baton reaches you." />
      <div className="grid gap-6">
        <Card>
          <CardContent className="flex items-center gap-4">
            <Avatar className="size-14">
              <AvatarFallback className="bg-primary text-lg text-primary-foreground">
                {initials(user.name)}
              </AvatarFallback>
            </Avatar>
            <div className="min-w-0">
              <p className="truncate font-medium text-lg">{user.name}</p>
              <p className="truncate text-muted-foreground text-sm">{user.email}</p>
            </div>
          </CardContent>
        </Card>
        <UpcomingShiftsCard of={{ personId: user.id, own: true }} name={user.name} />
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Profile details</h2>
            </CardTitle>
            <CardDescription>
              Pages and handoff notices go to the channels you choose here.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ProfileForm key={user.id} user={user} />
            <NotificationStatusNote user={user} />
          </CardContent>
        </Card>
        <NotificationRulesCard
          person={{ id: user.id, name: user.name, phone: user.phone }}
          own
          reach={{ pushDevices: devices.data?.length ?? 0 }}
        />
        <WorkingHoursCard userId={user.id} />
        <SendTestCard
          person={{ id: user.id, email: user.email, phone: user.phone }}
          devices={devices.data ?? []}
          onDevicesChanged={() => void devices.refetch()}
        />
        <PushDevicesCard userId={user.id} />
        <TimeOffSection personId={user.id} personName={user.name} own />
        <ApiTokensCard />
      </div>
    </div>
  );
}
