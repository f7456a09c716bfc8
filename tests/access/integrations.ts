import { MANAGERS, type RouteAccess, SIGNED_IN } from './types';

// Integrations (decision 210): everyone signed in reads (on-call members only their rotations':
// a made-up id answers 404 first); administrators and managers change them (managers those of
// what they manage, which the made-up id answers with 404 first); an incident's alerts are called
// as the incident is (every role; the made-up id answers 404 first), and answered only to those
// who may see the integrations they came from, others 403 (issue 30, decision 235: the case is
// `an incident’s alerts: another team’s member reads no payload` in
// integration-alert-routes.test.ts).
const missing = '/api/integrations/999999';

export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/integrations', url: '/api/integrations', allowed: SIGNED_IN },
  {
    method: 'POST',
    route: '/api/integrations',
    url: '/api/integrations',
    body: { name: 'Access table integration', rotationId: 999_999 },
    allowed: MANAGERS,
  },
  { method: 'GET', route: '/api/integrations/:id', url: missing, allowed: SIGNED_IN },
  {
    method: 'PATCH',
    route: '/api/integrations/:id',
    url: missing,
    body: { name: 'Renamed integration' },
    allowed: MANAGERS,
  },
  { method: 'DELETE', route: '/api/integrations/:id', url: missing, allowed: MANAGERS },
  { method: 'POST', route: '/api/integrations/:id/key', url: `${missing}/key`, allowed: MANAGERS },
  {
    method: 'POST',
    route: '/api/integrations/:id/test',
    url: `${missing}/test`,
    body: { severity: 'P3' },
    allowed: MANAGERS,
  },
  { method: 'GET', route: '/api/integrations/:id/test', url: `${missing}/test`, allowed: MANAGERS },
  {
    method: 'GET',
    route: '/api/integrations/:id/alerts',
    url: `${missing}/alerts`,
    allowed: SIGNED_IN,
  },
  {
    method: 'GET',
    route: '/api/incidents/:id/alerts',
    url: '/api/incidents/999999/alerts',
    allowed: SIGNED_IN,
  },
];
