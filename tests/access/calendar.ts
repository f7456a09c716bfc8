import { type RouteAccess, SIGNED_IN } from './types';

/** A made-up feed secret: the feeds answer 404 for it, never 401 or 403. */
const bogus = 'bogus-feed-secret-0000000000000000000000';

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/calendar',
    url: '/api/calendar?from=2026-11-01T00:00:00Z&to=2026-12-06T00:00:00Z',
    allowed: SIGNED_IN,
  },
  { method: 'GET', route: '/api/calendar/feed', url: '/api/calendar/feed', allowed: SIGNED_IN },
  {
    method: 'POST',
    route: '/api/calendar/feed/reset',
    url: '/api/calendar/feed/reset',
    allowed: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/calendar/feeds/:token/me.ics',
    url: `/api/calendar/feeds/${bogus}/me.ics`,
    allowed: 'everyone',
  },
  {
    method: 'GET',
    route: '/api/calendar/feeds/:token/rotations/:file',
    url: `/api/calendar/feeds/${bogus}/rotations/1.ics`,
    allowed: 'everyone',
  },
];
