import { PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AdminTrail } from '@/features/audit-log/components/admin-trail';
import { HandoffHistory } from '@/features/audit-log/components/handoff-history';
import { useAuth } from '@/lib/use-auth';

export function AuditLogPage() {
  const { isAdmin } = useAuth();
  return (
    <>
      <PageHeader
        title="Audit Log"
        showTimeZone
        description="Handoff history across every rotation, and who changed what."
      />
      {isAdmin ? (
        <Tabs defaultValue="handoffs" className="gap-4">
          <TabsList>
            <TabsTrigger value="handoffs">Handoff History</TabsTrigger>
            <TabsTrigger value="admin">Administrative Trail</TabsTrigger>
          </TabsList>
          <TabsContent value="handoffs">
            <HandoffHistory canExport />
          </TabsContent>
          <TabsContent value="admin">
            <AdminTrail />
          </TabsContent>
        </Tabs>
      ) : (
        <HandoffHistory canExport={false} />
      )}
    </>
  );
}
