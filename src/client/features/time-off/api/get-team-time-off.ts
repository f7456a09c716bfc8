import type { TeamTimeOff } from '@shared/contracts/time-off';
import { queryOptions, useQuery } from '@tanstack/react-query';

/**
 * useTeamTimeOff reads the time off of the people whose time off the viewer manages
 * (GET /api/time-off, decision 256): administrators everyone's, managers their rotations' people.
 */
export function useTeamTimeOff() {
  return useQuery(queryOptions<TeamTimeOff>({ queryKey: ['/api/time-off'] }));
}
