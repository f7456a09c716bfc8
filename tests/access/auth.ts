import { type RouteAccess, SIGNED_IN } from './types';

export const access: RouteAccess[] = [
  { method: 'GET', route: '/healthz', url: '/healthz', allowed: 'everyone' },
  { method: 'GET', route: '/readyz', url: '/readyz', allowed: 'everyone' },
  { method: 'GET', route: '/api/health', url: '/api/health', allowed: 'everyone' },
  { method: 'GET', route: '/api/auth/options', url: '/api/auth/options', allowed: 'everyone' },
  { method: 'GET', route: '/api/auth/user', url: '/api/auth/user', allowed: SIGNED_IN },
  {
    method: 'POST',
    route: '/api/auth/login',
    url: '/api/auth/login',
    body: { email: 'nobody@example.com', password: 'wrong-password' },
    // Anyone may try; a wrong password answers 401 for everyone, so it is checked separately.
    allowed: 'everyone',
  },
  { method: 'POST', route: '/api/auth/logout', url: '/api/auth/logout', allowed: 'everyone' },
  // Sign-in with Google: not configured in this test app (404 for everyone), tested in
  // src/server/modules/auth/oidc-routes.test.ts with a provider.
  {
    method: 'GET',
    route: '/api/auth/oidc/start',
    url: '/api/auth/oidc/start',
    allowed: 'everyone',
  },
  {
    method: 'GET',
    route: '/api/auth/oidc/callback',
    url: '/api/auth/oidc/callback?code=x&state=y',
    allowed: 'everyone',
  },
  {
    method: 'GET',
    route: '/api/auth/oidc/popup.js',
    url: '/api/auth/oidc/popup.js',
    allowed: 'everyone',
  },
  {
    method: 'POST',
    route: '/api/auth/firebase',
    url: '/api/auth/firebase',
    body: { token: 'not-a-token' },
    allowed: 'everyone',
  },
];
