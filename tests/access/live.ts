import { type RouteAccess, SIGNED_IN } from './types';

// The live stream (issue 19, decision 220): every signed-in person's own; a request made in
// process (app.inject) gets the stream's opening and its end.
export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/events', url: '/api/events', allowed: SIGNED_IN },
];
