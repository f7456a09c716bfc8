import { ADMIN, type RouteAccess, SIGNED_IN } from './types';

export const access: RouteAccess[] = [
  { method: 'GET', route: '/api/users', url: '/api/users', allowed: SIGNED_IN },
  {
    method: 'GET',
    route: '/api/users/by-roles',
    url: '/api/users/by-roles?roles=on-call,manager',
    allowed: SIGNED_IN,
  },
  // The read-only person view (decision 187): every role with rotation.view.
  { method: 'GET', route: '/api/users/:id', url: '/api/users/999999', allowed: SIGNED_IN },
  {
    // Someone else's profile: administrators only (one's own is tested in user-routes.test.ts).
    method: 'PATCH',
    route: '/api/users/:id',
    url: '/api/users/999999',
    body: { name: 'Some Body' },
    allowed: ADMIN,
  },
  { method: 'DELETE', route: '/api/users/:id', url: '/api/users/999999', allowed: ADMIN },
  {
    method: 'PATCH',
    route: '/api/admin/users/:id/roles',
    url: '/api/admin/users/999999/roles',
    body: { roles: ['on-call'] },
    allowed: ADMIN,
  },
  // Someone's notification rules (decision 251): one's own (tested in
  // notification-rules-routes.test.ts), anyone's for administrators.
  {
    method: 'GET',
    route: '/api/users/:id/notification-rules',
    url: '/api/users/999999/notification-rules',
    allowed: ADMIN,
  },
  {
    method: 'PUT',
    route: '/api/users/:id/notification-rules',
    url: '/api/users/999999/notification-rules',
    body: {
      high: [{ method: 'email', delayMinutes: 0 }],
      low: [{ method: 'email', delayMinutes: 0 }],
    },
    allowed: ADMIN,
  },
  {
    method: 'DELETE',
    route: '/api/users/:id/notification-rules',
    url: '/api/users/999999/notification-rules',
    allowed: ADMIN,
  },
  // Working hours and Send a test (decision 254): one's own (reach-the-person.test.ts), anyone's
  // for administrators.
  {
    method: 'GET',
    route: '/api/users/:id/working-hours',
    url: '/api/users/999999/working-hours',
    allowed: ADMIN,
  },
  {
    method: 'PUT',
    route: '/api/users/:id/working-hours',
    url: '/api/users/999999/working-hours',
    body: { days: [1], start: '09:00', end: '17:00', holdLowUrgency: true },
    allowed: ADMIN,
  },
  {
    method: 'POST',
    route: '/api/users/:id/notification-test',
    url: '/api/users/999999/notification-test',
    body: { method: 'email' },
    allowed: ADMIN,
  },
  // Who can be reached: everyone signed in, each seeing whom they look after.
  {
    method: 'GET',
    route: '/api/users/reachability',
    url: '/api/users/reachability',
    allowed: SIGNED_IN,
  },
  // Push (decision 253): the key to everyone signed in; someone's devices, as their rules are
  // (one's own is tested in push-routes.test.ts).
  { method: 'GET', route: '/api/push/public-key', url: '/api/push/public-key', allowed: SIGNED_IN },
  {
    method: 'GET',
    route: '/api/users/:id/push-subscriptions',
    url: '/api/users/999999/push-subscriptions',
    allowed: ADMIN,
  },
  {
    method: 'POST',
    route: '/api/users/:id/push-subscriptions',
    url: '/api/users/999999/push-subscriptions',
    body: {
      endpoint: 'https://push.example.com/send/access-table',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    },
    allowed: ADMIN,
  },
  {
    method: 'PATCH',
    route: '/api/users/:id/push-subscriptions/:deviceId',
    url: '/api/users/999999/push-subscriptions/1',
    body: { name: 'Work phone' },
    allowed: ADMIN,
  },
  {
    method: 'DELETE',
    route: '/api/users/:id/push-subscriptions/:deviceId',
    url: '/api/users/999999/push-subscriptions/1',
    allowed: ADMIN,
  },
];
