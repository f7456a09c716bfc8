import type { RouteAccess } from './types';

export const access: RouteAccess[] = [
  // The help pages are public, and so are the timings and the links they show.
  { method: 'GET', route: '/api/help/timings', url: '/api/help/timings', allowed: 'everyone' },
  { method: 'GET', route: '/api/help/links', url: '/api/help/links', allowed: 'everyone' },
];
