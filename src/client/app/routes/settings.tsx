import { isAdmin } from '@shared/domain/roles';
import { useSearchParams } from 'react-router';
import { LoadingState } from '@/components/loading-state';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AllApiTokensCard } from '@/features/api-tokens/components/all-api-tokens-card';
import { ChatIntegrationCards } from '@/features/destinations/components/chat-integration-cards';
import { ImportPanel } from '@/features/imports/components/import-panel';
import { useRotations } from '@/features/rotations/api/get-rotations';
import { useUserSettings } from '@/features/settings/api/get-user-settings';
import { GeneralSettingsForm } from '@/features/settings/components/general-settings-form';
import { IntegrationsPanel } from '@/features/settings/components/integrations-panel';
import { NotificationSettingsForm } from '@/features/settings/components/notification-settings-form';
import { useAuth } from '@/lib/use-auth';

const TABS = ['general', 'notifications', 'integrations', 'import'] as const;

export function SettingsPage() {
  const { user } = useAuth();
  const admin = user ? isAdmin(user.roles) : false;
  // The tab is in the address (?tab=import), so Settings → Import can be linked to and reloaded.
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab = TABS.find((t) => t === asked && (t !== 'import' || admin)) ?? 'general';
  const settings = useUserSettings();
  const rotations = useRotations({ staleTime: 30_000 });
  return (
    <>
      <PageHeader title="Settings" description="Your time zone, reminders and notifications." />
      <Tabs
        value={tab}
        onValueChange={(next) =>
          setParams(next === 'general' ? {} : { tab: next }, { replace: true })
        }
        className="gap-4"
      >
        <TabsList>
          <TabsTrigger value="general">General</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="integrations">Integrations</TabsTrigger>
          {admin ? <TabsTrigger value="import">Import</TabsTrigger> : null}
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
            {admin ? <AllApiTokensCard /> : null}
          </div>
        </TabsContent>
        {admin ? (
          <TabsContent value="import">
            <ImportPanel />
          </TabsContent>
        ) : null}
      </Tabs>
    </>
  );
}
