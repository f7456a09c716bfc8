import { type Caller, type RouteAccess, SIGNED_IN } from './types';

/** Who may hold the baton, and so acknowledge receiving it: never incident managers. */
const BATON_HOLDERS: readonly Caller[] = ['admin', 'manager', 'on-call'];

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/handoffs/recent',
    url: '/api/handoffs/recent?limit=5',
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/handoffs/:id/acknowledge',
    url: '/api/handoffs/999999/acknowledge',
    allowed: BATON_HOLDERS,
  },
];
