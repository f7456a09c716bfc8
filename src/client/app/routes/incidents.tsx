import { can } from '@shared/domain/permissions';
import { BellRing, Plus } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useRotationNames } from '@/features/incidents/api/get-rotation-names';
import { IncidentList } from '@/features/incidents/components/incident-list';
import { RaiseIncidentDialog } from '@/features/incidents/components/raise-incident-dialog';
import {
  filtersFromSearch,
  type IncidentFilters,
  searchFromFilters,
} from '@/features/incidents/lib/incident-view';
import { useAuth } from '@/lib/use-auth';

/**
 * IncidentsPage (/incidents): every incident the viewer may see, filtered by status, severity,
 * rotation and words of the title (kept in the address), "Page history" (the pages screen, which
 * the menu's one Incidents entry covers), and "Raise incident" for those who may page: incident
 * managers, administrators and managers.
 */
export function IncidentsPage() {
  const { roles } = useAuth();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const onFiltersChange = useCallback(
    (next: IncidentFilters) => setParams(searchFromFilters(next), { replace: true }),
    [setParams],
  );
  const [raising, setRaising] = useState(false);
  const mayRaise = can(roles, 'page.send');
  const rotations = useRotationNames();

  return (
    <>
      <PageHeader
        title="Incidents"
        showTimeZone
        description="Everything that needed a person: what is open, who has it, and what happened."
        actions={
          <>
            {/* Every page is an incident; its page history stays a screen of its own (decision 260). */}
            <Button asChild variant="outline">
              <Link to="/pages">
                <BellRing aria-hidden="true" />
                Page history
              </Link>
            </Button>
            {mayRaise ? (
              <Button onClick={() => setRaising(true)}>
                <Plus aria-hidden="true" />
                Raise incident
              </Button>
            ) : null}
          </>
        }
      />
      <IncidentList filters={filters} onFiltersChange={onFiltersChange} />
      {mayRaise ? (
        <RaiseIncidentDialog
          open={raising}
          onOpenChange={setRaising}
          rotations={rotations.data ?? []}
        />
      ) : null}
    </>
  );
}
