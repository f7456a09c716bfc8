import { isAdmin } from '@shared/domain/roles';
import { LoadingState } from '@/components/loading-state';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AllApiTokensCard } from '@/features/api-tokens/components/all-api-tokens-card';
import { ChatIntegrationCards } from '@/features/destinations/components/chat-integration-cards';
import { useRotations } from '@/features/rotations/api/get-rotations';
import { useUserSettings } from '@/features/settings/api/get-user-settings';
import { GeneralSettingsForm } from '@/features/settings/components/general-settings-form';
import { IntegrationsPanel } from '@/features/settings/components/integrations-panel';
import { NotificationSettingsForm } from '@/features/settings/components/notification-settings-form';
import { useAuth } from '@/lib/use-auth';

export function SettingsPage() {
  const { user } = useAuth();
  const settings = useUserSettings();
  const rotations = useRotations({ staleTime: 30_000 });
  return (
    <>
      <PageHeader title="Settings" description="Your time zone, reminders and notifications." />
      <Tabs defaultValue="general" className="gap-4">
        <TabsList>
          <TabsTrigger value="general">General</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="integrations">Integrations</TabsTrigger>
        </TabsList>
        <TabsContent value="general">
          {settings.isPending ? (
            <LoadingState />
          ) : settings.isError ? (
            <Alert variant="destructive">
              <AlertTitle>Failed to load settings</AlertTitle>
              <AlertDescription>Please reload the page to try again.</AlertDescription>
            </Alert>
          ) : (
            <GeneralSettingsForm key={settings.dataUpdatedAt} settings={settings.data} />
          )}
        </TabsContent>
        <TabsContent value="notifications">
          {user ? <NotificationSettingsForm key={user.notificationPreference} user={user} /> : null}
        </TabsContent>
        <TabsContent value="integrations">
          <div className="grid gap-6">
            <IntegrationsPanel />
            <ChatIntegrationCards rotations={rotations.data ?? []} />
            {user && isAdmin(user.roles) ? <AllApiTokensCard /> : null}
          </div>
        </TabsContent>
      </Tabs>
    </>
  );
}
