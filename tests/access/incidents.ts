import { type RouteAccess, SIGNED_IN } from './types';

// Incidents (decision 205): every role reads every incident; a note needs a responder, which the
// made-up id answers with 404 before any permission check on the incident.
const missingIncident = '/api/incidents/999999';

export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/incidents', url: '/api/incidents', allowed: SIGNED_IN },
  { method: 'GET', route: '/api/incidents/:id', url: missingIncident, allowed: SIGNED_IN },
  {
    method: 'POST',
    route: '/api/incidents/:id/notes',
    url: `${missingIncident}/notes`,
    body: { text: 'Looking into it' },
    allowed: SIGNED_IN,
  },
];
