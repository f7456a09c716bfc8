import { MANAGERS, type RouteAccess, SIGNED_IN } from './types';

// Destinations (decision 221): everyone signed in reads (on-call members only their rotations':
// a made-up id answers 404 first); administrators and managers change them (managers those of
// what they manage, which the made-up id answers with 404 first).
const missing = '/api/destinations/999999';

export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/destinations', url: '/api/destinations', allowed: SIGNED_IN },
  {
    method: 'POST',
    route: '/api/destinations',
    url: '/api/destinations',
    body: {
      kind: 'slack',
      url: 'https://hooks.slack.com/services/T0/B0/access',
      rotationId: 999_999,
      events: ['handoff'],
    },
    allowed: MANAGERS,
  },
  { method: 'GET', route: '/api/destinations/:id', url: missing, allowed: SIGNED_IN },
  {
    method: 'PATCH',
    route: '/api/destinations/:id',
    url: missing,
    body: { events: ['cover'] },
    allowed: MANAGERS,
  },
  { method: 'DELETE', route: '/api/destinations/:id', url: missing, allowed: MANAGERS },
  {
    method: 'POST',
    route: '/api/destinations/:id/test',
    url: `${missing}/test`,
    allowed: MANAGERS,
  },
  {
    method: 'GET',
    route: '/api/destinations/:id/deliveries',
    url: `${missing}/deliveries`,
    allowed: SIGNED_IN,
  },
];
