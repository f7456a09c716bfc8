import type { RouteAccess } from './types';

/**
 * The Slack app (decision 222): Slack's signature is the credential, not a session; off in the
 * access test's app (no SLACK_SIGNING_SECRET), where every caller gets 404.
 */
export const access: RouteAccess[] = [
  {
    method: 'POST',
    route: '/api/slack/interactions',
    url: '/api/slack/interactions',
    body: { payload: '{}' },
    allowed: 'everyone',
    status: 404,
  },
  {
    method: 'POST',
    route: '/api/slack/commands',
    url: '/api/slack/commands',
    body: { command: '/baton', text: 'help', user_id: 'U0TEST' },
    allowed: 'everyone',
    status: 404,
  },
];
