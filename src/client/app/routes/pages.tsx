import { Siren } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { useMyPages } from '@/features/paging/api/get-my-pages';
import { PageDeliveryFailuresPanel } from '@/features/paging/components/page-delivery-failures-panel';
import { PagesForMePanel } from '@/features/paging/components/pages-for-me-panel';
import { RotationPageHistory } from '@/features/paging/components/rotation-page-history';
import { useRotations } from '@/features/rotations/api/get-rotations';

/**
 * PagesPage (/pages) is where a page's links lead: the pages waiting for the signed-in user, and
 * the page history of a rotation (?rotation={id}, the first rotation by default). The menu's
 * Incidents entry covers it, and each page opens as the incident it is (decision 260).
 */
export function PagesPage() {
  const [params, setParams] = useSearchParams();
  const rotations = useRotations({ staleTime: 10_000 });
  const list = rotations.data ?? [];
  const mine = useMyPages();
  const asked = Number(params.get('rotation'));
  // Default: the rotation of the newest page sent to me, else the first rotation.
  const fallback = mine.data?.[0]?.rotation.id ?? list[0]?.id ?? null;
  const rotationId = list.some((r) => r.id === asked) ? asked : fallback;

  return (
    <>
      <PageHeader
        title="Pages"
        showTimeZone
        description="Pages sent to you, and the page history of each rotation. Every page is an incident."
        actions={
          <Button asChild variant="outline">
            <Link to="/incidents">
              <Siren aria-hidden="true" />
              All incidents
            </Link>
          </Button>
        }
      />
      <div className="grid gap-6">
        <PageDeliveryFailuresPanel />
        <PagesForMePanel />
        {list.length > 0 && rotationId !== null ? (
          <section className="grid gap-3" aria-label="Page history by rotation">
            <div className="flex flex-wrap items-center gap-3">
              <Label htmlFor="page-history-rotation">Rotation</Label>
              <Select
                value={String(rotationId)}
                onValueChange={(value) => setParams({ rotation: value }, { replace: true })}
              >
                <SelectTrigger id="page-history-rotation" className="w-64">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {list.map((r) => (
                    <SelectItem key={r.id} value={String(r.id)}>
                      {r.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <RotationPageHistory
              key={rotationId}
              rotationId={rotationId}
              title={`Page history: ${list.find((r) => r.id === rotationId)?.name ?? ''}`}
            />
          </section>
        ) : null}
      </div>
    </>
  );
}
