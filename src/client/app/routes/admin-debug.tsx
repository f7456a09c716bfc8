import { ShieldAlert } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AuditIntegrity } from '@/features/debug/components/audit-integrity';
import { ClientCheck } from '@/features/debug/components/client-check';
import { EnvironmentCheck } from '@/features/debug/components/environment-check';
import { RotationTools } from '@/features/debug/components/rotation-tools';

export function DebugToolsPage() {
  return (
    <>
      <PageHeader title="Debug Tools" description="Diagnostics for administrators." />
      <Alert tone="warning" className="mb-6">
        <ShieldAlert aria-hidden="true" />
        <AlertTitle>Administrator Access Only</AlertTitle>
        <AlertDescription>
          These tools read the whole rotations table and run extra database queries. Running them on
          a busy production system may have a performance impact; use them to diagnose a problem,
          not routinely.
        </AlertDescription>
      </Alert>
      <Tabs defaultValue="rotation-tools" className="gap-4">
        <TabsList className="h-auto max-w-full flex-wrap justify-start">
          <TabsTrigger className="h-8 flex-none" value="rotation-tools">
            Rotation Tools
          </TabsTrigger>
          <TabsTrigger className="h-8 flex-none" value="environment">
            Environment Check
          </TabsTrigger>
          <TabsTrigger className="h-8 flex-none" value="client">
            Client Check
          </TabsTrigger>
          <TabsTrigger className="h-8 flex-none" value="audit">
            Audit Integrity
          </TabsTrigger>
        </TabsList>
        <TabsContent value="rotation-tools">
          <RotationTools />
        </TabsContent>
        <TabsContent value="environment">
          <EnvironmentCheck />
        </TabsContent>
        <TabsContent value="client">
          <ClientCheck />
        </TabsContent>
        <TabsContent value="audit">
          <AuditIntegrity />
        </TabsContent>
      </Tabs>
    </>
  );
}
