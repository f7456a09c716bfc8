import { ADMIN, type RouteAccess } from './types';

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/invitations/:token/validate',
    url: '/api/invitations/not-a-token/validate',
    allowed: 'everyone',
  },
  { method: 'GET', route: '/api/invitations', url: '/api/invitations', allowed: ADMIN },
  {
    method: 'POST',
    route: '/api/invitations',
    url: '/api/invitations',
    body: { email: 'access.table.invitee@example.com', name: 'Access Table', role: 'member' },
    allowed: ADMIN,
  },
  {
    method: 'DELETE',
    route: '/api/invitations/:id',
    url: '/api/invitations/999999',
    allowed: ADMIN,
  },
];
