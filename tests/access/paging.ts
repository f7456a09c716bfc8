import { type RouteAccess, SIGNED_IN } from './types';

// Made-up ids and tokens: allowed callers get 404 or 400, never 401/403.
const missingPage = '/api/pages/999999';
const missingToken = '999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export const access: RouteAccess[] = [
  {
    method: 'GET',
    route: '/api/rotations/:id/pages',
    url: '/api/rotations/999999/pages',
    allowed: SIGNED_IN,
  },
  { method: 'GET', route: '/api/user/pages', url: '/api/user/pages', allowed: SIGNED_IN },
  {
    method: 'GET',
    route: '/api/user/page-delivery-failures',
    url: '/api/user/page-delivery-failures',
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/pages/:id/acknowledge',
    url: `${missingPage}/acknowledge`,
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/pages/:id/resolve',
    url: `${missingPage}/resolve`,
    allowed: SIGNED_IN,
  },
  {
    method: 'POST',
    route: '/api/pages/:id/escalate',
    url: `${missingPage}/escalate`,
    body: { reason: 'Not answering' },
    allowed: SIGNED_IN,
  },
  // The acknowledgement link needs no sign-in: the token is the credential.
  {
    method: 'GET',
    route: '/api/pages/ack/:token',
    url: `/api/pages/ack/${missingToken}`,
    allowed: 'everyone',
  },
  {
    method: 'POST',
    route: '/api/pages/ack/:token',
    url: `/api/pages/ack/${missingToken}`,
    allowed: 'everyone',
  },
  // SMS replies (decision 201): Twilio's signature is the credential, not a session; off in the
  // access test's app (no TWILIO_AUTH_TOKEN), where every caller gets 404.
  {
    method: 'POST',
    route: '/api/twilio/sms',
    url: '/api/twilio/sms',
    body: { From: '+15550100001', Body: '4821' },
    allowed: 'everyone',
  },
  // Phone calls' callbacks (decision 252): Twilio's signature is the credential, and the token in
  // the path names the call; off in the access test's app (no Twilio), where every caller gets 404.
  ...['', '/gather', '/status'].map(
    (tail): RouteAccess => ({
      method: 'POST',
      route: `/api/twilio/voice/:id/:token${tail}`,
      url: `/api/twilio/voice/999999/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA${tail}`,
      body: { CallSid: 'CA0123456789abcdef0123456789abcdef', Digits: '1' },
      allowed: 'everyone',
    }),
  ),
];
