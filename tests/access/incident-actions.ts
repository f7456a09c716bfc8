import { type RouteAccess, SIGNED_IN } from './types';

// Made-up ids: allowed callers get 404 (or 400), never 401/403. Who may act on an incident is
// decided by the service under its lock (isIncidentResponder, canPageRotation), after the 404.
const missingIncident = '/api/incidents/999999';

export const access: RouteAccess[] = [
  {
    method: 'POST',
    route: '/api/incidents',
    url: '/api/incidents',
    body: { title: 'Checkout is failing', rotationId: 999999 },
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/incidents/:id/acknowledge',
    url: `${missingIncident}/acknowledge`,
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/incidents/:id/resolve',
    url: `${missingIncident}/resolve`,
    body: { note: 'Rolled back' },
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/incidents/:id/reopen',
    url: `${missingIncident}/reopen`,
    body: { reason: 'Errors are back' },
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/incidents/:id/escalate',
    url: `${missingIncident}/escalate`,
    body: { reason: 'Nobody answers', toStep: 2 },
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/incidents/:id/reassign',
    url: `${missingIncident}/reassign`,
    body: { userId: 1, reason: 'Knows the payments code' },
    allowed: SIGNED_IN,
  },
];
