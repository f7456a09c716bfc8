import type { RouteAccess } from './types';

/**
 * The inbound alert endpoints (issue 17, decision 211): monitoring tools call them signed out; the
 * integration key in the request is the credential, and a session changes nothing. Without a
 * valid key every caller is refused alike: PagerDuty's 400 naming routing_key, 401 elsewhere.
 */
const unknownKey = '0123456789abcdef0123456789abcdef';

export const access: RouteAccess[] = [
  {
    method: 'POST',
    route: '/api/alerts/pagerduty/v2/enqueue',
    url: '/api/alerts/pagerduty/v2/enqueue',
    body: {
      routing_key: unknownKey,
      event_action: 'trigger',
      payload: { summary: 'Disk full', source: 'db1', severity: 'critical' },
    },
    allowed: 'everyone',
    status: 400,
  },
  {
    method: 'POST',
    route: '/api/alerts/opsgenie/v2/alerts',
    url: '/api/alerts/opsgenie/v2/alerts',
    body: { message: 'Disk full' },
    allowed: 'everyone',
    status: 401,
  },
  {
    method: 'POST',
    route: '/api/alerts/opsgenie/v2/alerts/:identifier/close',
    url: '/api/alerts/opsgenie/v2/alerts/disk-full/close?identifierType=alias',
    body: { source: 'test' },
    allowed: 'everyone',
    status: 401,
  },
  {
    method: 'POST',
    route: '/api/alerts/opsgenie/v2/alerts/:identifier/acknowledge',
    url: '/api/alerts/opsgenie/v2/alerts/disk-full/acknowledge?identifierType=alias',
    body: { source: 'test' },
    allowed: 'everyone',
    status: 401,
  },
  {
    method: 'POST',
    route: '/api/alerts/alertmanager',
    url: `/api/alerts/alertmanager?token=${unknownKey}`,
    body: {},
    allowed: 'everyone',
    status: 401,
  },
  {
    method: 'POST',
    route: '/api/alerts/grafana',
    url: `/api/alerts/grafana?token=${unknownKey}`,
    body: {},
    allowed: 'everyone',
    status: 401,
  },
  {
    method: 'POST',
    route: '/api/alerts/generic',
    url: `/api/alerts/generic?token=${unknownKey}`,
    body: { summary: 'Backup failed' },
    allowed: 'everyone',
    status: 401,
  },
];
