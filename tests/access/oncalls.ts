import { type RouteAccess, SIGNED_IN } from './types';

// Whoever may view rotations reads who holds each one's baton (decision 226).
export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/oncalls',
    url: '/api/oncalls?at=2026-11-01T00:00:00Z',
    allowed: SIGNED_IN,
  },
];
