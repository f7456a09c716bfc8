import type { RouteAccess } from './types';

export const access: RouteAccess[] = [
  // The help pages are public, and so are the timings they show.
  { method: 'GET', route: '/api/help/timings', url: '/api/help/timings', allowed: 'everyone' },
];
