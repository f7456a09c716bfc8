/** Polling and freshness of rotation reads (specification sections 7 and 9). */
export const ROTATIONS_REFETCH_INTERVAL_MS = 15_000;
/** The rotations list screen treats its data as fresh this long. */
export const ROTATIONS_LIST_STALE_MS = 5_000;
/** The dashboard treats rotation data as fresh this long. */
export const DASHBOARD_STALE_MS = 10_000;
/** After creating a rotation the list is fetched again this long later. */
export const CREATE_REFETCH_DELAY_MS = 500;
/** Roles whose holders may be added to a rotation or asked for coverage. */
export const ELIGIBLE_MEMBER_ROLES = 'on-call,manager';
