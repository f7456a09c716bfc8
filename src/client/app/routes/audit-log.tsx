import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AdminTrail } from '@/features/audit-log/components/admin-trail';
import { HandoffHistory } from '@/features/audit-log/components/handoff-history';
import { useRotation } from '@/features/rotations/api/get-rotation';
import { useAuth } from '@/lib/use-auth';

/** rotationIdParam reads ?rotationId=N (a row id), or null when absent or not one. */
function rotationIdParam(value: string | null): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/**
 * AuditLogPage (/audit-log): the handoff history, limited to one rotation by ?rotationId=N (the
 * rotation page's 'View all'), and for administrators the administrative trail.
 */
export function AuditLogPage() {
  const { isAdmin } = useAuth();
  const [params, setParams] = useSearchParams();
  const rotationId = rotationIdParam(params.get('rotationId'));
  const rotation = useRotation(rotationId ?? 0, { enabled: rotationId !== null });
  const rotationFilter =
    rotationId === null ? null : { id: rotationId, name: rotation.data?.name ?? null };
  const clearRotation = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('rotationId');
        return next;
      },
      { replace: true },
    );
  const history = (canExport: boolean) => (
    <HandoffHistory
      canExport={canExport}
      rotation={rotationFilter}
      onClearRotation={clearRotation}
    />
  );
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
          <TabsContent value="handoffs">{history(true)}</TabsContent>
          <TabsContent value="admin">
            <AdminTrail />
          </TabsContent>
        </Tabs>
      ) : (
        history(false)
      )}
    </>
  );
}
