import type { Incident } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import type { PagingDeps } from '../paging/page-facts';

/**
 * Reading incidents as a viewer sees them (issue 16). Being written in a parallel branch: this
 * signature is what the action routes answer with.
 */
export async function getIncident(
  _deps: PagingDeps,
  _viewer: User,
  _incidentId: number,
): Promise<Incident> {
  throw new Error('getIncident: not merged yet');
}
