import { MANAGERS, type RouteAccess, SIGNED_IN } from './types';

// Everyone signed in reads (on-call members only their rotations' policies: a made-up id answers
// 404 first); managers and administrators create, and change what they manage (decision 202).
const missing = '/api/escalation-policies/999999';
const policy = {
  name: 'Access table policy',
  repeat: 0,
  steps: [{ delayMinutes: 5, targets: [{ type: 'user', id: 1 }] }],
};

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/escalation-policies',
    url: '/api/escalation-policies',
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/escalation-policies',
    url: '/api/escalation-policies',
    body: policy,
    allowed: MANAGERS,
  },
  { method: 'GET', route: '/api/escalation-policies/:id', url: missing, allowed: SIGNED_IN },
  {
    method: 'PATCH',
    route: '/api/escalation-policies/:id',
    url: missing,
    body: { name: 'Renamed policy' },
    allowed: MANAGERS,
  },
  { method: 'DELETE', route: '/api/escalation-policies/:id', url: missing, allowed: MANAGERS },
  {
    method: 'GET',
    route: '/api/escalation-policies/:id/preview',
    url: `${missing}/preview`,
    allowed: SIGNED_IN,
  },
];
